import Foundation
import TestSupport
import Testing

/// Runs a reference tool; fails the test with its error output.
private func tool(_ path: String, _ arguments: [String]) throws {
    let r = try Command.run(URL(fileURLWithPath: path), arguments)
    guard r.status == 0 else { throw HarnessError("\(path) \(arguments.joined(separator: " ")): \(r.stderrText)") }
}

/// The frames resized by ImageMagick's Lanczos and by ffmpeg's lanczos
/// scaler: two independent references for our resampling.
private func references(_ frames: [URL], width: Int, height: Int, in dir: URL) throws -> (
    magick: [URL], ffmpeg: [URL]
) {
    var magick: [URL] = []
    var ffmpeg: [URL] = []
    for (i, f) in frames.enumerated() {
        let m = dir.appendingPathComponent("im-\(i).png")
        try tool("/usr/bin/convert", [f.path, "-filter", "Lanczos", "-resize", "\(width)x\(height)!", m.path])
        magick.append(m)
        let g = dir.appendingPathComponent("ff-\(i).png")
        try tool(
            "/usr/bin/ffmpeg",
            ["-loglevel", "error", "-y", "-i", f.path, "-vf", "scale=\(width):\(height):flags=lanczos", g.path])
        ffmpeg.append(g)
    }
    return (magick, ffmpeg)
}

/// `count` frames of ffmpeg's testsrc2 at `size` (WxH), as PNG files.
private func testsrc2(_ size: String, count: Int, in dir: URL) throws -> [URL] {
    try ffmpegSourceFrames("testsrc2=size=\(size):rate=25", count: count, in: dir, name: "src")
}

@Suite("encode --width/--height/--scale: resampling quality against ImageMagick and ffmpeg", .tags(.slow))
struct ResizeQualityTests {
    /// Encodes `frames` to a lossless APNG with `args` and checks every
    /// frame (decoded by Pillow) against both references at ≥ 46 dB.
    func check(_ frames: [URL], _ args: [String], width: Int, height: Int, in dir: URL) throws {
        let out = dir.appendingPathComponent("out.png")
        let r = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", out.path, "--fps", "25"] + args)
        #expect(r.status == 0, "\(r.stderrText)")
        let decoded = try Pillow.decode(out)
        #expect(decoded.width == width && decoded.height == height)
        let refs = try references(frames, width: width, height: height, in: dir)
        for (name, list) in [("ImageMagick", refs.magick), ("ffmpeg", refs.ffmpeg)] {
            let match = try Pillow.match(out, against: list, sameIndex: true)
            #expect(match.frames.count == frames.count)
            for (i, frame) in match.frames.enumerated() {
                #expect(frame.psnr[0] >= 46, "frame \(i) against \(name): \(frame.psnr[0]) dB")
            }
        }
    }

    @Test("testsrc2 1280x720 → --width 480 (480x270) matches both references at ≥ 46 dB")
    func testsrc2HD() throws {
        try withTemporaryDirectory { dir in
            try check(
                try testsrc2("1280x720", count: 3, in: dir), ["--width", "480"], width: 480, height: 270, in: dir)
        }
    }

    @Test("testsrc2 640x480 → --width 213 (213x160) matches both references at ≥ 46 dB")
    func testsrc2VGA() throws {
        try withTemporaryDirectory { dir in
            try check(try testsrc2("640x480", count: 3, in: dir), ["--width", "213"], width: 213, height: 160, in: dir)
        }
    }

    @Test(
        "the real BoBoT photo frames (320x240 JPEG) → 213x160 and 120x90 match both references at ≥ 46 dB",
        .needsFixtures, arguments: [(213, 160), (120, 90)])
    func photo(_ size: (Int, Int)) throws {
        let frames = try (100...103).map { try Fixtures.url("photo-seq-dlib-bobot/frame_000\($0).jpg") }
        try withTemporaryDirectory { dir in
            try check(frames, ["--height", "\(size.1)"], width: size.0, height: size.1, in: dir)
        }
    }

