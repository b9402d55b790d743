import Foundation
import TestSupport
import Testing

/// 10- and 12-bit clips brought to 8 bits: rounded by default, dithered
/// when `--dither` is given. The reference is the ffmpeg command's own
/// 16-bit conversion of the clip (`rgba64le`, which puts white at 65280:
/// 256 times the 8-bit level); our APNG is decoded by ffmpeg.
@Suite("encode CLIP: 10- and 12-bit video rounded, or dithered with --dither", .tags(.slow))
struct VideoDepthTests {
    static let (width, height) = (128, 72)

    /// Three frames of a smooth gradient drawn at 16 bits (an 8-bit level
    /// spans 10 to 30 pixels, and the frames move), stored as `format`
    /// by FFV1, lossless, tagged BT.709 limited range.
    static func gradient(_ format: String, in dir: URL) throws -> URL {
        let clip = dir.appendingPathComponent("\(format).mkv")
        let graph =
            "nullsrc=s=\(width)x\(height):r=25,format=gbrp16le,"
            + "geq=r='20000+X*10+N*37':g='24000+Y*16':b='40000-X*6-Y*9'"
        try StreamSupport.ffmpeg([
            "-f", "lavfi", "-i", graph, "-frames:v", "3", "-c:v", "ffv1", "-pix_fmt", format, "-colorspace", "bt709",
            "-color_range", "tv", clip.path,
        ])
        return clip
    }

    /// ffmpeg's conversion of `clip` at 16 bits a channel, in 8-bit levels.
    static func deep(_ clip: URL, vertical: Int) throws -> [[Double]] {
        let filter =
            "scale=in_color_matrix=bt709:in_range=tv:out_range=pc:in_h_chr_pos=0:in_v_chr_pos=\(vertical)"
            + ":flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgba64le"
        let r = try Command.run(
            StreamSupport.ffmpeg,
            [
                "-v", "error", "-nostdin", "-i", clip.path, "-vf", filter, "-fps_mode", "passthrough", "-f", "rawvideo",
                "-",
            ])
        guard r.status == 0 else { throw HarnessError("ffmpeg rgba64le: \(r.stderrText)") }
        let bytes = [UInt8](r.stdout)
        let samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
            Double(Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8) / 256
        }
        let frame = width * height * 4
        return stride(from: 0, to: samples.count - frame + 1, by: frame).map { Array(samples[$0..<$0 + frame]) }
    }

    /// What we make of `clip` with `extra` options: the file's bytes and its frames.
    static func ours(_ clip: URL, _ extra: [String], in dir: URL) throws -> (Data, [[UInt8]]) {
        let out = try VideoColorTests.encode(clip, "out\(extra.joined()).png", extra, in: dir)
        return (try Data(contentsOf: out), try VideoColorTests.decoded(out, width: width, height: height))
    }

    /// Over R, G and B: the largest distance from the 16-bit level, the
    /// share of levels that are not its rounding, and the RMS of the mean
    /// error over each 8x8 block (how far the picture's local average
    /// moves: banding).
    static func errors(_ ours: [[UInt8]], _ deep: [[Double]]) -> (worst: Double, unrounded: Double, blocks: Double) {
        var (worst, unrounded, count, squares, blocks) = (0.0, 0, 0, 0.0, 0)
        for (a, d) in zip(ours, deep) {
            for by in stride(from: 0, to: height - 7, by: 8) {
                for bx in stride(from: 0, to: width - 7, by: 8) {
                    for c in 0..<3 {
                        var sum = 0.0
                        for y in by..<by + 8 {
                            for x in bx..<bx + 8 {
                                let i = (y * width + x) * 4 + c
                                let e = Double(a[i]) - d[i]
                                worst = max(worst, abs(e))
                                if Double(a[i]) != d[i].rounded() { unrounded += 1 }
                                count += 1
                                sum += e
                            }
                        }
                        squares += (sum / 64) * (sum / 64)
                        blocks += 1
                    }
                }
            }
        }
        return (worst, Double(unrounded) / Double(count), (squares / Double(blocks)).squareRoot())
    }

    @Test(
        "rounded without --dither, dithered with --dither 1: larger, each level next to the 16-bit one, block means closer",
        arguments: [("yuv444p10le", 0), ("yuv420p12le", 128), ("yuv422p10le", 0)])
    func roundedOrDithered(_ format: String, _ vertical: Int) throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.gradient(format, in: dir)
            let deep = try Self.deep(clip, vertical: vertical)
            let (plainBytes, plain) = try Self.ours(clip, [], in: dir)
            let (dithBytes, dith) = try Self.ours(clip, ["--dither", "1"], in: dir)
            #expect(plain.count == 3 && dith.count == 3 && deep.count == 3)
            let p = Self.errors(plain, deep)
            let d = Self.errors(dith, deep)
            // Rounded: half a level at most (swscale's 8- and 16-bit outputs are computed apart: 0.51 measured).
            #expect(p.worst <= 0.6 && p.unrounded < 0.01, "\(format) rounded: \(p)")
            // Dithered: the level below or above, often not the nearest, and closer on average over a block.
            #expect(d.worst < 1.01 && d.unrounded > 0.1, "\(format) dithered: \(d)")
            #expect(d.blocks < p.blocks / 2, "\(format): block mean error \(d.blocks) dithered, \(p.blocks) rounded")
            #expect(dithBytes.count > plainBytes.count, "\(format): \(dithBytes.count) B dithered, \(plainBytes.count)")
            let (zeroBytes, _) = try Self.ours(clip, ["--dither", "0"], in: dir)
            #expect(zeroBytes == plainBytes, "--dither 0 is not the default's rounding")
            let (jobsBytes, _) = try Self.ours(clip, ["--dither", "1", "--jobs", "1"], in: dir)
            #expect(jobsBytes == dithBytes, "the dithered bytes depend on --jobs")
        }
    }

    @Test("--dither changes nothing in an 8-bit clip's truecolor APNG; in ProRes 4444 alpha stays rounded")
    func eightBitAndAlpha() throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.gradient("yuv444p", in: dir)
            #expect(try Self.ours(clip, [], in: dir).0 == Self.ours(clip, ["--dither", "1"], in: dir).0)
            let prores = dir.appendingPathComponent("alpha.mov")
            try StreamSupport.ffmpeg([
                "-i", clip.path, "-vf", "format=yuva444p10le,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='X*8'",
                "-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le", prores.path,
            ])
            let (_, dith) = try Self.ours(prores, ["--dither", "1"], in: dir)
            let alpha = try VideoColorTests.decoded(prores, width: Self.width, height: Self.height)
            var worst = 0
            for (a, b) in zip(dith, alpha) {
                for i in stride(from: 3, to: a.count, by: 4) { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
            }
            #expect(dith.count == 3 && alpha.count == 3 && worst <= 1, "alpha \(worst) levels from ffmpeg's")
        }
    }
}
