import Foundation
import TestSupport
import Testing

/// `throbber encode|render|preset` writing APNG, and reading animated GIF and
/// APNG, checked from outside: apng_chunks.py (struct + zlib) and pngcheck
/// for the structure, anim_reference.py (own APNG spec decoder, own GIF
/// decoder with browser compositing, Pillow, ffmpeg) for what is shown.
@Suite("APNG command line", .tags(.slow))
struct APNGCLITests {
    static func fixture(_ relative: String) throws -> URL { try Fixtures.url(relative) }

    // MARK: Choosing the format

    @Test("encode: the format comes from the extension (.png, .apng, .gif, any case) or --format", .needsFixtures)
    func encodeFormat() throws {
        try withTemporaryDirectory { dir in
            let frames = dir.appendingPathComponent("frames")
            try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png", "c.png"]), in: frames)
            let cases: [(name: String, extra: [String], apng: Bool)] = [
                ("o.png", [], true), ("o.apng", [], true), ("O2.PNG", [], true), ("o3.APNG", [], true),
                ("o.gif", [], false), ("O4.GIF", [], false),
                ("p.png", ["--format", "gif"], false), ("p.gif", ["--format", "apng"], true),
                ("p.bin", ["--format", "apng"], true), ("q.bin", ["--format", "gif"], false),
            ]
            for c in cases {
                let out = dir.appendingPathComponent(c.name)
                try APNGCLI.run(["encode", frames.path, "-o", out.path] + c.extra)
                if c.apng {
                    let s = try APNGCLI.expectAPNG(out)
                    #expect(s.actl?.numFrames == 3, "\(c.name)")
                } else {
                    #expect(APNGCLI.isGIF(out), "\(c.name) \(c.extra) should be a GIF")
                }
            }
            // Standard output: GIF unless --format apng.
            let apng = try APNGCLI.run(["encode", frames.path, "-o", "-", "--format", "apng"])
            let stdoutFile = dir.appendingPathComponent("stdout.png")
            try apng.stdout.write(to: stdoutFile)
            try APNGCLI.expectAPNG(stdoutFile)
            let gif = try APNGCLI.run(["encode", frames.path, "-o", "-"])
            #expect(gif.stdout.starts(with: Array("GIF89a".utf8)))
        }
    }