    @Test(
        "--resize-filter nearest at --scale 2 repeats every pixel (Pillow's decode of the GIF equals Pillow's own 2× nearest)"
    )
    func nearestPixelArt() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"], width: 7, height: 5), in: dir)
            let doubled = dir.appendingPathComponent("x2")
            try FileManager.default.createDirectory(at: doubled, withIntermediateDirectories: true)
            var refs: [URL] = []
            for f in frames {
                let ref = doubled.appendingPathComponent(f.lastPathComponent)
                try tool("/usr/bin/convert", [f.path, "-filter", "Point", "-resize", "200%", ref.path])
                refs.append(ref)
            }
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(
                ["encode"] + frames.map(\.path) + ["-o", out.path, "--scale", "2", "--resize-filter", "nearest"])
            #expect(r.status == 0, "\(r.stderrText)")
            let gif = try Pillow.decode(out)
            #expect(gif.width == 14 && gif.height == 10)
            #expect(gif.hashes == (try Pillow.hashes(of: refs)))
        }
    }
}

@Suite("encode --width/--height/--crop/--fit: sizes")
struct ResizeSizeTests {
    /// The size of the GIF made from one `w`×`h` frame with `args`.
    func outputSize(_ w: Int, _ h: Int, _ args: [String]) throws -> (Int, Int) {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png"], width: w, height: h), in: dir)
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", frames[0].path, "-o", out.path] + args)
            #expect(r.status == 0, "\(r.stderrText)")
            let gif = try Pillow.decode(out)
            return (gif.width, gif.height)
        }
    }

    @Test("--width 480 of 1000x333 is 480x160; --height 1 and odd sizes work; --crop then --scale")
    func sizes() throws {
        #expect(try outputSize(1000, 333, ["--width", "480"]) == (480, 160))
        #expect(try outputSize(1280, 720, ["--width", "480"]) == (480, 270))
        #expect(try outputSize(99, 51, ["--height", "1"]) == (2, 1))
        #expect(try outputSize(99, 51, ["--width", "33", "--height", "7", "--fit", "stretch"]) == (33, 7))
        #expect(try outputSize(99, 51, ["--width", "40", "--height", "40"]) == (40, 40))
        #expect(try outputSize(100, 80, ["--crop", "50x40+10+20", "--scale", "0.5"]) == (25, 20))
        #expect(try outputSize(3, 3, ["--scale", "0.1"]) == (1, 1))
    }

    @Test("--fit contain pads with transparency: the bands beside the picture are transparent in Pillow's decode")
    func containPads() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                [Pillow.Frame("a.png", width: 40, height: 20, color: [200, 40, 40, 255])], in: dir)
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run(["encode", frames[0].path, "-o", out.path, "--width", "20", "--height", "20"])
            #expect(r.status == 0, "\(r.stderrText)")
            // The 20x10 picture sits centered: rows 0-4 and 15-19 transparent.
            let top = Pillow.Frame(
                "top.png", width: 20, height: 20, color: [0, 0, 0, 0], marks: [[0, 5, 20, 10, 200, 40, 40, 255]])
            let ref = try Pillow.makeFrames([top], in: dir.appendingPathComponent("ref"))
            let match = try Pillow.match(out, against: ref, sameIndex: true)
            #expect(match.frames.first?.psnr.first == 99.0, "\(match.frames.first?.psnr ?? [])")
        }
    }
}

@Suite("encode --frames/--reverse/--speed with --duplicate and --bounce: exact frames and delays")
struct FrameTimingTests {
    @Test(
        "--frames 1-6:2 --reverse --bounce --duplicate 2 --speed 1.5 --fps 10: frames 5,3,1,3, each 2/15 s, 53 cs in all"
    )
    func combined() throws {
        try withDistinctFrames(6) { folder, h in
            let (gif, _) = try encodeAndDecode([
                folder.path, "--frames", "1-6:2", "--reverse", "--bounce", "--duplicate", "2", "--speed", "1.5",
                "--fps", "10",
            ])
            #expect(gif.hashes == [h[4], h[2], h[0], h[2]])
            // Starts at k·2/15 s: 0, 13.3, 26.7, 40, 53.3 cs, rounded once each.
            #expect(gif.durations == [130, 140, 130, 130])
            #expect(gif.durations.reduce(0, +) == 530)
        }
    }

