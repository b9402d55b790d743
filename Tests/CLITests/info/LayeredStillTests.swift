import Foundation
import TestSupport
import Testing

/// `info`'s trim box and layered stills, and `encode`'s one-frame path for
/// layered stills, against files made and measured by Pillow
/// (Tests/tools/trim_oracle.py).
@Suite("info: trim box and layered stills; encode: a layered still as one frame")
struct LayeredStillTests {
    struct Info: Decodable {
        var frameCount: Int
        var trimBox: String
        var drawsNothing: Bool
        var layeredStill: Bool

        enum CodingKeys: String, CodingKey {
            case frameCount = "frame_count"
            case trimBox = "trim_box"
            case drawsNothing = "draws_nothing"
            case layeredStill = "layered_still"
        }
    }

    static func info(_ file: URL) throws -> (json: Info, text: String) {
        let j = try Throbber.run(["info", file.path, "--json"])
        let t = try Throbber.run(["info", file.path])
        guard j.status == 0, t.status == 0 else { throw HarnessError("info failed: \(j.stderrText)\(t.stderrText)") }
        return (try JSONDecoder().decode(Info.self, from: j.stdout), t.stdoutText)
    }

    @Test("info reports the trim box that Pillow's getbbox finds over the composited frames, in text and --json")
    func trimBox() throws {
        try withTemporaryDirectory { dir in
            let gif = dir.appendingPathComponent("in.gif")
            _ = try TrimOracle.run(["gif", gif.path])
            let box = try TrimOracle.bbox([gif])
            let (json, text) = try Self.info(gif)
            #expect(json.trimBox == box && !json.drawsNothing && !json.layeredStill)
            #expect(text.contains("\ntrim box \(box) (what encode --trim keeps)\n"), "\(text)")
            // The same for a WebP (read again for its frames) and an APNG.
            for ext in ["webp", "png"] {
                let other = dir.appendingPathComponent("in.\(ext)")
                #expect(try Throbber.run(["encode", gif.path, "-o", other.path]).status == 0)
                #expect(try Self.info(other).json.trimBox == box, "\(ext)")
            }
        }
    }

    @Test("a GIF of 4 tiles (960 colors) at 0 ms that plays once: info says it is a still built up in 4 layers")
    func infoLayered() throws {
        try withTemporaryDirectory { dir in
            let gif = dir.appendingPathComponent("tiles.gif")
            _ = try TrimOracle.run(["layered", gif.path])
            let (json, text) = try Self.info(gif)
            #expect(json.layeredStill && json.frameCount == 4 && json.trimBox == "64x64+0+0")
            #expect(
                text.contains(
                    "\na still built up in 4 layers: every frame but the last has a 0 ms delay and it plays once; encode writes its final picture\n"
                ), "\(text)")
            // Looping forever, the same frames are an animation.
            let looping = dir.appendingPathComponent("looping.gif")
            let r = try Throbber.run(["encode", gif.path, "-o", looping.path, "--frames", "1-", "--loop", "0"])
            #expect(r.status == 0, "\(r.stderrText)")
            let again = try Self.info(looping)
            #expect(!again.json.layeredStill && !again.text.contains("layers"), "\(again.text)")
        }
    }

    @Test("encode writes a layered still's final picture as one frame (APNG: exactly), with a note")
    func encodeLayered() throws {
        try withTemporaryDirectory { dir in
            let gif = dir.appendingPathComponent("tiles.gif")
            _ = try TrimOracle.run(["layered", gif.path])
            let picture = URL(fileURLWithPath: gif.path + ".png")
            let out = dir.appendingPathComponent("still.png")
            var r = try Throbber.run(["encode", gif.path, "-o", out.path])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(
                r.stderrLines.contains(
                    "note: \(gif.path) is a still built up in 4 layers (0 ms delays, plays once): writing its final picture as one frame; add --frames 1- to keep the layers as frames"
                ), "\(r.stderrText)")
            let same = try TrimOracle.same(out, box: "64x64+0+0", [picture])
            #expect(same.frames == 1 && same.differing == [0], "\(same)")
            // GIF: one frame, quantized from 960 colors.
            let still = dir.appendingPathComponent("still.gif")
            r = try Throbber.run(["encode", gif.path, "-o", still.path, "--quiet"])
            #expect(r.status == 0 && r.stderrText.isEmpty, "\(r.stderrText)")
            let decoded = try Pillow.decode(still)
            #expect(decoded.frames.count == 1 && decoded.width == 64 && decoded.height == 64)
            let match = try Pillow.match(still, against: [picture])
            // Measured 51.16 dB.
            #expect((match.frames.first?.psnr.first ?? 0) >= 50.5, "\(match.frames)")
        }
    }

    @Test("asked for frames or timing (--frames 1-, --fps), encode keeps the layers as an animation, without the note")
    func encodeLayersKept() throws {
        try withTemporaryDirectory { dir in
            let gif = dir.appendingPathComponent("tiles.gif")
            _ = try TrimOracle.run(["layered", gif.path])
            for extra in [["--frames", "1-"], ["--fps", "10"]] {
                let out = dir.appendingPathComponent("layers.png")
                let r = try Throbber.run(["encode", gif.path, "-o", out.path] + extra)
                #expect(r.status == 0, "\(r.stderrText)")
                #expect(!r.stderrText.contains("note:"), "\(r.stderrText)")
                let same = try TrimOracle.same(out, box: "64x64+0+0", [gif])
                #expect(same.frames == 4 && same.differing == [0, 0, 0, 0], "\(extra): \(same)")
            }
        }
    }
}
