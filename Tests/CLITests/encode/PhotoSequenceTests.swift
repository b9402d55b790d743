import Foundation
import TestSupport
import Testing

@Suite("Real JPEG sequence", .needsFixtures, .tags(.slow))
struct PhotoSequenceTests {
    static func frames() throws -> [URL] {
        try (100...159).map { try Fixtures.url("photo-seq-dlib-bobot/frame_000\($0).jpg") }
    }

    @Test(
        "the 60 grayscale BoBoT JPEG frames encode to a 320x240 GIF: exactly Pillow's decode of each JPEG by default (256 grays fit a palette), ≥ 36.5 dB at --quality 80",
        arguments: [[String](), ["--quality", "80"]])
    func grayscaleJPEG(_ extra: [String]) throws {
        let refs = try Self.frames()
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("bobot.gif")
            let r = try Throbber.run(["encode", try Fixtures.url("photo-seq-dlib-bobot").path, "-o", out.path] + extra)
            #expect(r.status == 0, "\(r.stderrText)")
            let gif = try Pillow.decode(out)
            #expect(gif.width == 320 && gif.height == 240)
            #expect(gif.frames.count == 60, "real video frames differ, none may be merged")
            #expect(gif.durations == Array(repeating: 40, count: 60))
            if extra.isEmpty {
                // Grayscale fits in 256 colors, so the default GIF is lossless:
                // every frame is exactly what Pillow decodes from its JPEG.
                #expect(
                    gif.hashes == (try Pillow.hashes(of: refs)), "the default GIF is not the JPEGs' pixels, exactly")
                return
            }
            // Measured at --quality 80 (libimagequant 2.17): worst frame 37.09 dB, best 39.76 dB.
            let threshold = 36.5
            let match = try Pillow.match(out, against: refs, sameIndex: true)
            for (i, frame) in match.frames.enumerated() {
                #expect(frame.psnr[0] >= threshold, "frame \(i) (\(refs[i].lastPathComponent)): \(frame.psnr[0]) dB")
            }
        }
    }

    @Test(
        "--lossy 80: what earlier frames drew does not linger, no later frame more than 2 dB under the first (exact and quantized palettes)",
        arguments: [[String](), ["--quality", "80"]])
    func lossyKeepsDoNotLinger(_ extra: [String]) throws {
        let refs = try Self.frames()
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("bobot.gif")
            let r = try Throbber.run(
                ["encode", try Fixtures.url("photo-seq-dlib-bobot").path, "-o", out.path, "--lossy", "80"] + extra)
            #expect(r.status == 0, "\(r.stderrText)")
            // Measured: the first frame 39.01 dB (exact) and 37.22 dB (quantized), no later
            // one more than 1.28 and 1.35 dB under it; keeps that cost less than their error
            // fell 3.98 and 2.49 dB, to 35.03 dB, while the camera moved.
            let psnr = try Pillow.match(out, against: refs, sameIndex: true).frames.map { $0.psnr[0] }
            try #require(psnr.count == 60)
            for (i, value) in psnr.enumerated().dropFirst() {
                #expect(value >= psnr[0] - 2, "frame \(i): \(value) dB, the first \(psnr[0]) dB")
            }
        }
    }

    @Test("a JPEG frame is never matched by its neighbour better than by itself (order kept)")
    func orderKept() throws {
        let refs = Array(try Self.frames().prefix(12))
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("bobot.gif")
            // Given as files, reversed: the GIF must show them reversed.
            let r = try Throbber.run(["encode"] + refs.reversed().map(\.path) + ["-o", out.path])
            #expect(r.status == 0, "\(r.stderrText)")
            let match = try Pillow.match(out, against: refs.reversed())
            for (i, frame) in match.frames.enumerated() {
                let best = frame.psnr.indices.max { frame.psnr[$0] < frame.psnr[$1] }
                #expect(best == i, "GIF frame \(i) looks most like input \(String(describing: best))")
            }
        }
    }
}