    @Test("--speed 0.5 of a GIF input doubles its own delays; --frames counts its frames as shown")
    func animatedInput() throws {
        try withDistinctFrames(5) { folder, h in
            try withTemporaryDirectory { dir in
                let first = dir.appendingPathComponent("in.gif")
                let r = try Throbber.run(["encode", folder.path, "-o", first.path, "--delay", "7"])
                #expect(r.status == 0, "\(r.stderrText)")
                let (gif, _) = try encodeAndDecode([first.path, "--frames", "2-4", "--speed", "0.5"])
                #expect(gif.hashes == [h[1], h[2], h[3]])
                #expect(gif.durations == [140, 140, 140])
            }
        }
    }

    @Test("--frames 3,1 with --speed 2 at 25 fps: 2 cs frames, in that order")
    func listAndSpeed() throws {
        try withDistinctFrames(3) { folder, h in
            let (gif, _) = try encodeAndDecode([folder.path, "--frames", "3,1", "--speed", "2"])
            #expect(gif.hashes == [h[2], h[0]])
            #expect(gif.durations == [20, 20])
        }
    }
}

@Suite("encode transforms: bad values exit 64 with the reason and write nothing")
struct ResizeErrorTests {
    @Test(
        "each bad value is refused before any output exists",
        arguments: [
            (["--crop", "20x20+0+0"], "--crop: 20x20+0+0 reaches outside the 8x8 frames"),
            (["--crop", "4x4+5+5"], "--crop: 4x4+5+5 reaches outside the 8x8 frames"),
            (["--crop", "axb"], "--crop expects WxH+X+Y"),
            (["--frames", "9"], "--frames: 9 selects no frame: there are 3 frames (1-3)"),
            (["--frames", "1-3:0"], "--frames expects ranges"),
            (["--width", "0"], "--width: must be 1…65535 pixels, got 0"),
            (["--height", "-3"], "--height: must be 1…65535 pixels, got -3"),
            (["--scale", "0"], "--scale: must be above 0"),
            (["--scale", "0.5", "--width", "4"], "--scale: give either a scale or a width and height, not both"),
            (["--fit", "fill"], "--fit must be contain, cover or stretch, got 'fill'"),
            (["--resize-filter", "cubic"], "--resize-filter must be lanczos, mitchell or nearest, got 'cubic'"),
            (["--speed", "0"], "--speed: must be above 0"),
            (["--speed", "3"], "--speed: 3 makes frames 1.33 cs long, but GIF needs at least 2 cs"),
        ] as [([String], String)])
    func refused(_ args: [String], _ message: String) throws {
        try withDistinctFrames(3) { folder, _ in
            try withTemporaryDirectory { dir in
                let out = dir.appendingPathComponent("out.gif")
                let r = try Throbber.run(["encode", folder.path, "-o", out.path] + args)
                #expect(r.status == 64, "\(r.status): \(r.stderrText)")
                #expect(r.stderrText.contains(message), "\(r.stderrText)")
                #expect(!FileManager.default.fileExists(atPath: out.path))
                #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "left-behind files")
            }
        }
    }

    @Test("--speed 3 at 25 fps names the fastest speed GIF can show: 2")
    func fastestSpeed() throws {
        try withDistinctFrames(2) { folder, _ in
            let r = try Throbber.run(["encode", folder.path, "-o", "-", "--speed", "3"])
            #expect(r.status == 64 && r.stderrText.contains("use 2 or less"), "\(r.stderrText)")
            let apng = try Throbber.run(["encode", folder.path, "-o", "-", "--format", "apng", "--speed", "3"])
            #expect(apng.status == 0, "APNG shows 1.33 cs frames: \(apng.stderrText)")
        }
    }
}
