import Foundation
import TestSupport
import Testing

/// `throbber info clip.mp4`: what ffprobe would say, in Throbber's words.
@Suite("info CLIP: what a video is")
struct VideoInfoTests {
    private struct Info: Decodable {
        var format: String
        var codec: String
        var width: Int
        var height: Int
        var codedWidth: Int
        var codedHeight: Int
        var rotation: Int
        var frameRate: String
        var frameCount: Int
        var durationMs: Double
        var colorMatrix: String
        var colorRange: String
        var alpha: Bool
        var gifFrameCount: Int
    }

    private func info(_ clip: URL) throws -> Info {
        let r = try Throbber.run(["info", clip.path, "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Info.self, from: r.stdout)
    }

    @Test("the codec, size, exact rate, duration and color tags of an H.264 clip, as text and JSON")
    func h264() throws {
        try withTemporaryDirectory { dir in
            let clip = try VideoEncodeTests.h264(dir, size: "160x120", rate: 30, seconds: 2)
            let i = try info(clip)
            #expect(i.format == "video" && i.codec.contains("H.264"))
            #expect((i.width, i.height, i.codedWidth, i.codedHeight, i.rotation) == (160, 120, 160, 120, 0))
            #expect(i.frameRate == "30" && i.frameCount == 60 && i.durationMs == 2000)
            #expect(i.colorMatrix == "bt709" && i.colorRange == "tv" && !i.alpha)
            #expect(i.gifFrameCount == 60)
            let text = try Throbber.run(["info", clip.path])
            #expect(text.status == 0)
            for part in ["video", "160x120", "60 frames at 30 fps", "0:02.000", "bt709"] {
                #expect(text.stdoutText.contains(part), "\(part) missing from:\n\(text.stdoutText)")
            }
        }
    }

    @Test("a 60 fps clip: GIF keeps every second frame; 29.97 fps is an exact fraction")
    func rates() throws {
        try withTemporaryDirectory { dir in
            let sixty = try VideoEncodeTests.h264(dir, name: "sixty.mp4", size: "64x48", rate: 60, seconds: 1)
            let i = try info(sixty)
            #expect(i.frameRate == "60" && i.frameCount == 60 && i.gifFrameCount == 30)
            let ntsc = dir.appendingPathComponent("ntsc.mp4")
            try StreamSupport.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30000/1001", "-frames:v", "30", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", ntsc.path,
            ])
            #expect(try info(ntsc).frameRate == "30000/1001")
        }
    }

    @Test("a phone clip turned 90 degrees shows its displayed size")
    func rotated() throws {
        try withTemporaryDirectory { dir in
            let turned = try VideoEncodeTests.turned(
                VideoEncodeTests.h264(dir, size: "96x64", rate: 10, seconds: 1), in: dir)
            let i = try info(turned)
            #expect((i.width, i.height, i.codedWidth, i.codedHeight) == (64, 96, 96, 64))
            #expect(i.rotation == 90 || i.rotation == 270)
            let out = dir.appendingPathComponent("turned.gif")
            #expect(try Throbber.run(["encode", turned.path, "-o", out.path, "-q"]).status == 0)
            let gif = try Pillow.decode(out)
            #expect((gif.width, gif.height) == (64, 96))
        }
    }

    @Test("info on a file with no video exits 65 naming it")
    func noVideo() throws {
        try withTemporaryDirectory { dir in
            let audio = dir.appendingPathComponent("sound.m4a")
            try StreamSupport.ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", audio.path])
            let r = try Throbber.run(["info", audio.path])
            expectFailure(r, status: 65, names: ["sound.m4a"])
        }
    }
}
