import Foundation
import TestSupport
import Testing
import ThrobberKit

/// Issue #42's measurements: every preset and example exported as Lottie and
/// SVG is drawn by renderers Throbber did not write — rlottie and
/// python-lottie for Lottie, headless Chromium for SVG — at every frame time
/// of the loop, and compared with Throbber's own lossless APNG of the same
/// config. The Lottie `fr`/`op` and the SVG durations must give the APNG's
/// loop exactly.
@Suite("Vector export drawn by rlottie, python-lottie and Chromium matches the frames", .tags(.slow))
struct VectorRendererTests {
    /// One thing to export: a preset (at --size 240, where rlottie's
    /// anti-aliasing, about 0.15 px thinner than cairo's, no longer
    /// dominates small shapes) or a config file.
    struct Subject: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        /// Least PSNR rlottie reaches; where it is below the issue's 40 dB, the
        /// reason is with the subject.
        var rlottieFloor = 40.0
        /// Least PSNR Chromium reaches (the issue's 35 dB, or less with a reason).
        var chromiumFloor = 35.0
        var testDescription: String { name }
    }

    static let presets = PresetCatalog.all.map { p in
        var s = Subject(name: p.name, arguments: ["preset", p.name, "--size", "240"])
        switch p.name {
        // rlottie covers shape edges about 0.15 px less than cairo (measured on
        // still discs: 2.5 % less area at 9 px); the thick arcs of these two
        // land at 39.7–39.9 dB on their worst frames.
        case "ease", "pacman": s.rlottieFloor = 39.5
        // Skia covers the edges of rounded squares 0.1–0.2 px less than cairo
        // (a still square: 153 against 128 on one edge row); nine large
        // squares make that 32 dB on the frames where they are largest.
        case "grid": s.chromiumFloor = 31
        // Paths (issue 61: 38 dB). rlottie's thinner anti-aliasing along the
        // checkmark's long round-capped circle leaves a still frame of it at
        // 39.2 dB and the drawing frames at 38.7.
        case "checkmark":
            s.chromiumFloor = 38
            s.rlottieFloor = 38.5
        case "spinner-check", "label": s.chromiumFloor = 38
        // Chromium composites the glyphs whose transforms are animated and
        // draws them about 0.15 px from their place (the same letters still:
        // 41 dB); rlottie draws the outlines at 48 dB.
        case "text-wave": s.chromiumFloor = 30
        default: break
        }
        return s
    }
    static let examples = ["dots", "dots-flip", "ease", "heart"].map { name in
        Subject(
            name: "examples/\(name).json",
            arguments: ["render", SceneTestKit.examples.appendingPathComponent("\(name).json").path],
            // rlottie draws a turned picture without filtering (nearest pixel):
            // the turning ring PNG of the ease example scores 28–30 dB.
            rlottieFloor: name == "ease" ? 27 : 40,
            // A morph and a trim: paths are held to 38 dB.
            chromiumFloor: name == "heart" ? 38 : 35)
    }

    static let chromium = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    static let pythonLottie = FileManager.default.fileExists(
        atPath: Paths.repository.appendingPathComponent(".build/pylib/lottie").path)

    /// The loop of the reference APNG: its exact length in seconds (the sum
    /// of its fcTL delays) and its size.
    struct Loop {
        var seconds: (Int, Int)
        var width: Int, height: Int
    }

    @Test(
        "rlottie and Chromium draw each exported preset and example as its frames, at every frame time",
        .enabled(if: chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"),
        arguments: presets + examples)
    func drawnAsFrames(_ s: Subject) throws {
        try withTemporaryDirectory { dir in
            try Self.check(s, in: dir)
        }
    }

    static func check(_ s: Subject, in dir: URL) throws {
        let ref = dir.appendingPathComponent("ref.png")
        let lottie = dir.appendingPathComponent("loader.json")
        let svg = dir.appendingPathComponent("loader.svg")
        for out in [ref, lottie, svg] {
            let r = try Throbber.run(s.arguments + ["-o", out.path, "-q"])
            try #require(r.status == 0, "\(s.name) -o \(out.lastPathComponent): \(r.stderrText)")
        }
        let top = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: lottie)) as? [String: Any])
        let frames = try #require(top["op"] as? Int)
        let fr = try #require(top["fr"] as? Double)
        let structure = try VectorSupport.apngLoop(ref)
        let loop = Double(structure.seconds.0) / Double(structure.seconds.1)
        // Timing: op frames at fr last the APNG's loop (fr has 6 decimals).
        #expect(abs(Double(frames) / fr - loop) < 1e-5, "\(s.name): op/fr \(Double(frames) / fr) s, loop \(loop) s")
        let svgText = try String(contentsOf: svg, encoding: .utf8)
        for d in VectorSupport.cssDurations(svgText) {
            let repeats = loop / d
            #expect(
                abs(repeats - repeats.rounded()) < 1e-4, "\(s.name): a CSS animation of \(d) s in a loop of \(loop) s")
        }
        // rlottie at the frames' pixel size.
        let lottieFrames = "[" + (0..<frames).map(String.init).joined(separator: ",") + "]"
        let rl = dir.appendingPathComponent("rlottie")
        _ = try Pillow.script(
            "vector_render.py",
            ["lottie-rlottie", lottie.path, lottieFrames, "\(structure.width)", "\(structure.height)", rl.path])
        let rlottie = try VectorSupport.compare(ref, rl, frames: frames)
        #expect(rlottie.minPsnr >= s.rlottieFloor, "\(s.name) in rlottie: \(rlottie.worst)")
        // Chromium at the SVG's point size and the canvas scale.
        let (w, h) = try VectorSupport.svgSize(svgText)
        let times =
            "["
            + (0..<frames).map { "[\($0 * structure.seconds.0), \(frames * structure.seconds.1)]" }
            .joined(separator: ",") + "]"
        let ch = dir.appendingPathComponent("chromium")
        _ = try Pillow.script(
            "vector_render.py", ["svg", svg.path, "\(w)", "\(h)", "\(Double(structure.width) / w)", times, ch.path])
        let chromium = try VectorSupport.compare(ref, ch, frames: frames)
        #expect(chromium.minPsnr >= s.chromiumFloor, "\(s.name) in Chromium: \(chromium.worst)")
        guard pythonLottie || Fixtures.onCI else { return }
        try checkPythonLottie(s, lottie, ref: ref, frames: frames, size: (structure.width, structure.height), in: dir)
    }

    @Test(
        "a picture embedded once and shown 51 times (a 50-copy repeat, a layer) draws as its frames",
        .enabled(if: chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"))
    func repeatedPicture() throws {
        try withTemporaryDirectory { dir in
            let config = try VectorBombTests.repeatedPicture(in: dir)
            try Self.check(Subject(name: "pics.json", arguments: ["render", config.path]), in: dir)
        }
    }

    /// What python-lottie 0.7.2 does not draw as rlottie does (see
    /// vector_render.py): hold keyframes (it interpolates), trim paths (it
    /// trims elsewhere) and image layers.
    static let unsupportedByPythonLottie = [#""h":1"#, #""ty":"tm""#, #""ty":2,"#]

    /// python-lottie loads every file without a warning and without
    /// dropping a key, and draws those whose features it supports at 35 dB.
    static func checkPythonLottie(
        _ s: Subject, _ lottie: URL, ref: URL, frames: Int, size: (Int, Int), in dir: URL
    ) throws {
        struct Loaded: Decodable {
            var available: Bool
            var why: String?
            var warnings: [String]
            var dropped: [String]?
        }
        let out = dir.appendingPathComponent("python")
        let list = "[" + (0..<frames).map(String.init).joined(separator: ",") + "]"
        let info = try JSONDecoder().decode(
            Loaded.self,
            from: Pillow.script(
                "vector_render.py", ["lottie-python", lottie.path, list, "\(size.0)", "\(size.1)", out.path]))
        try #require(info.available, "python-lottie cannot be imported: \(info.why ?? "")")
        #expect(info.warnings.isEmpty, "\(s.name): python-lottie warns \(info.warnings)")
        // python-lottie 0.7.2 predates slots: it drops the top-level list, the values stay in place.
        let dropped = (info.dropped ?? []).filter { !$0.hasPrefix("$.slots") }
        #expect(dropped == [], "\(s.name): python-lottie ignores \(dropped)")
        let text = try String(contentsOf: lottie, encoding: .utf8)
        guard !unsupportedByPythonLottie.contains(where: text.contains) else { return }
        let result = try VectorSupport.compare(ref, out, frames: frames)
        #expect(result.minPsnr >= 35, "\(s.name) in python-lottie: \(result.worst)")
    }
}
