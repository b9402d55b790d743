import Foundation
import TestSupport
import Testing

/// `--palette shared`: one libimagequant palette for every frame of a GIF,
/// checked on what giflib and Pillow decode.
@Suite("GIF --palette shared")
struct SharedPaletteTests {
    @Test(
        "one global palette and no frame table; every frame ≥ 25 dB of its source (Pillow), the hole clear (giflib); smaller than a palette a frame"
    )
    func sharedPalette() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            let sources = try Pillow.movingGradients(in: folder, hole: true)
            let shared = dir.appendingPathComponent("shared.gif")
            let own = dir.appendingPathComponent("own.gif")
            let r = try Throbber.run(["encode", folder.path, "-o", shared.path, "--palette", "shared"])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(r.stderrText.contains("to one palette of"), "\(r.stderrText)")
            #expect(try Throbber.run(["encode", folder.path, "-o", own.path, "-q"]).status == 0)

            let gif = try DecodedGIF(path: shared.path)
            #expect(gif.hasGlobalPalette)
            #expect(gif.frames.count == 24)
            #expect(gif.frames.allSatisfy { !$0.hasLocalPalette }, "a frame has a table of its own")
            for (i, frame) in gif.frames.enumerated() {
                var wrong = 0
                for y in 0..<64 {
                    for x in 0..<96 {
                        let hole = (20..<44).contains(y) && (36..<60).contains(x)
                        if frame.pixels[(y * 96 + x) * 4 + 3] != (hole ? 0 : 255) { wrong += 1 }
                    }
                }
                #expect(wrong == 0, "frame \(i): \(wrong) pixels with the wrong alpha")
            }
            // Measured: 25.49–26.39 dB (a palette a frame: 29.56–32.38 dB),
            // 93,876 bytes against 114,069.
            let psnr = try Pillow.match(shared, against: sources, sameIndex: true).frames.map { $0.psnr[0] }
            #expect(psnr.count == 24)
            for (i, value) in psnr.enumerated() { #expect(value >= 25, "frame \(i): \(value) dB") }
            let sharedBytes = try Data(contentsOf: shared).count
            let ownBytes = try Data(contentsOf: own).count
            #expect(sharedBytes < ownBytes, "shared \(sharedBytes) B, a palette a frame \(ownBytes) B")
        }
    }

    /// A palette from a sample of a long animation still serves every
    /// frame: a hue that turns once over 130 frames (more than the 120
    /// sampled), each frame a gradient of it.
    @Test("130 frames, palette from 120 of them: every frame decodes (giflib) ≥ 28 dB of its source (Pillow)")
    func longerThanTheSample() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let script = """
                import sys, colorsys
                import numpy as np
                from PIL import Image
                x = np.linspace(0, 1, 24)[None, :, None]
                for i in range(130):
                    base = np.array(colorsys.hsv_to_rgb(i / 130, 0.8, 1.0))[None, None, :]
                    rgb = np.repeat(np.clip(255 * base * (0.4 + 0.6 * x), 0, 255), 16, axis=0)
                    Image.fromarray(rgb.astype(np.uint8), "RGB").save("%s/%03d.png" % (sys.argv[1], i))
                """
            let made = try Command.run(Pillow.python, ["-c", script, folder.path])
            try #require(made.status == 0, "\(made.stderrText)")
            let sources = (0..<130).map { folder.appendingPathComponent(String(format: "%03d.png", $0)) }
            let out = dir.appendingPathComponent("long.gif")
            let r = try Throbber.run(["encode", folder.path, "-o", out.path, "--palette", "shared", "--quality", "100"])
            #expect(r.status == 0, "\(r.stderrText)")
            let gif = try DecodedGIF(path: out.path)
            #expect(gif.frames.count == 130 && gif.frames.allSatisfy { !$0.hasLocalPalette })
            // Measured: 29.1–36.3 dB; the 10 frames outside the sample
            // 29.1–31.8 dB (30.6 on average, the others 33.0).
            let psnr = try Pillow.match(out, against: sources, sameIndex: true).frames.map { $0.psnr[0] }
            #expect(psnr.count == 130)
            for (i, value) in psnr.enumerated() { #expect(value >= 28, "frame \(i): \(value) dB") }
        }
    }

    @Test("the same bytes with --jobs 1 and --jobs 2")
    func jobs() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            _ = try Pillow.movingGradients(in: folder, hole: true)
            var outputs: [Data] = []
            for jobs in ["1", "2"] {
                let out = dir.appendingPathComponent("j\(jobs).gif")
                let r = try Throbber.run(["encode", folder.path, "-o", out.path, "--palette", "shared", "--jobs", jobs])
                #expect(r.status == 0, "\(r.stderrText)")
                outputs.append(try Data(contentsOf: out))
            }
            #expect(outputs[0] == outputs[1])
        }
    }

    @Test("frames that fit in 256 colors stay lossless: the same bytes as without it")
    func losslessUnchanged() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            _ = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png", "c.png"], width: 16, height: 12), in: folder)
            var outputs: [Data] = []
            for extra in [[String](), ["--palette", "shared"]] {
                let out = dir.appendingPathComponent("o\(outputs.count).gif")
                let r = try Throbber.run(["encode", folder.path, "-o", out.path] + extra)
                #expect(r.status == 0, "\(r.stderrText)")
                #expect(r.stderrText.contains("lossless"), "\(r.stderrText)")
                outputs.append(try Data(contentsOf: out))
            }
            #expect(outputs[0] == outputs[1])
        }
    }

    @Test(
        "refused with exit 64 naming --palette: for APNG and WebP, and a value other than frame or shared",
        arguments: [
            ["-o", "x.png", "--palette", "shared"], ["-o", "x.webp", "--palette", "shared"],
            ["-o", "x.gif", "--palette", "global"],
        ])
    func refused(_ args: [String]) throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            _ = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: folder)
            var argv = ["encode", folder.path] + args
            argv[3] = dir.appendingPathComponent(args[1]).path
            let r = try Throbber.run(argv)
            #expect(r.status == 64, "\(r.stderrText)")
            #expect(r.stderrText.contains("--palette"), "\(r.stderrText)")
            #expect(!FileManager.default.fileExists(atPath: argv[3]), "a file was written")
        }
    }
}