    @Test("render and preset: the format comes from the extension, --format, or the config's output list")
    func renderAndPresetFormat() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(APNGCLI.stepConfig, to: dir, as: "step.json")
            for (prefix, command) in [("r", ["render", config.path]), ("p", ["preset", "spinner"])] {
                for (name, extra, apng) in [
                    ("\(prefix).png", [String](), true), ("\(prefix).apng", [], true), ("\(prefix).gif", [], false),
                    ("\(prefix)2.png", ["--format", "gif"], false), ("\(prefix)2.gif", ["--format", "apng"], true),
                ] {
                    let out = dir.appendingPathComponent(name)
                    try APNGCLI.run(command + ["-o", out.path] + extra)
                    if apng { try APNGCLI.expectAPNG(out) } else { #expect(APNGCLI.isGIF(out), "\(name)") }
                }
            }
            // A config listing several outputs: each in its own format.
            let a = dir.appendingPathComponent("multi-a.png")
            let b = dir.appendingPathComponent("multi-b.gif")
            let c = dir.appendingPathComponent("multi-c.dat")
            var text = APNGCLI.stepConfig
            text.removeLast()  // the closing brace
            text +=
                ", \"output\": [{\"path\": \"\(a.path)\"}, {\"path\": \"\(b.path)\"}, {\"path\": \"\(c.path)\", \"format\": \"apng\"}]}"
            let multi = try SceneCLI.write(text, to: dir, as: "multi.json")
            try APNGCLI.run(["render", multi.path])
            try APNGCLI.expectAPNG(a)
            #expect(APNGCLI.isGIF(b))
            try APNGCLI.expectAPNG(c)
        }
    }

    @Test("an unknown extension, --format or --compression is a usage error (exit 64) that says what to do")
    func formatUsageErrors() throws {
        try withTemporaryDirectory { dir in
            let frames = dir.appendingPathComponent("frames")
            try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: frames)
            let config = try SceneCLI.write(APNGCLI.stepConfig, to: dir, as: "step.json")
            let cases: [([String], [String])] = [
                (["encode", frames.path, "-o", dir.appendingPathComponent("o.avif").path], [".avif", "--format"]),
                (
                    ["encode", frames.path, "-o", dir.appendingPathComponent("o.png").path, "--format", "avif"],
                    ["--format", "avif", "webp"]
                ),
                (
                    ["encode", frames.path, "-o", dir.appendingPathComponent("o.png").path, "--compression", "medium"],
                    ["--compression", "medium"]
                ),
                (["render", config.path, "-o", dir.appendingPathComponent("o.tiff").path], [".tiff"]),
                (["preset", "spinner", "-o", dir.appendingPathComponent("o.png").path, "--format", "bmp"], ["bmp"]),
            ]
            for (args, mentions) in cases {
                let r = try Throbber.run(args)
                #expect(r.status == 64, "\(args): exit \(r.status), \(r.stderrText)")
                for m in mentions {
                    #expect(r.stderrText.contains(m), "\(args): stderr should mention \(m): \(r.stderrText)")
                }
            }
            let left = try listing(dir).sorted()
            #expect(left == ["frames", "step.json"], "nothing else is written: \(left)")
        }
    }

    // MARK: Delays and loop

    @Test(
        "encode writes exact delays: --fps 30 → 1/30, --fps 4 → 1/4, --fps 60 → 1/60 (too fast for GIF, fine for APNG), --delay 7 → 7/100"
    )
    func encodeDelays() throws {
        try withTemporaryDirectory { dir in
            let frames = dir.appendingPathComponent("frames")
            try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png", "c.png", "d.png"]), in: frames)
            for (args, num, den) in [
                (["--fps", "30"], 1, 30), (["--fps", "4"], 1, 4), (["--fps", "60"], 1, 60),
                (["--fps", "30000/1001"], 1001, 30000), (["--delay", "7"], 7, 100),
            ] {
                let out = dir.appendingPathComponent("o.png")
                try APNGCLI.run(["encode", frames.path, "-o", out.path] + args)
                let s = try APNGCLI.expectAPNG(out)
                #expect(s.fctl.count == 4)
                for f in s.fctl {
                    #expect(
                        f.delayNum == num && f.delayDen == den,
                        "\(args): fcTL \(f.seq) says \(f.delayNum)/\(f.delayDen)")
                }
                let ffmpeg = try APNGCLI.decode("ffmpeg", out)
                for d in ffmpeg.seconds.prefix(3) {
                    #expect(
                        abs((d ?? -1) - Double(num) / Double(den)) < 1e-4,
                        "\(args): ffprobe says \(String(describing: d)) s")
                }
            }
        }
    }

    @Test(
        "render: a 0.25 s step at 20 fps is written as 1/4 s frames (identical frames merged, no centisecond rounding)")
    func renderStepDelays() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(APNGCLI.stepConfig, to: dir, as: "step.json")
            let out = dir.appendingPathComponent("step.png")
            try APNGCLI.run(["render", config.path, "-o", out.path])
            let s = try APNGCLI.expectAPNG(out)
            #expect(s.fctl.count == 6, "\(s.fctl.count) frames")
            #expect(s.fctl.allSatisfy { $0.delayNum == 1 && $0.delayDen == 4 }, "\(s.fctl.map(\.delay))")
            let pillow = try APNGCLI.decode("pillow", out)
            #expect(pillow.seconds.allSatisfy { abs(($0 ?? -1) - 0.25) < 1e-9 }, "\(pillow.seconds)")
            // The GIF of the same config: 25 cs each; same pictures.
            let gif = dir.appendingPathComponent("step.gif")
            try APNGCLI.run(["render", config.path, "-o", gif.path])
            let g = try Pillow.decode(gif)
            #expect(g.durations == Array(repeating: 250, count: 6))
        }
    }

    @Test(
        "presets: every delay is a whole number of frames at the preset's fps, and the cycle matches the GIF's",
        arguments: [["spinner", "--fps", "30"], ["ease"], ["dots"]])
    func presetDelays(_ args: [String]) throws {
        try withTemporaryDirectory { dir in
            let config = try Throbber.run(["preset"] + args + ["--print-config"])
            let json = try JSONSerialization.jsonObject(with: config.stdout) as? [String: Any]
            let fps = try #require((json?["timing"] as? [String: Any])?["fps"] as? Int, "timing.fps of \(args)")
            let out = dir.appendingPathComponent("p.png")
            try APNGCLI.run(["preset"] + args + ["-o", out.path])
            let s = try APNGCLI.expectAPNG(out)
            #expect(s.fctl.allSatisfy { fps % $0.delay.den == 0 }, "\(args) at \(fps) fps: \(s.fctl.map(\.delay))")
            let gif = dir.appendingPathComponent("p.gif")
            try APNGCLI.run(["preset"] + args + ["-o", gif.path])
            let total = s.fctl.map(\.delay).reduce(APNGCLI.Fraction(0, 1), +)
            let gifMs = try Pillow.decode(gif).durations.reduce(0, +)
            #expect(abs(total.seconds * 1000 - Double(gifMs)) < 0.5, "APNG cycle \(total) s, GIF cycle \(gifMs) ms")
        }
    }

    @Test(
        "--loop 0 → num_plays 0, --loop 3 → num_plays 3, default 0; animated input keeps its loop count unless --loop",
        .needsFixtures)
    func loops() throws {
        try withTemporaryDirectory { dir in
            let frames = dir.appendingPathComponent("frames")
            try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: frames)
            let out = dir.appendingPathComponent("o.png")
            for (extra, plays) in [
                (["--loop", "0"], 0), (["--loop", "3"], 3), ([String](), 0), (["--loop", "1"], 1),
            ] {
                try APNGCLI.run(["encode", frames.path, "-o", out.path] + extra)
                let s = try APNGCLI.expectAPNG(out)
                #expect(s.actl?.numPlays == plays, "\(extra): num_plays \(String(describing: s.actl?.numPlays))")
                #expect(try APNGCLI.decode("pillow", out).loop == plays)
            }
            // GIF input: NETSCAPE n means n + 1 plays; no extension means once.
            for (gif, netscape) in [
                ("gif-image-gif/moon_impact.gif", 10 as Int?), ("gif-giflib/welcome2.gif", 1000),
                ("gif-pillow/dispose_prev.gif", 0), ("gif-pillow/dispose_prev_first_frame.gif", nil),
            ] {
                try APNGCLI.run(["encode", try Self.fixture(gif).path, "-o", out.path])
                let s = try APNGCLI.expectAPNG(out)
                #expect(
                    s.actl?.numPlays == AnimationFixtures.plays(netscape: netscape),
                    "\(gif): num_plays \(String(describing: s.actl?.numPlays))")
                try APNGCLI.run(["encode", try Self.fixture(gif).path, "-o", out.path, "--loop", "3"])
                #expect(try APNGCLI.expectAPNG(out).actl?.numPlays == 3, "\(gif) --loop 3")
            }
            // APNG input keeps num_plays.
            for (apng, plays) in [
                ("apng-apngkit/spec/030.png", 0), ("apng-apngkit/spec/031.png", 1), ("apng-apngkit/spec/032.png", 2),
            ] {
                try APNGCLI.run(["encode", try Self.fixture(apng).path, "-o", out.path])
                #expect(try APNGCLI.expectAPNG(out).actl?.numPlays == plays, "\(apng)")
            }
        }
    }

    // MARK: Pixels

    @Test(
        "default APNG is lossless: RGBA frames (partial alpha) come back exactly from ffmpeg and the spec decoder",
        .needsFixtures)
    func losslessRGBA() throws {
        try withTemporaryDirectory { dir in
            let inputs = try (1...12).map { try Fixtures.mjNormalized($0) }
            let folder = dir.appendingPathComponent("in")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (i, url) in inputs.enumerated() {
                try FileManager.default.copyItem(
                    at: url, to: folder.appendingPathComponent(String(format: "f%02d.png", i)))
            }
            let out = dir.appendingPathComponent("o.png")
            try APNGCLI.run(["encode", folder.path, "-o", out.path, "--fps", "12"])
            let s = try APNGCLI.expectAPNG(out)
            #expect(s.ihdr?.color == 6 && s.ihdr?.depth == 8)
            let expected = try APNGCLI.stills(inputs)
            let shown = APNGCLI.shown(expected.frames, Array(repeating: APNGCLI.Fraction(1, 12), count: 12))
            for mode in ["spec", "ffmpeg"] {
                let d = try APNGCLI.decode(mode, out)
                APNGCLI.expectSameShow(APNGCLI.shown(d.frames, s.fctl.map(\.delay)), shown, width: 100, mode)
            }
        }
    }

    @Test(
        "default APNG of opaque frames with more than 256 colors is RGB (color type 2) with a tRNS key, and lossless")
    func losslessRGB() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("in")
            // 300 one-pixel marks of distinct colors: too many for a palette.
            let many = (0..<300).map { k in [k % 24, k / 24, 1, 1, k % 256, k / 256 * 128, k * 7 % 256, 255] }
            let specs = Pillow.distinctFrames(["a.png", "b.png", "c.png"], width: 24, height: 16).map {
                var f = $0
                f.mode = "RGB"
                f.marks = many + f.marks
                return f
            }
            let urls = try Pillow.makeFrames(specs, in: folder)
            let out = dir.appendingPathComponent("o.png")
            try APNGCLI.run(["encode", folder.path, "-o", out.path])
            let s = try APNGCLI.expectAPNG(out)
            // The key (tRNS, three 16-bit samples) is a color no frame has.
            #expect(s.ihdr?.color == 2 && s.trns?.count == 6 && s.plteEntries == nil, "\(String(describing: s.ihdr))")
            let expected = try APNGCLI.stills(urls)
            let key = (s.trns ?? []).enumerated().filter { $0.offset % 2 == 1 }.map { UInt8($0.element) }
            for frame in expected.frames {
                #expect(!stride(from: 0, to: frame.count, by: 4).contains { Array(frame[$0..<($0 + 3)]) == key })
            }
            for mode in ["spec", "ffmpeg", "pillow"] {
                #expect(try APNGCLI.decode(mode, out).frames == expected.frames, "\(mode)")
            }
        }
    }

    @Test(
        "--colors N writes a palette APNG (PLTE + tRNS): color type 3, at most N colors, transparency kept, PSNR near an independent quantizer",
        .needsFixtures, arguments: [16, 64])
    func paletteColors(_ colors: Int) throws {
        try withTemporaryDirectory { dir in
            let input = try Self.fixture("coding-ios/loading_monkey@2x.gif")
            let out = dir.appendingPathComponent("o.png")
            try APNGCLI.run(["encode", input.path, "-o", out.path, "--colors", "\(colors)"])
            let s = try APNGCLI.expectAPNG(out)
            // The fewest bits that index every PLTE entry.
            let entries = s.plteEntries ?? 999
            let depth = [1, 2, 4, 8].first { entries <= 1 << $0 }
            #expect(s.ihdr?.color == 3 && s.ihdr?.depth == depth, "\(String(describing: s.ihdr)), \(entries) entries")
            #expect(entries <= colors, "PLTE \(entries) entries")
            #expect(s.trns?.contains(0) == true, "tRNS \(String(describing: s.trns))")
            let source = try APNGCLI.decode("gifspec", input)
            // The independent quantizer's PSNR per source frame, once for all decoders.
            let floors = try source.frames.map {
                try APNGCLI.quantizeBaseline($0, width: 200, height: 200, colors: colors) - 1.5
            }
            for mode in ["spec", "ffmpeg", "pillow"] {
                let d = try APNGCLI.decode(mode, out)
                // Frame by frame along the timeline (the input has no identical neighbours to merge).
                #expect(d.frames.count == source.frames.count, "\(mode)")
                for (i, (px, ref)) in zip(d.frames, source.frames).enumerated() {
                    let alpha = stride(from: 3, to: px.count, by: 4).filter { px[$0] != ref[$0] }.count
                    #expect(alpha == 0, "\(mode) frame \(i): \(alpha) pixels with another alpha")
                    let floor = floors[i]
                    #expect(psnr(px, ref) >= floor, "\(mode) frame \(i): PSNR \(psnr(px, ref)) dB, floor \(floor) dB")
                }
            }
        }
    }

    @Test(
        "--compression fast, best and max all give valid, identical pictures; each is no larger than the one before",
        .needsFixtures)
    func compression() throws {
        try withTemporaryDirectory { dir in
            let folder = try Self.fixture("mjrefresh-dropdown_anim/normalized")
            var sizes: [String: Int] = [:]
            var pictures: [String: [[UInt8]]] = [:]
            for effort in ["fast", "best", "max"] {
                let out = dir.appendingPathComponent("\(effort).png")
                try APNGCLI.run(["encode", folder.path, "-o", out.path, "--compression", effort])
                try APNGCLI.expectAPNG(out)
                sizes[effort] = try Data(contentsOf: out).count
                pictures[effort] = try APNGCLI.decode("ffmpeg", out).frames
            }
            #expect(sizes["best"]! <= sizes["fast"]!, "best \(sizes["best"]!) bytes, fast \(sizes["fast"]!) bytes")
            #expect(sizes["max"]! <= sizes["best"]!, "max \(sizes["max"]!) bytes, best \(sizes["best"]!) bytes")
            #expect(pictures["best"] == pictures["fast"] && pictures["max"] == pictures["best"])
            let urls = try (1...60).map { try Fixtures.mjNormalized($0) }
            let expected = try APNGCLI.stills(urls).frames
            let best = pictures["best"]!
            // Identical neighbours may be merged; every input appears in order.
            var j = 0
            for (i, f) in expected.enumerated() {
                if j < best.count && best[j] == f { continue }
                j += 1
                if j >= best.count || best[j] != f {
                    Issue.record("input frame \(i) is not shown in order")
                    break
                }
            }
        }
    }
}
