import Foundation
import TestSupport
import Testing

/// The same conformance checks on frame folders made by ffmpeg's lavfi test
/// sources (small, so the suite stays fast), encoded with
/// `throbber encode DIR -o x.png|x.gif|x.webp --fps 25`. What we meant is the
/// source PNGs themselves (Pillow's decode), 1/25 s each.
@Suite(
    "Conformance: ffmpeg test-source corpora decode the same in Pillow, ffmpeg, ImageMagick and Chromium", .tags(.slow))
struct ConformanceCorpusTests {
    struct Corpus: CustomTestStringConvertible, Sendable {
        var name: String
        /// ffmpeg's inputs and filters (lavfi sources), before -frames:v.
        var ffmpeg: [String]
        var frames: Int
        /// Expected: the GIF is exact (every frame ≤ 256 colors after the alpha cut).
        var fewColors: Bool
        /// Expected APNG color type: 0 = gray, 2 = RGB (all opaque), 3 =
        /// palette, 4 = gray+alpha, 6 = RGBA.
        var colorType: Int
        /// Expected APNG bit depth.
        var bitDepth = 8
        /// Expected frames in both files (identical neighbours merged).
        var outputFrames: Int
        /// The APNG must use blend OVER for some frame (so decoders composite it).
        var usesOver = false
        var testDescription: String { name }

        init(
            _ name: String, _ source: String, filter: String? = nil, frames: Int, fewColors: Bool, colorType: Int,
            bitDepth: Int = 8, outputFrames: Int? = nil
        ) {
            self.init(
                name, ffmpeg: ["-f", "lavfi", "-i", source] + (filter.map { ["-vf", $0] } ?? []), frames: frames,
                fewColors: fewColors, colorType: colorType, outputFrames: outputFrames)
            self.bitDepth = bitDepth
        }

        init(
            _ name: String, ffmpeg: [String], frames: Int, fewColors: Bool, colorType: Int, outputFrames: Int? = nil,
            usesOver: Bool = false
        ) {
            self.name = name
            self.ffmpeg = ffmpeg
            self.frames = frames
            self.fewColors = fewColors
            self.colorType = colorType
            self.outputFrames = outputFrames ?? frames
            self.usesOver = usesOver
        }
    }

    static let corpora =
        [
            // Many colors: the GIF is quantized by libimagequant.
            Corpus("testsrc2", "testsrc2=size=160x120:rate=25", frames: 25, fewColors: false, colorType: 2),
            Corpus("mandelbrot", "mandelbrot=size=160x120:rate=25", frames: 20, fewColors: false, colorType: 2),
            // Two colors, black and white: the GIF must be exact, the APNG a
            // 1-bit palette (ffmpeg 5.1 cannot decode 1-bit gray APNG).
            Corpus(
                "life", "life=size=160x120:rate=25:seed=7:ratio=0.2:mold=10", frames: 30, fewColors: true, colorType: 3,
                bitDepth: 1),
            // Alpha from 0 to 255 across the width: APNG keeps it exactly; GIF
            // cuts at 50% (the opaque half has few enough colors to be exact).
            Corpus(
                "testsrc2-alpha", "testsrc2=size=120x90:rate=25",
                filter: "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255*X/W'",
                frames: 12, fewColors: true, colorType: 6),
            // A still testsrc2 picture (one half-transparent corner, so RGBA) with
            // two opaque boxes moving in opposite corners: the changed rectangle
            // is mostly unchanged, so Throbber draws it with blend OVER.
            Corpus(
                "testsrc2-over",
                ffmpeg: [
                    "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25",
                    "-f", "lavfi", "-i", "color=c=red:s=6x6:r=25", "-f", "lavfi", "-i", "color=c=yellow:s=6x6:r=25",
                    "-filter_complex",
                    "[0]loop=loop=-1:size=1:start=0[bg];[bg][1]overlay=x=4+4*n:y=4[a];[a][2]overlay=x=150-4*n:y=110,"
                        + "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(X,2)*lt(Y,2),128,255)'",
                ], frames: 12, fewColors: false, colorType: 6, usesOver: true),
            // A still: ten identical frames become one frame of 0.4 s. Its
            // SMPTE_BARS_COLORS colors make a 4-bit palette.
            Corpus(
                "smptebars-still", "smptebars=size=160x120:rate=25", frames: 10, fewColors: true, colorType: 3,
                bitDepth: 4, outputFrames: 1),
        ] + layouts

