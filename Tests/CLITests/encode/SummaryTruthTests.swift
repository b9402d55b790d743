import Foundation
import TestSupport
import Testing

/// The summary line says "lossless" only when Pillow decodes the same
/// pixels as the input, and names alpha only when the file shows some.
@Suite("The summary line tells the truth", .tags(.slow))
struct SummaryTruthTests {
    /// A 32-color GIF of ffmpeg's testsrc (its own palette, no dither):
    /// it fits one exact palette.
    static func fewColors(in dir: URL) throws -> URL {
        let palette = dir.appendingPathComponent("palette.png")
        let gif = dir.appendingPathComponent("few.gif")
        try StreamSupport.ffmpeg([
            "-f", "lavfi", "-t", "1", "-i", "testsrc=size=160x120:rate=10", "-vf", "palettegen=max_colors=32",
            palette.path,
        ])
        try StreamSupport.ffmpeg([
            "-f", "lavfi", "-t", "1", "-i", "testsrc=size=160x120:rate=10", "-i", palette.path, "-lavfi",
            "paletteuse=dither=none", gif.path,
        ])
        return gif
    }

    @Test("a GIF whose palette holds every color is lossless without --lossy, and not with --lossy 80")
    func gifLossy() throws {
        try withTemporaryDirectory { dir in
            let input = try Self.fewColors(in: dir)
            let source = try Pillow.decode(input).hashes
            for lossy in [nil, "80"] {
                let out = dir.appendingPathComponent("out-\(lossy ?? "0").gif")
                let r = try Throbber.run(
                    ["encode", input.path, "-o", out.path] + (lossy.map { ["--lossy", $0] } ?? []))
                #expect(r.status == 0, "\(r.stderrText)")
                let line = try #require(r.stderrLines.first)
                let same = try Pillow.decode(out).hashes == source
                #expect(same == (lossy == nil), "Pillow: the pixels are \(same ? "" : "not ")the input's")
                #expect(line.contains("lossless") == same, "\(line)")
                if let lossy { #expect(line.hasSuffix(", lossy LZW \(lossy)"), "\(line)") }
            }
        }
    }

    /// The lowest alpha of any pixel of any frame of `webp`, as Pillow composites it.
    static func lowestAlpha(_ webp: URL) throws -> Int {
        let script = """
            import sys
            from PIL import Image, ImageSequence
            im = Image.open(sys.argv[1])
            print(min(f.convert("RGBA").getextrema()[3][0] for f in ImageSequence.Iterator(im)))
            """
        let r = try Command.run(Pillow.python, ["-c", script, webp.path])
        guard r.status == 0, let low = Int(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("python: \(r.stderrText)")
        }
        return low
    }

    @Test("a lossy WebP names alpha only when its frames show transparency")
    func webpAlpha() throws {
        try withTemporaryDirectory { dir in
            let opaque = try Pillow.movingGradients(in: dir.appendingPathComponent("opaque"), count: 6)
            let holed = try Pillow.movingGradients(in: dir.appendingPathComponent("holed"), count: 6, hole: true)
            for (frames, name) in [(opaque, "opaque"), (holed, "holed")] {
                let out = dir.appendingPathComponent("\(name).webp")
                let folder = frames[0].deletingLastPathComponent()
                let r = try Throbber.run(["encode", folder.path, "-o", out.path, "--quality", "80"])
                #expect(r.status == 0, "\(r.stderrText)")
                let line = try #require(r.stderrLines.first)
                let transparent = try Self.lowestAlpha(out) < 255
                #expect(transparent == (name == "holed"))
                #expect(line.contains("lossy at quality 80"), "\(line)")
                #expect(line.contains("alpha") == transparent, "\(line)")
            }
        }
    }
}
