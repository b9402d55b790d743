import Foundation
import TestSupport
import Testing

/// `throbber encode CLIP` for every chroma layout (4:2:0, 4:2:2, 4:4:4,
/// 4:1:1, 4:4:0, 4:1:0) and depth (8, 10, 12, 16 bits), with and without
/// alpha, in clips the ffmpeg command writes with ProRes, x264, FFV1 and
/// VP9. Our APNG is decoded by ffmpeg's APNG decoder and compared with the
/// ffmpeg command's own conversion of the same clip: its scale filter at
/// exact rounding with chroma interpolated at the siting the tags give
/// (left and between the lines when untagged), and for 4:4:4 also its
/// plain `-pix_fmt rgba`, which interpolates nothing.
@Suite("encode CLIP: every chroma layout and depth, within one level of ffmpeg", .tags(.slow))
struct VideoColorTests {
    /// How a clip is written, and what its pixel format means.
    struct Layout: CustomTestStringConvertible, Sendable {
        var name: String
        var codec: [String]
        /// Chroma subsampling, log2 across and down, from the pixel format's definition.
        var shift: (x: Int, y: Int)
        var alpha = false
        /// The tags written, given to the reference's scale filter as they are.
        var matrix = "bt601"
        var range = "tv"
        /// The chroma siting written (`-chroma_sample_location`); nil: none.
        var siting: String? = nil
        var testDescription: String { name }

        /// swscale's chroma position (1/256 of a luma pixel from the first
        /// luma sample; swscale's documentation): a chroma sample spans
        /// 2^shift luma samples, and sits on the first one across and in
        /// the middle down when untagged or "left", in the middle both ways
        /// for "center", on the first both ways for "topleft".
        var position: (h: Int, v: Int) {
            let middle = (128 * ((1 << shift.x) - 1), 128 * ((1 << shift.y) - 1))
            switch siting {
            case "center": return middle
            case "topleft": return (0, 0)
            default: return (0, middle.1)
            }
        }
        var tags: [String] {
            ["-colorspace", matrix == "bt601" ? "smpte170m" : matrix, "-color_range", range]
                + (siting.map { ["-chroma_sample_location", $0] } ?? [])
        }
    }

    /// A lossless FFV1 clip in `format`.
    static func ffv1(
        _ format: String, _ shift: (Int, Int), alpha: Bool = false, range: String = "tv", siting: String? = nil
    ) -> Layout {
        Layout(
            name: "ffv1-\(format)\(siting.map { "-" + $0 } ?? "").mkv", codec: ["-c:v", "ffv1", "-pix_fmt", format],
            shift: shift, alpha: alpha, range: range, siting: siting)
    }

    static let layouts: [Layout] = [
        Layout(
            name: "prores4444-alpha.mov",
            codec: ["-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"],
            shift: (0, 0), alpha: true),
        Layout(
            name: "prores422.mov", codec: ["-c:v", "prores_ks", "-profile:v", "3", "-pix_fmt", "yuv422p10le"],
            shift: (1, 0)),
        Layout(name: "x264-444.mp4", codec: x264("yuv444p"), shift: (0, 0), matrix: "bt709"),
        Layout(name: "x264-422.mp4", codec: x264("yuv422p"), shift: (1, 0)),
        Layout(name: "x264-444p10.mp4", codec: x264("yuv444p10le"), shift: (0, 0)),
        Layout(name: "x264-422p10.mp4", codec: x264("yuv422p10le"), shift: (1, 0), matrix: "bt709"),
        Layout(name: "x264-420p10.mp4", codec: x264("yuv420p10le"), shift: (1, 1)),
        Layout(name: "x264-420-center.mp4", codec: x264("yuv420p"), shift: (1, 1), siting: "center"),
        Layout(name: "x264-420-topleft.mp4", codec: x264("yuv420p"), shift: (1, 1), siting: "topleft"),
        Layout(
            name: "vp9-444.webm", codec: ["-c:v", "libvpx-vp9", "-lossless", "1", "-pix_fmt", "yuv444p"],
            shift: (0, 0), matrix: "bt709"),
        Layout(
            name: "vp9-440.webm", codec: ["-c:v", "libvpx-vp9", "-lossless", "1", "-pix_fmt", "yuv440p"],
            shift: (0, 1)),
        Layout(
            name: "vp9-444p12.webm", codec: ["-c:v", "libvpx-vp9", "-lossless", "1", "-pix_fmt", "yuv444p12le"],
            shift: (0, 0)),
        ffv1("yuv420p", (1, 1)), ffv1("yuv420p12le", (1, 1)), ffv1("yuv422p12le", (1, 0)),
        ffv1("yuv444p12le", (0, 0), range: "pc"), ffv1("yuv411p", (2, 0)),
        ffv1("yuv411p", (2, 0), siting: "center"), ffv1("yuv410p", (2, 2)),
        ffv1("yuv440p", (0, 1)), ffv1("yuv440p10le", (0, 1)), ffv1("yuv440p12le", (0, 1)),
        ffv1("yuva420p", (1, 1), alpha: true), ffv1("yuva420p10le", (1, 1), alpha: true),
        ffv1("yuva422p10le", (1, 0), alpha: true), ffv1("yuva444p", (0, 0), alpha: true),
        ffv1("yuva444p16le", (0, 0), alpha: true),
    ]