    /// One corpus for each exact layout the APNG encoder picks (issue #16):
    /// the PNG color type and bit depth are decided by the colors in all
    /// frames together.
    static let layouts = [
        // Two colors, not gray: a 1-bit palette (a third, transparent entry
        // would need 2 bits, so there is none).
        Corpus(
            "palette-1bit", "life=size=96x72:rate=25:seed=42:ratio=0.3:life_color=#ff8000:death_color=#004080",
            frames: 10, fewColors: true, colorType: 3, bitDepth: 1),
        // Three colors and the transparent entry for blend OVER.
        Corpus(
            "palette-2bit", "life=size=96x72:rate=25:seed=42:ratio=0.3:life_color=#ff8000:death_color=#004080",
            filter: "drawbox=x=0:y=0:w=12:h=12:color=#20c020:t=fill", frames: 10, fewColors: true, colorType: 3,
            bitDepth: 2),
        // Each channel at 0 or 255: at most 8 colors.
        Corpus(
            "palette-4bit", "testsrc2=size=96x72:rate=25",
            filter: "lutrgb=r=255*gt(val\\,127):g=255*gt(val\\,127):b=255*gt(val\\,127)",
            frames: 10, fewColors: true, colorType: 3, bitDepth: 4),
        // Channels cut to 2, 2 and 3 bits: up to 128 colors.
        Corpus(
            "palette-8bit", "testsrc2=size=96x72:rate=25",
            filter: "lutrgb=r=bitand(val\\,192):g=bitand(val\\,192):b=bitand(val\\,224)",
            frames: 10, fewColors: true, colorType: 3, bitDepth: 8),
        // At most 8 colors at two visible alpha levels and clear (14 in
        // all as viewers show them): a 4-bit palette with tRNS.
        Corpus(
            "palette-alpha", "testsrc2=size=96x72:rate=25",
            filter: "lutrgb=r=255*gt(val\\,127):g=255*gt(val\\,127):b=255*gt(val\\,127),format=rgba,"
                + "geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(X,W/3),0,if(lt(X,2*W/3),128,255))'",
            frames: 10, fewColors: true, colorType: 3, bitDepth: 4),
        // Gray levels that are multiples of 85, 17 and any: 2, 4 and 8 bits.
        Corpus(
            "gray-2bit", "testsrc2=size=96x72:rate=25", filter: "format=gray,lut=c0=85*trunc(val/64)", frames: 10,
            fewColors: true, colorType: 0, bitDepth: 2),
        Corpus(
            "gray-4bit", "testsrc2=size=96x72:rate=25", filter: "format=gray,lut=c0=17*trunc(val/16)", frames: 10,
            fewColors: true, colorType: 0, bitDepth: 4),
        Corpus(
            "gray-8bit", "testsrc2=size=96x72:rate=25", filter: "format=gray", frames: 10, fewColors: true,
            colorType: 0, bitDepth: 8),
        // Gray with an alpha ramp: more than 256 gray-alpha pairs.
        Corpus(
            "gray-alpha", "testsrc2=size=96x72:rate=25",
            filter: "format=gray,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255*X/W'", frames: 10,
            fewColors: true, colorType: 4, bitDepth: 8),
    ]

    static func generate(_ c: Corpus, in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let args =
            ["-v", "error", "-nostdin"] + c.ffmpeg + [
                "-frames:v", String(c.frames), folder.appendingPathComponent("%04d.png").path,
            ]
        let r = try Command.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"), args)
        guard r.status == 0 else { throw HarnessError("ffmpeg \(args.joined(separator: " ")) failed: \(r.stderrText)") }
        let made = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
        guard made.count == c.frames else {
            throw HarnessError("ffmpeg wrote \(made.count) frames for \(c.name), wanted \(c.frames)")
        }
    }

    /// Generates the corpus `name` into a fresh temporary folder and runs
    /// `body` with it, the folder of its PNG frames and the temporary
    /// folder (for outputs).
    static func withCorpus(_ name: String, _ body: (Corpus, URL, URL) throws -> Void) throws {
        let c = try #require(corpora.first { $0.name == name }, "no corpus named \(name)")
        try withTemporaryDirectory { dir in
            let frames = dir.appendingPathComponent(c.name)
            try generate(c, in: frames)
            try body(c, frames, dir)
        }
    }

