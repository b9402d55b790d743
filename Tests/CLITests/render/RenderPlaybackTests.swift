import Foundation
import TestSupport
import Testing

@Suite("render --speed/--reverse and preset --reverse")
struct RenderPlaybackTests {
    /// Renders with `args` to a GIF (or an APNG with `ext` "png") and
    /// decodes it with Pillow.
    func rendered(_ args: [String], ext: String = "gif") throws -> Pillow.DecodedGIF {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.\(ext)")
            let r = try Throbber.run(args + ["-o", out.path])
            #expect(r.status == 0, "\(r.stderrText)")
            return try Pillow.decode(out)
        }
    }

    @Test("preset spinner --reverse shows the same frames last to first, with the same delays reversed")
    func presetReverse() throws {
        let forward = try rendered(["preset", "spinner", "--fps", "12"])
        let backward = try rendered(["preset", "spinner", "--fps", "12", "--reverse"])
        #expect(forward.frames.count > 2)
        #expect(backward.hashes == forward.hashes.reversed())
        #expect(backward.durations == forward.durations.reversed())
    }

    @Test("render examples/ease.json --reverse is the forward frames reversed (APNG, so pixels are exact)")
    func renderReverse() throws {
        // (In a GIF the color Pillow gives fully transparent pixels depends on
        // the frames before, so only a lossless APNG can be compared by hash.)
        let config = Paths.repository.appendingPathComponent("examples/ease.json").path
        let forward = try rendered(["render", config], ext: "png")
        let backward = try rendered(["render", config, "--reverse"], ext: "png")
        #expect(backward.hashes == forward.hashes.reversed())
        #expect(backward.durations.reduce(0, +) == forward.durations.reduce(0, +))
    }

    @Test("render --speed 2 shows the same frames in half the time; --speed too fast for GIF is exit 64")
    func renderSpeed() throws {
        let config = Paths.repository.appendingPathComponent("examples/ease.json").path
        let normal = try rendered(["render", config])
        let fast = try rendered(["render", config, "--speed", "2"])
        #expect(fast.hashes == normal.hashes)
        #expect(fast.durations.reduce(0, +) * 2 == normal.durations.reduce(0, +))
        let dots = Paths.repository.appendingPathComponent("examples/dots.json").path
        let r = try Throbber.run(["render", dots, "-o", "-", "--speed", "3"])
        #expect(r.status == 64 && r.stderrText.contains("--speed: 3 makes frames"), "\(r.status) \(r.stderrText)")
    }
}