    /// Lossless x264 (`-qp 0`) in `format`, on one thread.
    static func x264(_ format: String) -> [String] {
        ["-c:v", "libx264", "-qp", "0", "-threads", "1", "-pix_fmt", format]
    }

    /// Three 64x48 frames, moving one pixel a frame: a 5-pixel checkerboard
    /// over the top 24 lines and a smooth gradient below; alpha opaque
    /// left, 152…175 right. `muted` draws the squares in two close colors
    /// whose chroma, interpolated, stays inside RGB; otherwise pure red
    /// and blue, whose edges reach past it.
    static func source(muted: Bool, alpha: Bool) -> String {
        let square = "mod(floor((X+N)/5)+floor((Y+N)/5),2)"
        let (hi, lo) = muted ? (160, 100) : (255, 0)
        let top = "lt(Y,24)"
        let r = "if(\(top),\(lo)+\(hi - lo)*\(square),X*3+20)"
        let g = "if(\(top),\(muted ? 110 : 0),Y*4+N*8)"
        let b = "if(\(top),\(lo)+\(hi - lo)*(1-\(square)),230-X*2-Y)"
        var graph = "nullsrc=s=64x48:r=25,format=gbrp,geq=r='\(r)':g='\(g)':b='\(b)'"
        if alpha { graph += ",format=gbrap,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(X,40),255,128+Y)'" }
        return graph
    }

    /// The clip of `layout`, drawn by ``source(muted:alpha:)``.
    static func make(_ layout: Layout, muted: Bool, in dir: URL) throws -> URL {
        let clip = dir.appendingPathComponent((muted ? "muted-" : "") + layout.name)
        try StreamSupport.ffmpeg(
            ["-f", "lavfi", "-i", source(muted: muted, alpha: layout.alpha), "-frames:v", "3"] + layout.codec
                + layout.tags + [clip.path])
        return clip
    }

    /// ffmpeg's conversion with the tags and siting given, at exact rounding.
    static func exact(_ layout: Layout) -> String {
        let (h, v) = layout.position
        return "scale=in_color_matrix=\(layout.matrix):in_range=\(layout.range):out_range=pc:in_h_chr_pos=\(h)"
            + ":in_v_chr_pos=\(v):flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgba"
    }

