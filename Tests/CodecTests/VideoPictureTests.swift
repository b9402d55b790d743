import Foundation
import TestSupport
import Testing

@testable import ThrobberCodecs
@testable import ThrobberKit

/// The picture as players show it: display rotation, non-square pixels
/// and alpha, against ffmpeg's own output and frames of known alpha.
@Suite("Video picture", VideoClips.needed)
struct VideoPictureTests {
    static let budget = MemoryBudget(limit: 1 << 30)
    static let bt709 = [
        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_range", "tv",
    ]

    @Test("a rotated clip comes out at its displayed size and orientation", arguments: [90, 180, 270])
    func rotation(_ degrees: Int) throws {
        try withTemporaryDirectory { dir in
            let plain = try VideoClips.make(dir, "plain.mp4", VideoClips.testsrc(seconds: "0.2") + Self.bt709)
            let path = try VideoClips.make(
                dir, "rot.mp4", ["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)"])
            // ffprobe gives the display matrix's angle counterclockwise.
            let angle = try #require(Int(try VideoClips.probe(path, ["-show_entries", "stream_side_data=rotation"])))
            let clockwise = ((-angle) % 360 + 360) % 360
            #expect(angle != 0 && clockwise % 90 == 0, "ffprobe's rotation: \(angle)")
            let file = try VideoFile(path: path, budget: Self.budget, threads: 1)
            #expect(file.info.rotation == clockwise)
            let (w, h) = clockwise == 180 ? (64, 48) : (48, 64)
            #expect(file.info.displayWidth == w && file.info.displayHeight == h)
            let ours = try VideoClips.decode(file)
            // ffmpeg's automatic rotation, as filters after the conversion…
            let turn = [90: "transpose=clock", 180: "hflip,vflip", 270: "transpose=cclock"][clockwise]!
            let exact = try VideoClips.reference(
                path, filter: VideoClips.scale(matrix: "bt709", range: "tv") + "," + turn, width: w, height: h,
                autorotate: false)
            // …and as ffmpeg applies it itself, before the conversion: chroma is sited differently, so
            // only close (a picture turned the wrong way scores under 10 dB).
            let auto = try VideoClips.reference(
                path, filter: VideoClips.scale(matrix: "bt709", range: "tv"), width: w, height: h)
            #expect(ours.count == exact.count && ours.count == auto.count)
            for (i, frame) in ours.enumerated() {
                VideoClips.expectClose(frame, exact[i], "rotate=\(degrees) frame \(i + 1)")
                // Measured 26.96 dB at worst turned a quarter, 22.97 dB turned a half.
                let floor = clockwise == 180 ? 22.5 : 26.5
                #expect(
                    psnr(frame, auto[i]) >= floor,
                    "frame \(i + 1) against ffmpeg's autorotated output: \(psnr(frame, auto[i])) dB")
            }
        }
    }

    @Test("an anamorphic clip (SAR 4:3) comes out round(64·4/3) × 48, resampled as ffmpeg's Lanczos scale does")
    func anamorphic() throws {
        try withTemporaryDirectory { dir in
            let path = try VideoClips.make(
                dir, "sar.mp4", VideoClips.testsrc(seconds: "0.2") + ["-vf", "setsar=4/3"] + Self.bt709)
            let file = try VideoFile(path: path, budget: Self.budget, threads: 1)
            #expect(file.info.sampleAspect == Rational(4, 3))
            #expect(file.info.displayWidth == 85 && file.info.displayHeight == 48)
            let ours = try VideoClips.decode(file)
            let theirs = try VideoClips.reference(
                path, filter: VideoClips.scale(matrix: "bt709", range: "tv", flags: "lanczos", size: "85x48"),
                width: 85, height: 48)
            #expect(ours.count == theirs.count)
            for (i, (a, b)) in zip(ours, theirs).enumerated() { VideoClips.expectClose(a, b, "SAR 4:3 frame \(i + 1)") }
        }
    }

    @Test(
        "alpha is kept exactly where the source is opaque or clear", arguments: ["vp9.webm", "vp8.webm", "prores.mov"])
    func alpha(_ name: String) throws {
        try withTemporaryDirectory { dir in
            // Five frames: opaque left third, half-clear middle, clear right third; colors move.
            let script = """
                import sys
                from PIL import Image
                for n in range(5):
                    im = Image.new('RGBA', (64, 48))
                    for y in range(48):
                        for x in range(64):
                            a = 255 if x < 21 else (128 if x < 43 else 0)
                            im.putpixel((x, y), ((x * 4 + n * 30) % 256, y * 5, 200 - n * 20, a))
                    im.save('%s/f%d.png' % (sys.argv[1], n))
                """
            let r = try Command.run(URL(fileURLWithPath: ToolRunner.python), ["-c", script, dir.path])
            try #require(r.status == 0, "Pillow: \(r.stderrText)")
            let codec = [
                "vp9.webm": ["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-crf", "20", "-b:v", "0"],
                "vp8.webm": [
                    "-c:v", "libvpx", "-pix_fmt", "yuva420p", "-auto-alt-ref", "0", "-crf", "10", "-b:v", "1M",
                ],
                "prores.mov": ["-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"],
            ][name]!
            let path = try VideoClips.make(
                dir, name, ["-framerate", "25", "-i", dir.appendingPathComponent("f%d.png").path] + codec)
            let file = try VideoFile(path: path, budget: Self.budget, threads: 1)
            #expect(file.info.hasAlpha)
            #expect(
                file.info.decoder == ["vp9.webm": "libvpx-vp9", "vp8.webm": "libvpx", "prores.mov": "prores"][name])
            let frames = try VideoClips.decode(file)
            #expect(frames.count == 5)
            for (n, frame) in frames.enumerated() {
                var wrong: [String] = []
                for y in 0..<48 {
                    for (x, expected) in [(0..<17, UInt8(255)), (47..<64, UInt8(0))].flatMap({ r in
                        r.0.map { ($0, r.1) }
                    }) {
                        let a = frame.pixels[(y * 64 + x) * 4 + 3]
                        if a != expected { wrong.append("(\(x),\(y)) \(a)") }
                    }
                }
                #expect(wrong.isEmpty, "\(name) frame \(n + 1): alpha \(wrong.prefix(5))")
                let middle = frame.pixels[(24 * 64 + 32) * 4 + 3]
                #expect(abs(Int(middle) - 128) <= 3, "\(name) frame \(n + 1): half-clear alpha \(middle)")
            }
            // A background shows through the clear pixels, and every pixel comes out opaque.
            let red = Color(r: 255, g: 0, b: 0, a: 255)
            let over = VideoFrameSource(file: file, frames: [0], durations: [Rational(1, 25)], background: red)
            let flat = try over.frame(at: 0)
            #expect(stride(from: 3, to: flat.pixels.count, by: 4).allSatisfy { flat.pixels[$0] == 255 })
            #expect(Array(flat.pixels[(10 * 64 + 60) * 4..<(10 * 64 + 61) * 4]) == [255, 0, 0, 255])
        }
    }

    /// PSNR in dB over all channels.
    func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return 0 }
        let squares = zip(a.pixels, b.pixels).reduce(0.0) { $0 + pow(Double(Int($1.0) - Int($1.1)), 2) }
        let mse = squares / Double(a.pixels.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

/// Each orientation step against the ffmpeg filter it stands for, on an
/// RGBA picture of odd size (so a swapped width and height shows).
@Suite("Video orientation steps", VideoClips.needed)
struct VideoOrientationStepTests {
    static let steps: [(VideoOrientationStep, String)] = [
        (.clockwise, "transpose=clock"), (.counterclockwise, "transpose=cclock"),
        (.transpose, "transpose=cclock_flip"), (.antiTranspose, "transpose=clock_flip"),
        (.mirror, "hflip"), (.upsideDown, "vflip"),
    ]

    @Test("every step turns pixels as ffmpeg's filter does", arguments: 0..<6)
    func step(_ i: Int) throws {
        let (step, filter) = Self.steps[i]
        try withTemporaryDirectory { dir in
            let png = try VideoClips.make(
                dir, "still.png", VideoClips.testsrc("37x23", seconds: "0.04") + ["-frames:v", "1", "-pix_fmt", "rgba"])
            let source = try VideoClips.reference(png, filter: "format=rgba", width: 37, height: 23)[0]
            let (w, h) = step == .mirror || step == .upsideDown ? (37, 23) : (23, 37)
            let expected = try VideoClips.reference(png, filter: "format=rgba,\(filter)", width: w, height: h)[0]
            #expect(VideoPicture.turned(source, step) == expected, "\(step) against \(filter)")
        }
    }
}