    @Test(
        "encode --fps 25 to APNG, GIF and WebP: APNG and WebP exact to the source PNGs; GIF exact (few colors) or within the PSNR floor; delays match",
        arguments: corpora)
    func corpus(_ c: Corpus) throws {
        try withTemporaryDirectory { dir in
            let frames = dir.appendingPathComponent(c.name)
            try Self.generate(c, in: frames)
            let apng = dir.appendingPathComponent("\(c.name).png")
            let gif = dir.appendingPathComponent("\(c.name).gif")
            let webp = dir.appendingPathComponent("\(c.name).webp")
            try Conformance.make(["encode", frames.path, "--fps", "25"], outputs: [apng, gif, webp])
            let report = try Conformance.check(apng: apng, gif: gif, webp: webp, reference: .folder(frames, fps: "25"))
            Conformance.expectConforms(report, c.name, webp: true)
            #expect(report.sources == c.frames)
            if c.usesOver {
                #expect(
                    (report.apng?.blendOver ?? 0) > 0,
                    "\(c.name): no APNG frame uses blend OVER; the corpus no longer tests it")
            }
            #expect(
                report.apng?.colorType == c.colorType && report.apng?.bitDepth == c.bitDepth,
                "\(c.name): APNG color type \(report.apng?.colorType ?? -1), \(report.apng?.bitDepth ?? -1)-bit")
            #expect(
                report.gif?.lossless == c.fewColors,
                "\(c.name): GIF reference has up to \(report.gif?.mostColors ?? -1) colors a frame; expected \(c.fewColors ? "≤" : ">") 256"
            )
            #expect(
                report.apng?.frames == c.outputFrames && report.gif?.frames == c.outputFrames
                    && report.webp?.frames == c.outputFrames,
                "\(c.name): \(report.apng?.frames ?? -1) APNG, \(report.gif?.frames ?? -1) GIF and \(report.webp?.frames ?? -1) WebP frames, expected \(c.outputFrames)"
            )
            // Exact time: the APNG's fcTL delays add up to frames/25 s; the
            // GIF delays intended add up to 4 cs a frame (conformance.py has
            // checked that every decoder reports exactly these).
            let apngTotal = (report.apng?.delays ?? []).map(Self.seconds).reduce(0, +)
            #expect(
                abs(apngTotal - Double(c.frames) / 25) < 1e-9, "\(c.name): APNG delays \(report.apng?.delays ?? [])")
            #expect(
                report.gif?.delaysCs?.reduce(0, +) == c.frames * 4,
                "\(c.name): GIF delays \(report.gif?.delaysCs ?? [])")
            // WebP: whole milliseconds, 40 a source frame (a one-frame file
            // is a still WebP, which stores no duration; see conformance.py).
            #expect(
                report.webp?.delaysMs?.reduce(0, +) == c.frames * 40,
                "\(c.name): WebP delays \(report.webp?.delaysMs ?? [])")
            if c.usesOver {
                #expect(
                    (report.webp?.blendOver ?? 0) > 0,
                    "\(c.name): no WebP frame uses blend OVER; the corpus no longer tests it")
            }
        }
    }

    /// Lossy WebP (`--quality`, VP8 with lossless alpha): each with the
    /// worst-frame PSNR every decoder must reach, a little under what was
    /// measured (libwebp's decoders; ffmpeg's own VP8 decoder and YUV
    /// conversion were higher on all four): testsrc2 25.2 dB, mandelbrot
    /// 23.5, testsrc2-alpha 25.1, testsrc2-over 25.7. Low because 4:2:0
    /// chroma blurs these test patterns' saturated one-pixel edges: cwebp
    /// -q 75 gives the same 26.0 dB on a testsrc2 frame, and quality 90
    /// hardly more.
    /// Then palette WebPs (`--colors`: quantized frames coded lossless, so
    /// every decoder must give the same pixels): measured 41.2 dB on
    /// mandelbrot at 256 colors, and 23.4 dB on testsrc2-alpha at 64, whose
    /// alpha ramps from 0 to 255 across the frame: libimagequant weighs a
    /// color by its alpha, so nearly clear pixels get coarse colors that
    /// hardly show but count fully in this RGBA PSNR.
    static let webpLossyRuns: [(corpus: String, options: [String], floor: Double)] = [
        ("testsrc2", ["--quality", "75"], 24), ("mandelbrot", ["--quality", "75"], 22),
        ("testsrc2-alpha", ["--quality", "75"], 24), ("testsrc2-over", ["--quality", "75"], 24.5),
        ("testsrc2-alpha", ["--colors", "64"], 22), ("mandelbrot", ["--colors", "256"], 40),
    ]

    @Test(
        "encode --quality or --colors to WebP: frames read by Pillow, Chromium, dwebp and ffmpeg within the PSNR floor, transparency exact, delays in ms",
        arguments: webpLossyRuns.indices)
    func webpLossy(_ run: Int) throws {
        let (name, options, floor) = Self.webpLossyRuns[run]
        try Self.withCorpus(name) { c, frames, dir in
            let webp = dir.appendingPathComponent("\(c.name).webp")
            try Conformance.make(["encode", frames.path, "--fps", "25"] + options, outputs: [webp])
            let report = try Conformance.check(
                apng: nil, gif: nil, webp: webp, reference: .folder(frames, fps: "25"), psnrFloor: floor,
                webpLossy: true)
            let what = "\(c.name) \(options.joined(separator: " ")) WebP"
            Conformance.expectConforms(
                report, what, apng: false, gif: false, webp: true, webpLossy: true, psnrFloor: floor)
            let palette = options.contains("--colors")
            #expect(
                report.webp?.lossyFrames == (palette ? 0 : report.webp?.frames),
                "\(what): \(report.webp?.lossyFrames ?? -1) of \(report.webp?.frames ?? -1) frames lossy (VP8)")
            #expect(
                report.webp?.delaysMs?.reduce(0, +) == c.frames * 40, "\(what): delays \(report.webp?.delaysMs ?? [])")
        }
    }

    /// Lossy LZW on top of each corpus's default encode, and with
    /// quantizing options: every decoder must still read the same frames.
    /// Each with the worst-frame PSNR it must reach, a little under what
    /// was measured with the stronger levels before --lossy followed
    /// gifsicle's scale (which only raise PSNR now): testsrc2 lossy 80
    /// 35.4 dB, mandelbrot lossy 200 (the most) 20.9, life unchanged (2
    /// colors), testsrc2-alpha 36.2, testsrc2-over 41.2, testsrc2 with
    /// quality 70 and 64 colors 37.8.
    static let lossyRuns: [(corpus: String, options: [String], floor: Double)] = [
        ("testsrc2", ["--lossy", "80"], 33), ("mandelbrot", ["--lossy", "200"], 19), ("life", ["--lossy", "80"], 90),
        ("testsrc2-alpha", ["--lossy", "120"], 33), ("testsrc2-over", ["--lossy", "60"], 38),
        ("testsrc2", ["--lossy", "40", "--quality", "70", "--colors", "64", "--dither", "0.5"], 35),
    ]

    @Test(
        "encode --lossy to GIF: Pillow, ffmpeg, ImageMagick and Chromium read the same frames, within the lossy PSNR floor, transparency exact",
        arguments: lossyRuns.indices)
    func lossy(_ run: Int) throws {
        let (name, options, floor) = Self.lossyRuns[run]
        try Self.withCorpus(name) { c, frames, dir in
            let gif = dir.appendingPathComponent("\(c.name).gif")
            let exact = dir.appendingPathComponent("\(c.name)-exact.gif")
            try Conformance.make(["encode", frames.path, "--fps", "25"] + options, outputs: [gif])
            try Conformance.make(["encode", frames.path, "--fps", "25"] + options.dropFirst(2), outputs: [exact])
            let report = try Conformance.check(
                apng: nil, gif: gif, reference: .folder(frames, fps: "25"), psnrFloor: floor, lossy: true)
            let what = "\(c.name) \(options.joined(separator: " "))"
            Conformance.expectConforms(report, what, apng: false, psnrFloor: floor)
            #expect(report.gif?.frames == c.outputFrames, "\(what): \(report.gif?.frames ?? -1) GIF frames")
            #expect(report.gif?.delaysCs?.reduce(0, +) == c.frames * 4, "\(what): GIF delays")
            let sizes = try [gif, exact].map {
                try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int
            }
            if c.name == "life" {
                // Black and white are far apart: nothing may change.
                #expect(sizes[0] == sizes[1], "\(what): \(sizes) bytes with and without --lossy")
            } else {
                #expect((sizes[0] ?? .max) < (sizes[1] ?? 0), "\(what): \(sizes) bytes with and without --lossy")
            }
        }
    }

    static func seconds(_ fraction: String) -> Double {
        let parts = fraction.split(separator: "/").compactMap { Double($0) }
        return parts.count == 2 ? parts[0] / parts[1] : parts.first ?? .nan
    }
}