    /// Every frame of `file` as the ffmpeg command decodes it (through
    /// `filter`), RGBA; libvpx for WebM, as Throbber reads it.
    static func decoded(_ file: URL, width: Int, height: Int, filter: String? = nil) throws -> [[UInt8]] {
        let decoder = file.pathExtension == "webm" ? ["-c:v", "libvpx-vp9"] : []
        let r = try Command.run(
            StreamSupport.ffmpeg,
            ["-v", "error", "-nostdin"] + decoder + ["-i", file.path] + (filter.map { ["-vf", $0] } ?? [])
                + ["-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        guard r.status == 0 else { throw HarnessError("ffmpeg decoding \(file.lastPathComponent): \(r.stderrText)") }
        return VideoFastTests.split([UInt8](r.stdout), frame: width * height * 4)
    }

    /// Runs `throbber encode input -o name` with `extra`; returns the output.
    static func encode(_ input: URL, _ name: String, _ extra: [String] = [], in dir: URL) throws -> URL {
        let out = dir.appendingPathComponent(name)
        let r = try Throbber.run(["encode", input.path, "-o", out.path] + extra)
        guard r.status == 0 else { throw HarnessError("throbber encode \(input.lastPathComponent): \(r.stderrText)") }
        return out
    }

    /// The largest difference of any channel, over frames of equal count.
    static func worst(_ a: [[UInt8]], _ b: [[UInt8]]) -> Int {
        guard a.count == b.count, !a.isEmpty else { return 256 }
        return zip(a, b).map { x, y in zip(x, y).map { abs(Int($0) - Int($1)) }.max() ?? 0 }.max() ?? 0
    }

    @Test(
        "at full size, within one level of ffmpeg's conversion; 4:4:4 also of its plain -pix_fmt rgba",
        arguments: layouts)
    func fullSize(_ layout: Layout) throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.make(layout, muted: false, in: dir)
            let ours = try Self.decoded(try Self.encode(clip, "out.png", in: dir), width: 64, height: 48)
            #expect(ours.count == 3, "\(layout.name): \(ours.count) frames")
            let exact = try Self.decoded(clip, width: 64, height: 48, filter: Self.exact(layout))
            let off = Self.worst(ours, exact)
            #expect(off <= 1, "\(layout.name): \(off) levels from ffmpeg's \(Self.exact(layout))")
            guard layout.shift == (0, 0) else { return }
            let plain = Self.worst(ours, try Self.decoded(clip, width: 64, height: 48))
            #expect(plain <= 1, "\(layout.name): \(plain) levels from ffmpeg's plain -pix_fmt rgba")
        }
    }

    /// --width 40: the default path against ffmpeg's full-size frames
    /// resized by throbber itself (so only the conversion differs);
    /// `--compression fast` (planes resized, then converted) against the
    /// same where no color leaves RGB at full size, and pixel for pixel the
    /// default where it does not apply (more than 8 bits, alpha, 4:1:0).
    @Test("--width, default and --compression fast, within one level of ffmpeg's frames resized", arguments: layouts)
    func resized(_ layout: Layout) throws {
        try withTemporaryDirectory { dir in
            for muted in [false, true] {
                let clip = try Self.make(layout, muted: muted, in: dir)
                let folder = dir.appendingPathComponent("ref-\(muted)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try StreamSupport.ffmpeg([
                    "-i", clip.path, "-vf", Self.exact(layout), "-fps_mode", "passthrough",
                    folder.appendingPathComponent("%04d.png").path,
                ])
                let ref = try Self.decoded(
                    try Self.encode(folder, "ref-\(muted).png", ["--width", "40"], in: dir), width: 40, height: 30)
                let plain = try Self.encode(clip, "default-\(muted).png", ["--width", "40"], in: dir)
                let fast = try Self.encode(
                    clip, "fast-\(muted).png", ["--width", "40", "--compression", "fast"], in: dir)
                let plainFrames = try Self.decoded(plain, width: 40, height: 30)
                let fastFrames = try Self.decoded(fast, width: 40, height: 30)
                let off = Self.worst(plainFrames, ref)
                #expect(off <= 1, "\(layout.name)\(muted ? " muted" : ""): default path \(off) levels off")
                let fastOff = Self.worst(fastFrames, ref)
                let eightBit = !layout.alpha && !layout.codec.contains { $0.hasSuffix("le") }
                if muted || !eightBit {
                    #expect(fastOff <= 1, "\(layout.name)\(muted ? " muted" : ""): fast path \(fastOff) levels off")
                }
                if !eightBit || layout.shift == (2, 2) {
                    #expect(fastFrames == plainFrames, "\(layout.name): the planes were resampled")
                } else if !muted {
                    #expect(fastFrames != plainFrames, "\(layout.name): the planes were not resampled")
                }
            }
        }
    }
}
