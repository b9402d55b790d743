import Foundation
import TestSupport
import Testing

/// What the executable loads before `main`: every library it links costs
/// each run its loading and symbol binding, so Foundation (with ICU) stays
/// out, and FFmpeg's libavformat, libavcodec and libavutil are opened only
/// by the runs that read a video (docs/architecture.md, "Video"). cairo,
/// libswscale and rlottie are linked and called directly.
@Suite("Linked libraries")
struct LinkedLibrariesTests {
    @Test("the executable links cairo, libswscale and rlottie, and neither Foundation nor FFmpeg's demuxers")
    func startupLibraries() throws {
        let elf = try Command.run(URL(fileURLWithPath: "/usr/bin/readelf"), ["-d", Throbber.binary.get().path])
        try #require(elf.status == 0, "\(elf.stderrText)")
        let needed = elf.stdoutText.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
        #expect(needed.contains { $0.hasPrefix("libwebp.so") }, "\(needed)")
        #expect(needed.contains { $0.hasPrefix("libFoundationEssentials") }, "\(needed)")
        for absent in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!needed.contains(absent), "\(absent) is linked: \(needed)")
        }
        for linked in ["libcairo", "libswscale", "librlottie"] {
            #expect(needed.contains { $0.hasPrefix(linked) }, "\(linked) is not linked: \(needed)")
        }
        for lazy in ["libavformat", "libavcodec", "libavutil"] {
            #expect(!needed.contains { $0.hasPrefix(lazy) }, "\(lazy) is linked: \(needed)")
        }
    }

    @Test("a lone image or Lottie file is told from a video without loading FFmpeg; a video loads it")
    func ffmpegOnlyForVideo() throws {
        try withTemporaryDirectory { dir in
            let frames = try ffmpegSourceFrames("testsrc2=size=32x24:rate=25", count: 2, in: dir)
            let gif = dir.appendingPathComponent("a.gif")
            #expect(
                try Throbber.run(["encode", frames[0].deletingLastPathComponent().path, "-o", gif.path]).status == 0)
            let lottie = try Fixtures.url("lottie-android/soda_loader.json")
            let clip = dir.appendingPathComponent("clip.mkv")
            try StreamSupport.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=32x24:rate=25", "-frames:v", "2", "-c:v", "ffv1", clip.path,
            ])
            // LD_DEBUG=files makes the dynamic loader name every library it opens.
            func loadsFFmpeg(_ input: URL) throws -> Bool {
                let r = try Throbber.run(
                    ["encode", input.path, "-o", dir.appendingPathComponent("out.png").path, "-q"],
                    environment: ["LD_DEBUG": "files"])
                #expect(r.status == 0, "\(input.lastPathComponent): \(r.stderrText.suffix(500))")
                return r.stderrText.contains("file=libavformat")
            }
            #expect(try !loadsFFmpeg(gif))
            #expect(try !loadsFFmpeg(frames[0]))
            #expect(try !loadsFFmpeg(lottie))
            #expect(try loadsFFmpeg(clip))
        }
    }
}
