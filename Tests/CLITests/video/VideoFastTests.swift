import Foundation
import TestSupport
import Testing

/// `throbber encode clip.mp4 --compression fast`: a video's frames are
/// resampled in their Y'CbCr planes before the conversion to RGB. What we
/// write is decoded by the ffmpeg command and compared with
/// `Tests/tools/video_plane_resize.py`, the same picture computed in numpy
/// from the clip's planes as the ffmpeg command decodes them.
@Suite("encode CLIP --compression fast", .tags(.slow))
struct VideoFastTests {
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    /// Every frame of `file` as the ffmpeg command decodes it, RGBA.
    static func decoded(_ file: URL, width: Int, height: Int) throws -> [[UInt8]] {
        let r = try Command.run(
            StreamSupport.ffmpeg,
            [
                "-v", "error", "-nostdin", "-i", file.path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt",
                "rgba", "-",
            ])
        guard r.status == 0 else { throw HarnessError("ffmpeg decoding \(file.lastPathComponent): \(r.stderrText)") }
        return Self.split([UInt8](r.stdout), frame: width * height * 4)
    }

    static func split(_ bytes: [UInt8], frame: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count - frame + 1, by: frame).map { Array(bytes[$0..<$0 + frame]) }
    }

    /// The numpy reference of `clip` (yuv420p, BT.709 limited) at `width` × `height`.
    static func reference(_ clip: URL, source: (Int, Int), width: Int, height: Int, in dir: URL) throws -> [[UInt8]] {
        let yuv = dir.appendingPathComponent("planes.yuv")
        try StreamSupport.ffmpeg([
            "-i", clip.path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "yuv420p", yuv.path,
        ])
        let out = dir.appendingPathComponent("ref.rgba")
        let r = try Command.run(
            python,
            [
                Paths.tools.appendingPathComponent("video_plane_resize.py").path, yuv.path, "\(source.0)",
                "\(source.1)",
                "\(width)", "\(height)", "bt709", "tv", out.path,
            ])
        guard r.status == 0 else { throw HarnessError("video_plane_resize.py: \(r.stderrText)") }
        return Self.split([UInt8](try Data(contentsOf: out)), frame: width * height * 4)
    }

    @Test("APNG: every pixel is within one level of the planes resampled, then converted")
    func apngMatchesTheReference() throws {
        try withTemporaryDirectory { dir in
            let clip = try VideoEncodeTests.h264(dir, size: "160x120", rate: 25, seconds: 1)
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run(["encode", clip.path, "-o", out.path, "--width", "72", "--compression", "fast"])
            #expect(r.status == 0, "\(r.stderrText)")
            let ours = try Self.decoded(out, width: 72, height: 54)
            let refs = try Self.reference(clip, source: (160, 120), width: 72, height: 54, in: dir)
            #expect(ours.count == 25 && refs.count == 25)
            var worst = 0
            for (a, b) in zip(ours, refs) {
                for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
            }
            #expect(worst <= 1, "a channel is \(worst) levels from the reference")
        }
    }

    @Test("GIF with one palette: every frame is at least 37.5 dB from the reference, for any --jobs")
    func gifSharedPalette() throws {
        try withTemporaryDirectory { dir in
            let clip = try VideoEncodeTests.h264(dir, size: "160x120", rate: 25, seconds: 1)
            let refs = try Self.reference(clip, source: (160, 120), width: 80, height: 60, in: dir)
            var files: [Data] = []
            for jobs in ["1", "2"] {
                let out = dir.appendingPathComponent("out\(jobs).gif")
                let r = try Throbber.run([
                    "encode", clip.path, "-o", out.path, "--width", "80", "--palette", "shared", "--compression",
                    "fast", "--jobs", jobs,
                ])
                #expect(r.status == 0, "\(r.stderrText)")
                files.append(try Data(contentsOf: out))
            }
            #expect(files[0] == files[1], "--jobs 1 and --jobs 2 wrote different bytes")
            let ours = try Self.decoded(dir.appendingPathComponent("out1.gif"), width: 80, height: 60)
            #expect(ours.count == refs.count)
            // R, G and B of the opaque frames; the frames give 37.9–39.3 dB.
            let scores = zip(ours, refs).map { psnr($0, $1) }
            #expect(scores.allSatisfy { $0 >= 37.5 }, "PSNR per frame: \(scores.map { ($0 * 10).rounded() / 10 })")
        }
    }

    @Test("a turned clip takes the exact path: the same pixels as without --compression fast")
    func turnedClipFallsBack() throws {
        try withTemporaryDirectory { dir in
            let turned = try VideoEncodeTests.turned(
                VideoEncodeTests.h264(dir, size: "160x120", rate: 25, seconds: 1), in: dir)
            var frames: [[[UInt8]]] = []
            for extra in [[], ["--compression", "fast"]] {
                let out = dir.appendingPathComponent("out\(frames.count).png")
                let r = try Throbber.run(["encode", turned.path, "-o", out.path, "--width", "60"] + extra)
                #expect(r.status == 0, "\(r.stderrText)")
                frames.append(try Self.decoded(out, width: 60, height: 80))
            }
            #expect(frames[0].count == 25 && frames[0] == frames[1])
        }
    }
}
