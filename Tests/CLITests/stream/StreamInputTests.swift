import Foundation
import TestSupport
import Testing

@Suite("encode - : frames streamed on standard input", .tags(.slow))
struct StreamInputTests {
    /// 30 frames of testsrc2 as PNG files in `frames/` and as ffmpeg's
    /// image2pipe stream in `stream.png`.
    static func pngFrames(in dir: URL, count: Int = 30) throws -> (folder: URL, stream: URL) {
        let folder = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try StreamSupport.ffmpeg(StreamSupport.testsrc(count: count) + [folder.appendingPathComponent("%04d.png").path])
        let stream = dir.appendingPathComponent("stream.png")
        try StreamSupport.ffmpeg(
            StreamSupport.testsrc(count: count) + ["-f", "image2pipe", "-c:v", "png", stream.path])
        return (folder, stream)
    }

    @Test(
        "a PNG stream gives the same bytes as the same frames in a folder, with and without transforms",
        arguments: [
            [], ["--width", "160", "--frames", "1-:2", "--reverse", "--speed", "2", "--fps", "10"],
            ["--format", "apng", "--bounce", "--duplicate", "2", "--frames", "5-20"],
        ])
    func pngStreamMatchesFolder(_ options: [String]) throws {
        try withTemporaryDirectory { dir in
            let (folder, stream) = try Self.pngFrames(in: dir)
            let ext = options.contains("apng") ? "png" : "gif"
            let fromFolder = dir.appendingPathComponent("folder.\(ext)")
            let fromStream = dir.appendingPathComponent("stream.\(ext)")
            let a = try Throbber.run(["encode", folder.path, "-o", fromFolder.path, "-q"] + options)
            #expect(a.status == 0, "\(a.stderrText)")
            let b = try StreamSupport.run(["encode", "-", "-o", fromStream.path, "-q"] + options, stdin: stream)
            #expect(b.status == 0, "\(b.stderrText)")
            #expect(try sha256sum([fromFolder]) == sha256sum([fromStream]))
        }
    }

