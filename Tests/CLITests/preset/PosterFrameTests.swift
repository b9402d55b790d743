import Foundation
import TestSupport
import Testing

/// First frames that show the loader (mail clients, reduced motion and
/// previews show only the first frame), and `--poster-frame`, which rotates
/// a loop without changing it.
@Suite("First frames and --poster-frame", .tags(.slow))
struct PosterFrameTests {
    struct Ink: Decodable {
        var ink: [Int]
        var canvas: Int
    }

    /// frame_ink.py's count of ink pixels per frame.
    static func ink(_ file: URL) throws -> Ink {
        try JSONDecoder().decode([Ink].self, from: Pillow.script("frame_ink.py", [file.path]))[0]
    }

    /// The first frame shows the loader clearly: ink, and at least a tenth
    /// of the ink of the fullest frame.
    static func expectVisibleFirstFrame(_ file: URL, _ label: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let ink = try Self.ink(file)
        let most = ink.ink.max() ?? 0
        #expect(
            ink.ink.first ?? 0 > 0 && (ink.ink.first ?? 0) * 10 >= most,
            "\(label): the first frame has \(ink.ink.first ?? 0) ink pixels, the fullest \(most)",
            sourceLocation: sourceLocation)
    }

    /// The frames shown in each 10 ms of one loop (Pillow's GIF decoding).
    static func slots(_ gif: URL) throws -> [String] {
        let decoded = try Pillow.decode(gif)
        guard let slots = decoded.framesPerSlot(10) else { throw HarnessError("\(gif.path): delays not in cs") }
        return slots
    }

    /// How far `b` is `a` rotated (a shift of whole slots), or nil.
    static func rotation(_ a: [String], _ b: [String]) -> Int? {
        guard a.count == b.count else { return nil }
        return (0..<a.count).first { Array(a[$0...] + a[..<$0]) == b }
    }

    @Test("every preset begins on a frame where the loader is clearly visible")
    func presetsBeginVisible() throws {
        try withTemporaryDirectory { dir in
            for name in try ExpectedCLI.presetNames() {
                let out = dir.appendingPathComponent("\(name).gif")
                let r = try Throbber.run(["preset", name, "-o", out.path, "-q"])
                #expect(r.status == 0, "\(name): \(r.stderrText)")
                try Self.expectVisibleFirstFrame(out, "preset \(name)")
            }
        }
    }

    @Test("every example config begins on a frame where the loader is clearly visible")
    func examplesBeginVisible() throws {
        let examples = Paths.repository.appendingPathComponent("examples")
        let configs = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(configs.count >= 4)
        try withTemporaryDirectory { dir in
            for config in configs.sorted() {
                let out = dir.appendingPathComponent("\(config).gif")
                let r = try Throbber.run(["render", config, "-o", out.path, "-q"], in: examples)
                #expect(r.status == 0, "\(config): \(r.stderrText)")
                try Self.expectVisibleFirstFrame(out, "examples/\(config)")
            }
        }
    }

    @Test(
        "a preset's timing.start rotates its loop: the same frames and delays as from time 0, in the same cyclic order",
        arguments: ["pulse", "ring"])
    func startRotatesTheCycle(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let printed = try Throbber.run(["preset", name, "--print-config"])
            #expect(printed.stdoutText.contains("\"start\""), "\(name) has no timing.start")
            // The same config without timing.start: the loop from time 0.
            var config = try JSONSerialization.jsonObject(with: printed.stdout) as? [String: Any] ?? [:]
            var timing = config["timing"] as? [String: Any] ?? [:]
            timing["start"] = nil
            config["timing"] = timing
            let fromZero = dir.appendingPathComponent("zero.json")
            try JSONSerialization.data(withJSONObject: config).write(to: fromZero)
            let a = dir.appendingPathComponent("zero.gif")
            let b = dir.appendingPathComponent("preset.gif")
            #expect(try Throbber.run(["render", fromZero.path, "-o", a.path, "-q"]).status == 0)
            #expect(try Throbber.run(["preset", name, "-o", b.path, "-q"]).status == 0)
            let (zero, preset) = (try Self.slots(a), try Self.slots(b))
            let shift = Self.rotation(zero, preset)
            #expect(shift != nil && shift != 0, "\(name): not a rotation of the loop from time 0")
            #expect(try Self.ink(a).ink.first ?? 0 < Self.ink(b).ink.first ?? 0)
        }
    }

    @Test("encode --poster-frame N starts the loop at its N-th frame, same cycle; out of range is a usage error")
    func encodePosterFrame() throws {
        try withTemporaryDirectory { dir in
            let names = (1...6).map { "f\($0).png" }
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(names), in: dir.appendingPathComponent("in"))
            let plain = dir.appendingPathComponent("plain.gif")
            let poster = dir.appendingPathComponent("poster.gif")
            let folder = dir.appendingPathComponent("in").path
            #expect(try Throbber.run(["encode", folder, "-o", plain.path, "-q", "--delay", "7"]).status == 0)
            let r = try Throbber.run(["encode", folder, "-o", poster.path, "-q", "--delay", "7", "--poster-frame", "4"])
            #expect(r.status == 0, "\(r.stderrText)")
            let decoded = try Pillow.decode(poster)
            #expect(decoded.hashes.first == (try Pillow.hashes(of: [frames[3]])).first)
            #expect(Self.rotation(try Self.slots(plain), try Self.slots(poster)) == 3 * 7)
            for bad in ["0", "7"] {
                let out = dir.appendingPathComponent("bad.gif")
                let e = try Throbber.run(["encode", folder, "-o", out.path, "--poster-frame", bad])
                #expect(e.status == 64, "\(bad): \(e.stderrText)")
                #expect(e.stderrText.contains("--poster-frame"), "\(e.stderrText)")
                #expect(!FileManager.default.fileExists(atPath: out.path))
            }
        }
    }

    @Test("preset and render take --poster-frame too, counting frames as the loop plays")
    func scenePosterFrame() throws {
        try withTemporaryDirectory { dir in
            let plain = dir.appendingPathComponent("plain.gif")
            let poster = dir.appendingPathComponent("poster.gif")
            #expect(try Throbber.run(["preset", "dots", "-o", plain.path, "-q"]).status == 0)
            #expect(try Throbber.run(["preset", "dots", "-o", poster.path, "-q", "--poster-frame", "6"]).status == 0)
            // Rotated by the time of the first five frames (dots: 40 fps, delays 3, 2, 3, 2, 3 cs).
            let delays = try Pillow.decode(plain).durations
            #expect(delays.count == 30)
            #expect(Self.rotation(try Self.slots(plain), try Self.slots(poster)) == delays.prefix(5).reduce(0, +) / 10)
            let examples = Paths.repository.appendingPathComponent("examples")
            let rendered = dir.appendingPathComponent("rendered.gif")
            let r = try Throbber.run(
                ["render", "dots.json", "-o", rendered.path, "-q", "--poster-frame", "6"], in: examples)
            #expect(r.status == 0, "\(r.stderrText)")
        }
    }
}
