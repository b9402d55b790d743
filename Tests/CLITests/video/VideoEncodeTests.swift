import Foundation
import TestSupport
import Testing

/// `throbber encode clip.mp4`: clips made by the ffmpeg command (an
/// independent encoder); what we write is decoded by Pillow and compared
/// with the frames the ffmpeg command itself gives for the same times.
@Suite("encode CLIP: videos in", .tags(.slow))
struct VideoEncodeTests {
    /// testsrc2 (every frame differs) as H.264 yuv420p, tagged BT.709
    /// limited range, `seconds` long at `rate` fps.
    static func h264(_ dir: URL, name: String = "clip.mp4", size: String = "160x120", rate: Int = 30, seconds: Int = 2)
        throws -> URL
    {
        let clip = dir.appendingPathComponent(name)
        try StreamSupport.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)", "-c:v", "libx264",
            "-preset", "veryfast", "-qp", "10", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries",
            "bt709", "-color_trc", "bt709", "-color_range", "tv", clip.path,
        ])
        return clip
    }

    /// `clip` with a display matrix turning it `degrees` clockwise, as
    /// phones write it (the samples copied as they are).
    static func turned(_ clip: URL, degrees: Int = 90, in dir: URL) throws -> URL {
        let turned = dir.appendingPathComponent("turned-\(degrees).mp4")
        try StreamSupport.ffmpeg(["-i", clip.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", turned.path])
        return turned
    }

    /// The ffmpeg command's own RGBA frames of `clip` after `filters`
    /// (fps, trim), as PNG files, converted with the clip's tags given
    /// explicitly (BT.709, limited range, chroma sited left as H.264's
    /// default: ffmpeg's scale filter does not read the siting itself).
    static func reference(_ clip: URL, _ filters: String?, in dir: URL, name: String = "ref") throws -> [URL] {
        let folder = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let convert =
            "scale=in_color_matrix=bt709:in_range=tv:out_range=pc:in_h_chr_pos=0:in_v_chr_pos=128:flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgba"
        try StreamSupport.ffmpeg([
            "-i", clip.path, "-vf", [filters, convert].compactMap { $0 }.joined(separator: ","), "-fps_mode",
            "passthrough", folder.appendingPathComponent("%04d.png").path,
        ])
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("an H.264 clip becomes a GIF of every frame whose delays add up to the clip, on its exact timeline")
    func gifKeepsTheClipsTimes() throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.h264(dir)
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", clip.path, "-o", out.path])
            #expect(r.status == 0, "\(r.stderrText)")
            let gif = try Pillow.decode(out)
            #expect(gif.width == 160 && gif.height == 120)
            #expect(gif.frames.count == 60)
            // 1/30 s frames in centiseconds rounded on the exact timeline: 30, 40, 30, ….
            #expect(gif.durations.reduce(0, +) == 2000)
            #expect(Set(gif.durations) == [30, 40])
            #expect(gif.loop == 0)
        }
    }

    @Test("--fps resamples as ffmpeg's fps filter does: each frame matches ffmpeg's for the same time")
    func resampledFramesMatchFFmpeg() throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.h264(dir)
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run(["encode", clip.path, "-o", out.path, "--fps", "10"])
            #expect(r.status == 0, "\(r.stderrText)")
            let refs = try Self.reference(clip, "fps=10", in: dir)
            #expect(refs.count == 20)
            let match = try Pillow.match(out, against: refs, sameIndex: true)
            #expect(match.frames.count == 20)
            #expect(match.frames.allSatisfy { $0.duration == 100 })
            // The same libswscale conversion on the same decoded samples:
            // every frame is ffmpeg's exactly (99 dB is match_frames.py's
            // "identical").
            for (i, f) in match.frames.enumerated() {
                #expect((f.psnr.first ?? 0) >= 99, "frame \(i + 1): \(f.psnr) dB against ffmpeg's")
            }
        }
    }

    @Test("--from and --to cut by time: the frames and length of that part, from the frame on screen at --from")
    func fromAndTo() throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.h264(dir)
            // Lossless WebP: exact pixels, delays in whole milliseconds.
            let out = dir.appendingPathComponent("part.webp")
            let r = try Throbber.run(["encode", clip.path, "-o", out.path, "--from", "0:00.5", "--to", "1.5"])
            #expect(r.status == 0, "\(r.stderrText)")
            // ffmpeg's frames 16…45 (0.5 s to 1.5 s at 30 fps).
            let refs = Array(try Self.reference(clip, nil, in: dir)[15..<45])
            let match = try Pillow.match(out, against: refs, sameIndex: true)
            #expect(match.frames.count == 30)
            #expect(match.frames.compactMap(\.duration).reduce(0, +) == 1000)
            for (i, f) in match.frames.enumerated() {
                #expect((f.psnr.first ?? 0) >= 99, "frame \(i + 1): \(f.psnr) dB against ffmpeg's frame \(i + 16)")
            }
            // To the end when --to is not given.
            let tail = dir.appendingPathComponent("tail.gif")
            #expect(try Throbber.run(["encode", clip.path, "-o", tail.path, "--from", "1", "-q"]).status == 0)
            #expect(try Pillow.decode(tail).durations.reduce(0, +) == 1000)
        }
    }

    @Test("a variable-frame-rate clip keeps its uneven delays, as ffprobe reads its timestamps")
    func variableFrameRate() throws {
        try withTemporaryDirectory { dir in
            // Frames 100 ms apart, then 300 ms apart (the mkv time base is 1 ms).
            let clip = dir.appendingPathComponent("vfr.mkv")
            try StreamSupport.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-frames:v", "6", "-vf",
                "setpts='if(lt(N,3),N*0.1,0.2+(N-2)*0.3)/TB'", "-fps_mode", "passthrough", "-c:v", "ffv1", clip.path,
            ])
            let probe = try Command.run(
                URL(fileURLWithPath: "/usr/bin/ffprobe"),
                [
                    "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time,duration_time", "-of",
                    "csv=p=0", clip.path,
                ])
            let packets = probe.stdoutText.split(separator: "\n").map {
                $0.split(separator: ",").map { Int((Double($0)! * 1000).rounded()) }
            }
            let starts = packets.map { $0[0] }.sorted()
            let expected = zip(starts, starts.dropFirst().map { $0 } + [starts.last! + packets.last![1]]).map {
                $1 - $0
            }
            #expect(Set(expected).count > 1, "ffmpeg made an even clip: \(expected)")
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", clip.path, "-o", out.path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try Pillow.decode(out).durations == expected)
        }
    }

    @Test("a clip of more frames than an encode takes is refused with the options that fit it")
    func tooManyFrames() throws {
        try withTemporaryDirectory { dir in
            // 10100 frames of 16x16 at 100 fps.
            let clip = dir.appendingPathComponent("long.mkv")
            try StreamSupport.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=16x16:rate=100", "-frames:v", "10100", "-c:v", "ffv1", clip.path,
            ])
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run(["encode", clip.path, "-o", out.path])
            expectFailure(r, status: 65, names: ["long.mkv", "10100 frames", "--fps", "--from"])
            #expect(!FileManager.default.fileExists(atPath: out.path))
            let fewer = try Throbber.run(["encode", clip.path, "-o", out.path, "--fps", "10", "-q"])
            #expect(fewer.status == 0, "\(fewer.stderrText)")
        }
    }

    @Test("output bytes do not depend on --jobs")
    func jobsDoNotChangeBytes() throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.h264(dir, seconds: 1)
            var hashes: [String] = []
            for jobs in ["1", "2"] {
                let out = dir.appendingPathComponent("j\(jobs).gif")
                let r = try Throbber.run(["encode", clip.path, "-o", out.path, "--jobs", jobs, "--width", "120", "-q"])
                #expect(r.status == 0, "\(r.stderrText)")
                hashes += try sha256sum([out])
            }
            #expect(hashes.count == 2 && hashes[0] == hashes[1])
        }
    }

    @Test("bad times are usage errors naming the option, and nothing is written")
    func badTimes() throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.h264(dir, seconds: 1)
            let out = dir.appendingPathComponent("out.gif")
            for (options, names) in [
                (["--from", "abc"], "--from"), (["--to", "1:75"], "--to"),
                (["--from", "0.8", "--to", "0.5"], "--from"),
                (["--from", "5"], "clip.mp4"),
            ] {
                let r = try Throbber.run(["encode", clip.path, "-o", out.path] + options)
                Self.expectUsage(r, names: [names])
                #expect(!FileManager.default.fileExists(atPath: out.path), "\(options)")
            }
            // Frames have no clock: --frames picks them.
            let frames = try ffmpegSourceFrames("testsrc2=size=32x32:rate=25", count: 3, in: dir)
            let r = try Throbber.run([
                "encode", frames[0].deletingLastPathComponent().path, "-o", out.path, "--from", "1",
            ])
            Self.expectUsage(r, names: ["--from", "--frames"])
        }
    }

    /// Exit 64 with an error line naming each of `names`, then the usage lines.
    static func expectUsage(_ r: CommandResult, names: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 64, "\(r.stderrText)", sourceLocation: sourceLocation)
        let line = r.stderrLines.first ?? ""
        #expect(line.hasPrefix("throbber: error: "), "\(line)", sourceLocation: sourceLocation)
        for name in names {
            #expect(line.contains(name), "error does not name '\(name)': \(line)", sourceLocation: sourceLocation)
        }
    }

    @Test("a file with no video, a cut-off clip and a clip with its index missing exit 65 naming the file")
    func badClips() throws {
        try withTemporaryDirectory { dir in
            let audio = dir.appendingPathComponent("sound.m4a")
            try StreamSupport.ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", audio.path])
            let clip = try Self.h264(dir, seconds: 1)
            let bytes = try Data(contentsOf: clip)
            let cut = dir.appendingPathComponent("cut.mp4")
            try bytes.prefix(bytes.count / 2).write(to: cut)
            let out = dir.appendingPathComponent("out.gif")
            for (file, status) in [(audio, 65), (cut, 65)] {
                let r = try Throbber.run(["encode", file.path, "-o", out.path])
                expectFailure(r, status: Int32(status), names: [file.lastPathComponent])
                #expect(!FileManager.default.fileExists(atPath: out.path))
            }
        }
    }
}
