import Foundation
import TestSupport
import Testing

/// Videos that lie about their size or hold many streams, and parts of a
/// clip that hold no time (docs/reliability.md, "Videos"): every decoded
/// frame stays inside the memory plan, and a window is checked against the
/// clip's real length.
@Suite("Hostile videos: frames inside the plan, windows inside the clip", .tags(.slow))
struct VideoLimitsTests {
    /// A transport stream whose headers and first `smallSeconds` of frames
    /// are 16x16, followed by two 8192x8192 frames of one gray.
    static func sizeSwitch(_ dir: URL, smallSeconds: String) throws -> URL {
        let small = dir.appendingPathComponent("small.h264")
        let big = dir.appendingPathComponent("big.h264")
        try StreamSupport.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=16x16:rate=10:duration=\(smallSeconds)", "-c:v", "libx264",
            "-preset", "ultrafast", "-f", "h264", small.path,
        ])
        try StreamSupport.ffmpeg([
            "-f", "lavfi", "-i", "color=c=gray:size=8192x8192:rate=10", "-frames:v", "2", "-c:v", "libx264",
            "-preset", "ultrafast", "-f", "h264", big.path,
        ])
        let joined = dir.appendingPathComponent("joined.h264")
        try (try Data(contentsOf: small) + Data(contentsOf: big)).write(to: joined)
        let ts = dir.appendingPathComponent("switch-\(smallSeconds).ts")
        try StreamSupport.ffmpeg(["-r", "10", "-i", joined.path, "-c", "copy", "-f", "mpegts", ts.path])
        for file in [small, big, joined] { try FileManager.default.removeItem(at: file) }
        return ts
    }

    @Test(
        "a stream declared 16x16 that switches to 8192x8192 frames is refused naming the frame, within --max-memory 300M",
        arguments: ["0.3", "10"])
    func sizeSwitchStaysInBudget(smallSeconds: String) throws {
        try withTemporaryDirectory { dir in
            let ts = try Self.sizeSwitch(dir, smallSeconds: smallSeconds)
            let out = dir.appendingPathComponent("out.gif")
            let m = try APNGCLITests.measured(["encode", ts.path, "-o", out.path, "--max-memory", "300M"])
            expectFailure(m.result, status: 65, names: [ts.path, "8192x8192"])
            #expect(m.kilobytes < 300_000, "peak RSS \(m.kilobytes) KB over --max-memory 300M")
            #expect(try listing(dir) == [ts.lastPathComponent])
        }
    }

    /// A Matroska file holding `copies` copies of one small video stream.
    static func manyStreams(_ dir: URL, copies: Int) throws -> URL {
        let one = dir.appendingPathComponent("one.mp4")
        try VideoContainmentTests.clip(one)
        let many = dir.appendingPathComponent("many-\(copies).mkv")
        let maps = (0..<copies).flatMap { _ in ["-map", "0:v"] }
        try StreamSupport.ffmpeg(["-i", one.path] + maps + ["-c", "copy", many.path])
        try FileManager.default.removeItem(at: one)
        return many
    }

    @Test("200 copies of one stream cost what one does (info and encode within --max-memory 100M); 300 are refused")
    func manyStreamsBounded() throws {
        try withTemporaryDirectory { dir in
            let many = try Self.manyStreams(dir, copies: 200)
            let info = try APNGCLITests.measured(["info", many.path])
            #expect(info.result.status == 0, "\(info.result.stderrText)")
            #expect(info.kilobytes < 100_000, "info: peak RSS \(info.kilobytes) KB")
            let out = dir.appendingPathComponent("out.gif")
            let encode = try APNGCLITests.measured(["encode", many.path, "-o", out.path, "--max-memory", "100M"])
            #expect(encode.result.status == 0, "\(encode.result.stderrText)")
            #expect(encode.kilobytes < 100_000, "encode: peak RSS \(encode.kilobytes) KB over --max-memory 100M")
            let tooMany = try Self.manyStreams(dir, copies: 300)
            let r = try Throbber.run(["encode", tooMany.path, "-o", dir.appendingPathComponent("no.gif").path])
            expectFailure(r, status: 65, names: [tooMany.path, "more than 256 streams"])
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("no.gif").path))
        }
    }

    /// A 2 s VP9 WebM of testsrc2 at 10 fps, tagged BT.709 limited range,
    /// whose first frame is at −1 s.
    static func startsBeforeZero(_ dir: URL) throws -> URL {
        let clip = dir.appendingPathComponent("early.webm")
        try StreamSupport.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=2", "-c:v", "libvpx-vp9", "-crf", "10",
            "-b:v", "0", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc",
            "bt709", "-color_range", "tv", "-output_ts_offset", "-1", "-avoid_negative_ts", "disabled", clip.path,
        ])
        return clip
    }

    @Test("a clip whose first frame is at −1 s decodes as ffmpeg decodes it, whole and cut")
    func startsBeforeZeroDecodes() throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.startsBeforeZero(dir)
            let refs = try VideoEncodeTests.reference(clip, nil, in: dir)
            #expect(refs.count == 20)
            let out = dir.appendingPathComponent("out.webp")
            let r = try Throbber.run(["encode", clip.path, "-o", out.path])
            #expect(r.status == 0, "\(r.stderrText)")
            let whole = try Pillow.match(out, against: refs, sameIndex: true)
            #expect(whole.frames.count == 20)
            #expect(whole.frames.allSatisfy { $0.duration == 100 && ($0.psnr.first ?? 0) >= 60 }, "\(whole.frames)")
            let part = dir.appendingPathComponent("part.webp")
            let cut = try Throbber.run(["encode", clip.path, "-o", part.path, "--from", "1", "--to", "1.5"])
            #expect(cut.status == 0, "\(cut.stderrText)")
            let match = try Pillow.match(part, against: Array(refs[10..<15]), sameIndex: true)
            #expect(match.frames.count == 5)
            #expect(match.frames.allSatisfy { ($0.psnr.first ?? 0) >= 60 }, "\(match.frames)")
        }
    }

    @Test("an empty window, one inside a tick, or one after the end is a usage error stating the clip's length")
    func emptyWindows() throws {
        try withTemporaryDirectory { dir in
            let clip = try VideoEncodeTests.h264(dir, rate: 30, seconds: 2)
            let out = dir.appendingPathComponent("out.gif")
            let cases: [([String], [String])] = [
                (["--to", "0"], ["holds no time", "0:00.000 to 0:00.000", "it lasts 0:02.000"]),
                (["--from", "1.00001", "--to", "1.00002"], ["holds no time", "next tick", "it lasts 0:02.000"]),
                (["--from", "5"], ["starts at 0:05.000", "at or after the clip's end", "it lasts 0:02.000"]),
            ]
            for (window, words) in cases {
                let r = try Throbber.run(["encode", clip.path, "-o", out.path] + window)
                #expect(r.status == 64, "\(window): \(r.stderrText)")
                let line = r.stderrLines.first ?? ""
                for word in [clip.path] + words { #expect(line.contains(word), "\(window): \(line)") }
                #expect(try listing(dir) == [clip.lastPathComponent])
            }
        }
    }
}
