import Foundation
import TestSupport
import Testing
import ThrobberKit

/// Every preset's Lottie file drawn by two more players Throbber did not
/// write — Qt 6.4's LottieAnimation (Debian's Qt Lottie, through PyQt6)
/// and ThorVG 1.0.4 (PyPI thorvg-python) — at every frame of the loop,
/// at --size 240 as in ``VectorRendererTests``, and compared with
/// Throbber's own lossless APNG (PSNR on white, Tests/tools/vector_render.py).
@Suite("Lottie export drawn by Qt 6.4 and ThorVG matches the frames", .tags(.slow))
struct VectorPlayerTests {
    /// The presets Qt 6.4 does not draw, and why.
    static let qtUnsupported = [
        "ease":
            "its icon fades as a whole (three overlapping discs): a precomposition (ty 0) placed by a null layer (ty 3), which Qt 6.4 leaves out (\"Unsupported layer type\")",
        "spinner-check":
            "its ring and check fade out as a whole: a precomposition (ty 0), which Qt 6.4 leaves out (\"Unsupported layer type\")",
    ]

    /// Least PSNR of Qt's frames against the APNG, per preset. Qt 6.4 ends
    /// each keyframe segment a frame before the next key (bmproperty_p.h:
    /// `endFrame = startFrame - 1` of the next), so late in a segment it
    /// shows the animation up to a frame ahead: a one-segment turn over 25
    /// frames (orbit) is 14° ahead on its last frame, and a flip keyed at
    /// every frame (dots-flip, square-spin) is a whole frame ahead. No file
    /// can time it right for Qt without changing what the other players
    /// read, so these floors are Qt's measured frames (less half a dB);
    /// that Qt draws everything else the file says is checked against
    /// rlottie drawing the file at Qt's timing (``qtTiming``).
    static let qtFloors: [String: Double] = [
        "dots": 29, "dots-flip": 15.5, "spinner": 40, "ring": 21.5, "dual-ring": 19.5, "chase": 28, "orbit": 18.5,
        "pulse": 24.5, "ripple": 22, "heart": 18.5, "square-spin": 11, "grid": 18.5, "bars": 21.5, "wave": 19.5,
        "bounce": 17.5, "ellipsis": 35, "pacman": 22.5, "text-wave": 22.5, "label": 26, "checkmark": 24.5,
    ]

    static let presets = PresetCatalog.all.map(\.name)

    static let qtQML = "/usr/lib/x86_64-linux-gnu/qt6/qml/Qt/labs/lottieqt"
    static let qt =
        FileManager.default.fileExists(atPath: qtQML)
        && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/PyQt6/QtQuick.abi3.so")
    static let thorvg = FileManager.default.fileExists(
        atPath: Paths.repository.appendingPathComponent(".build/pylib/thorvg_python").path)

    struct Drawn: Decodable {
        var available: Bool
        var why: String?
        var warnings: [String]?
    }

    /// The preset's APNG and Lottie file at --size 240, its frame count and pixel size.
    static func export(_ name: String, in dir: URL) throws -> (ref: URL, lottie: URL, frames: Int, size: (Int, Int)) {
        let ref = dir.appendingPathComponent("ref.png")
        let lottie = dir.appendingPathComponent("loader.json")
        for out in [ref, lottie] {
            let r = try Throbber.run(["preset", name, "--size", "240", "-o", out.path, "-q"])
            try #require(r.status == 0, "\(name) -o \(out.lastPathComponent): \(r.stderrText)")
        }
        let top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lottie)) as? [String: Any])
        let frames = try #require(top["op"] as? Int)
        let loop = try VectorSupport.apngLoop(ref)
        return (ref, lottie, frames, (loop.width, loop.height))
    }

    /// Draws `lottie`'s frames 0..<frames with `command` of vector_render.py into `out`.
    static func draw(_ command: String, _ lottie: URL, frames: Int, size: (Int, Int), _ out: URL) throws -> Drawn {
        let list = "[" + (0..<frames).map(String.init).joined(separator: ",") + "]"
        let json = try Pillow.script(
            "vector_render.py", [command, lottie.path, list, "\(size.0)", "\(size.1)", out.path])
        return try JSONDecoder().decode(Drawn.self, from: json)
    }

    @Test(
        "Qt 6.4 draws every preset it supports as rlottie draws it at Qt's timing (35 dB), and as its frames within Qt's floor",
        .enabled(if: qt || Fixtures.onCI, "skipped: Qt Lottie or PyQt6 is not installed (scripts/install-deps)"),
        arguments: presets)
    func qtDraws(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let (ref, lottie, frames, size) = try Self.export(name, in: dir)
            let out = dir.appendingPathComponent("qt")
            let drawn = try Self.draw("lottie-qt", lottie, frames: frames, size: size, out)
            try #require(drawn.available, "Qt cannot draw: \(drawn.why ?? "")")
            if let why = Self.qtUnsupported[name] {
                #expect(
                    drawn.warnings?.contains { $0.contains("Unsupported layer type") } == true,
                    "\(name) is listed as unsupported (\(why)), yet Qt warns only \(drawn.warnings ?? [])")
                return
            }
            #expect(drawn.warnings ?? [] == [], "\(name): Qt warns \(drawn.warnings ?? [])")
            // The same file with Qt's timing written out, drawn by rlottie.
            let timed = dir.appendingPathComponent("qt-timed.json")
            _ = try Pillow.script("vector_render.py", ["qt-timing", lottie.path, timed.path])
            let rl = dir.appendingPathComponent("rlottie")
            _ = try Pillow.script(
                "vector_render.py",
                [
                    "lottie-rlottie", timed.path, "[" + (0..<frames).map(String.init).joined(separator: ",") + "]",
                    "\(size.0)", "\(size.1)", rl.path,
                ])
            let same = try VectorSupport.compare(rl, out, frames: frames, loopFrames: false)
            #expect(same.minPsnr >= 35, "\(name) in Qt against rlottie at Qt's timing: \(same.worst)")
            let floor = try #require(Self.qtFloors[name], "\(name): no Qt floor listed")
            let result = try VectorSupport.compare(ref, out, frames: frames)
            #expect(result.minPsnr >= floor, "\(name) in Qt: \(result.worst)")
        }
    }

    @Test(
        "ThorVG draws every preset as its frames, at 35 dB at every frame time",
        .enabled(if: thorvg || Fixtures.onCI, "skipped: thorvg-python is not in .build/pylib (scripts/install-deps)"),
        arguments: presets)
    func thorvgDraws(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let (ref, lottie, frames, size) = try Self.export(name, in: dir)
            let out = dir.appendingPathComponent("thorvg")
            let drawn = try Self.draw("lottie-thorvg", lottie, frames: frames, size: size, out)
            try #require(drawn.available, "thorvg-python cannot be imported: \(drawn.why ?? "")")
            let result = try VectorSupport.compare(ref, out, frames: frames)
            #expect(result.minPsnr >= 35, "\(name) in ThorVG: \(result.worst)")
        }
    }
}