    @Test("ffmpeg piped straight into throbber (a real pipe) gives the folder's bytes")
    func realPipe() throws {
        try withTemporaryDirectory { dir in
            let (folder, _) = try Self.pngFrames(in: dir)
            let a = dir.appendingPathComponent("a.gif")
            let b = dir.appendingPathComponent("b.gif")
            #expect(try Throbber.run(["encode", folder.path, "-o", a.path, "-q"]).status == 0)
            let line =
                "/usr/bin/ffmpeg -v error -nostdin -f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 30 -f image2pipe -c:v png - | '\(try Throbber.binary.get().path)' encode - -o '\(b.path)' -q"
            let r = try Command.run(URL(fileURLWithPath: "/bin/sh"), ["-c", line])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try sha256sum([a]) == sha256sum([b]))
        }
    }

    @Test(
        "YUV4MPEG2 frames are within 1 level of ffmpeg's accurate rgb24 conversion",
        arguments: ["yuv420p", "yuv422p", "yuv444p", "gray"])
    func y4mMatchesFFmpeg(_ pixelFormat: String) throws {
        try withTemporaryDirectory { dir in
            let y4m = dir.appendingPathComponent("in.y4m")
            try StreamSupport.ffmpeg(
                StreamSupport.testsrc(count: 4) + ["-pix_fmt", pixelFormat, "-f", "yuv4mpegpipe", y4m.path])
            let out = dir.appendingPathComponent("out.png")
            let r = try StreamSupport.run(["encode", "-", "-o", out.path, "-q"], stdin: y4m)
            #expect(r.status == 0, "\(r.stderrText)")
            let ours = try APNGCLI.decode("pillow", out).frames
            #expect(ours.count == 4)
            // ffmpeg's exact path, with its default (replicated) chroma.
            let accurate = try references(
                y4m, in: dir, name: "accurate", flags: "neighbor+accurate_rnd+full_chroma_int")
            let d = StreamSupport.maxDifference(ours, accurate)
            #expect(d != nil && d! <= 1, "max difference \(String(describing: d)) against ffmpeg (accurate)")
            // ffmpeg's plain -pix_fmt rgb24: for 4:2:0 and 4:2:2 it takes a
            // fast table path that is itself up to 3 levels off.
            let plain = try references(y4m, in: dir, name: "plain", flags: nil)
            let limit = ["yuv420p", "yuv422p"].contains(pixelFormat) ? 3 : 1
            let p = StreamSupport.maxDifference(ours, plain)
            #expect(p != nil && p! <= limit, "max difference \(String(describing: p)) against ffmpeg -pix_fmt rgb24")
        }
    }

    /// ffmpeg's rgb24 conversion of `y4m`, decoded by Pillow.
    func references(_ y4m: URL, in dir: URL, name: String, flags: String?) throws -> [[UInt8]] {
        let folder = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try StreamSupport.ffmpeg(
            ["-i", y4m.path, "-pix_fmt", "rgb24"] + (flags.map { ["-sws_flags", $0] } ?? [])
                + [folder.appendingPathComponent("%04d.png").path])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0) }
        return try APNGCLI.stills(files).frames
    }

    @Test("a YUV4MPEG2 stream's frame rate (F header) sets the delays, exactly; --fps overrides it")
    func y4mFrameRate() throws {
        try withTemporaryDirectory { dir in
            let ntsc = dir.appendingPathComponent("ntsc.y4m")
            try StreamSupport.ffmpeg(
                StreamSupport.testsrc(rate: "30000/1001", count: 12) + ["-f", "yuv4mpegpipe", ntsc.path])
            let apng = dir.appendingPathComponent("ntsc.png")
            #expect(try StreamSupport.run(["encode", "-", "-o", apng.path, "-q"], stdin: ntsc).status == 0)
            let spec = try APNGCLI.decode("spec", apng)
            #expect(spec.fractions.count == 12)
            #expect(spec.fractions.allSatisfy { $0 == APNGCLI.Fraction(1001, 30000) }, "\(spec.fractions)")
            let pillow = try APNGCLI.decode("pillow", apng)
            #expect(pillow.seconds.allSatisfy { abs(($0 ?? 0) - 1001.0 / 30000) < 1e-4 }, "\(pillow.seconds)")

            // GIF: centisecond delays whose running sum is the exact time rounded.
            let gif = dir.appendingPathComponent("ntsc.gif")
            #expect(try StreamSupport.run(["encode", "-", "-o", gif.path, "-q"], stdin: ntsc).status == 0)
            let delays = try Pillow.decode(gif).durations
            var sum = 0
            for (k, ms) in delays.enumerated() {
                sum += ms
                // round half up of (k + 1) · 1001/30000 s in centiseconds
                let exact = (k + 1) * 100_100
                #expect(sum == (exact + 15_000) / 30_000 * 10, "delays \(delays)")
            }

            let ten = dir.appendingPathComponent("ten.y4m")
            try StreamSupport.ffmpeg(
                StreamSupport.testsrc(rate: "10", count: 5) + ["-f", "yuv4mpegpipe", ten.path])
            let slow = dir.appendingPathComponent("ten.gif")
            #expect(try StreamSupport.run(["encode", "-", "-o", slow.path, "-q"], stdin: ten).status == 0)
            #expect(try Pillow.decode(slow).durations == Array(repeating: 100, count: 5))
            #expect(
                try StreamSupport.run(["encode", "-", "-o", slow.path, "-q", "--fps", "20"], stdin: ten).status == 0)
            #expect(try Pillow.decode(slow).durations == Array(repeating: 50, count: 5))
        }
    }

    @Test("a 60 fps YUV4MPEG2 stream into GIF is refused with the options that thin it out")
    func y4mTooFastForGIF() throws {
        try withTemporaryDirectory { dir in
            let fast = dir.appendingPathComponent("fast.y4m")
            try StreamSupport.ffmpeg(
                StreamSupport.testsrc("64x48", rate: "60", count: 6) + ["-f", "yuv4mpegpipe", fast.path])
            let out = dir.appendingPathComponent("fast.gif")
            let r = try StreamSupport.run(["encode", "-", "-o", out.path], stdin: fast)
            #expect(r.status == 64)
            #expect(r.stderrText.contains("--frames 1-:2 --fps 30"), "\(r.stderrText)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
            let thinned = try StreamSupport.run(
                ["encode", "-", "-o", out.path, "-q", "--frames", "1-:2", "--fps", "30"], stdin: fast)
            #expect(thinned.status == 0, "\(thinned.stderrText)")
            // 3 frames at 30 fps: 3 + 4 + 3 centiseconds.
            #expect(try Pillow.decode(out).durations.reduce(0, +) == 100)
        }
    }
}
