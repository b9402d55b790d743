import Foundation
import TestSupport
import Testing

@testable import ThrobberCodecs
@testable import ThrobberEncode
@testable import ThrobberKit

/// Lossy LZW (`--lossy`): the index stream is rewritten so that giflib's own
/// encoder finds the simulated matches. Checked against an independent
/// reading of giflib's output (Tests/tools/gif_lzw_codes.py), and on
/// encoded animations decoded by giflib and Pillow.
@Suite("Lossy LZW", .tags(.slow))
struct LossyLZWTests {
    /// A palette of `count` colors spread over the RGB cube.
    static func palette(_ count: Int) -> [UInt32] {
        (0..<count).map { i in
            let r = UInt32(i * 97 % 256)
            let g = UInt32(i * 53 % 256)
            let b = UInt32(i * 191 % 256)
            return r | g << 8 | b << 16 | 0xFF00_0000
        }
    }

    /// Each source pixel's nearest palette entry (plain RGB distance, not
    /// the one under test).
    static func nearest(_ sources: [UInt32], _ palette: [UInt32]) -> [UInt8] {
        sources.map { s in
            var best = 0
            var bestD = Int.max
            for (i, p) in palette.enumerated() {
                var d = 0
                for shift in [0, 8, 16] {
                    let e = Int(s >> UInt32(shift) & 0xFF) - Int(p >> UInt32(shift) & 0xFF)
                    d += e * e
                }
                if d < bestD { (best, bestD) = (i, d) }
            }
            return UInt8(best)
        }
    }

    struct Counted: Decodable {
        struct Image: Decodable { var codes: Int, bytes: Int, pixels: Int }
        var images: [Image]
    }

    /// Writes one frame with giflib's own LZW coder and counts its codes
    /// independently.
    static func giflibCodes(_ indices: [UInt8], width: Int, height: Int, palette: [UInt32], transparent: Int?)
        throws -> Counted.Image
    {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("frame.gif").path
            // giflib's own coder: the simulation follows it.
            try LZWEncoderTests.writeWithGiflib(
                indices, width: width, height: height, palette: palette, transparent: transparent, to: path)
            let counted = try JSONDecoder().decode(Counted.self, from: ToolRunner.python("gif_lzw_codes.py", [path]))
            return try #require(counted.images.first)
        }
    }

    /// Smooth color with noise: long strings are rare without loss.
    static func sources(width: Int, height: Int, noise: Int, seed: UInt64) -> [UInt32] {
        var random = SeededRandom(seed: seed)
        return (0..<(width * height)).map { i in
            let x = i % width
            let y = i / width
            func channel(_ v: Int) -> UInt32 {
                UInt32(max(0, min(255, v + Int(random.next() % UInt64(2 * noise + 1)) - noise)))
            }
            return channel(x * 255 / width) | channel(y * 255 / height) << 8 | channel((x + y) % 256) << 16
                | 0xFF00_0000
        }
    }

    @Test(
        "giflib writes exactly the codes and bytes the simulation predicts, with and without loss, across clears and code sizes",
        arguments: [(2, 0), (16, 0), (16, 80), (256, 0), (256, 40), (256, 200), (7, 120)])
    func giflibFollowsTheSimulation(colors: Int, level: Int) throws {
        // 320×200 = 64,000 pixels: several dictionary clears.
        let (width, height) = (320, 200)
        let palette = Self.palette(colors)
        let sources = Self.sources(width: width, height: height, noise: 12, seed: UInt64(colors))
        var indices = Self.nearest(sources, palette)
        var lossy = LossyLZW(level: level)
        lossy.rewrite(&indices, sources: sources, palette: palette, transparent: nil)
        let counted = try Self.giflibCodes(indices, width: width, height: height, palette: palette, transparent: nil)
        #expect(counted.pixels == width * height)
        #expect(counted.codes == lossy.codes, "giflib wrote \(counted.codes) codes, the simulation \(lossy.codes)")
        #expect(counted.bytes == lossy.imageDataBytes)
        // More codes than a dictionary holds: clears were followed too.
        if level == 0 && colors == 256 { #expect(counted.codes > 8192) }
    }

    @Test("loss shrinks the LZW data, more at higher levels, each pixel staying near its own source color")
    func shrinksWithinTolerance() throws {
        let (width, height) = (200, 150)
        let palette = Self.palette(256)
        let sources = Self.sources(width: width, height: height, noise: 6, seed: 9)
        let exact = Self.nearest(sources, palette)
        var sizes: [Int] = []
        // 256 colors spread over the cube are ~40 levels apart per axis, so
        // nearest entries are a redmean distance of roughly 1,500 apart:
        // lossy 50 (800) reaches few of them, 100 (1,600) and 200 (3,200) many.
        for level in [0, 50, 100, 200] {
            var indices = exact
            var lossy = LossyLZW(level: level)
            lossy.rewrite(&indices, sources: sources, palette: palette, transparent: nil)
            sizes.append(
                try Self.giflibCodes(indices, width: width, height: height, palette: palette, transparent: nil).bytes)
            // The tolerance is a redmean distance of 16·level: green weighs 4
            // and red and blue at least 2 (of 256ths: 512 + mean red, 767 −
            // mean red), so one channel alone may be off by at most
            // √(16·level/4) on green and √(16·level/2) on red or blue, plus 1
            // for the metric's rounding (or the nearest color's own error).
            for i in indices.indices where indices[i] != exact[i] {
                let s = sources[i]
                let p = palette[Int(indices[i])]
                let own = palette[Int(exact[i])]
                for (shift, weight) in [(0, 2.0), (8, 4.0), (16, 2.0)] {
                    let error = abs(Int(s >> UInt32(shift) & 0xFF) - Int(p >> UInt32(shift) & 0xFF))
                    let ownError = abs(Int(s >> UInt32(shift) & 0xFF) - Int(own >> UInt32(shift) & 0xFF))
                    #expect(
                        Double(error) <= max(Double(ownError), (16 * Double(level) / weight).squareRoot() + 1),
                        "level \(level) pixel \(i) channel \(shift / 8) off by \(error)")
                }
            }
        }
        #expect(sizes[1] <= sizes[0] && sizes[2] <= sizes[1] && sizes[3] <= sizes[2], "LZW bytes by level: \(sizes)")
        #expect(Double(sizes[3]) < 0.95 * Double(sizes[0]), "lossy 200 saves under 5%: \(sizes)")
    }

    @Test(
        "without following the dictionary through frames no pixel may change, the indices are those of following it",
        arguments: [2, 256])
    func skipsOnlyFramesThatCannotChange(colors: Int) throws {
        // Two colors far apart (black and white): no pixel may take the
        // other at level 200. 256 colors: many may.
        let palette = colors == 2 ? [0xFF00_0000, 0xFFFF_FFFF] : Self.palette(256)
        let sources = Self.sources(width: 64, height: 48, noise: 6, seed: 4).map { c -> UInt32 in
            colors == 2 ? (c & 0xFF > 0x80 ? 0xFFFF_FFFF : 0xFF00_0000) : c
        }
        let exact = Self.nearest(sources, palette)
        var followed = exact
        var skipped = exact
        var follower = LossyLZW(level: 200)
        var skipper = LossyLZW(level: 200)
        skipper.followsUnchanged = false
        follower.rewrite(&followed, sources: sources, palette: palette, transparent: nil)
        skipper.rewrite(&skipped, sources: sources, palette: palette, transparent: nil)
        #expect(skipped == followed)
        #expect((followed == exact) == (colors == 2), "\(colors) colors: some pixel changed: \(followed != exact)")
        #expect(follower.codes > 2)
    }

    @Test("a transparent pixel stays transparent and an opaque one never becomes transparent")
    func transparencyStays() throws {
        let (width, height) = (120, 80)
        var palette = Self.palette(64)
        palette[0] = 0  // the transparent entry
        let sources = Self.sources(width: width, height: height, noise: 20, seed: 3)
        var exact = Self.nearest(sources, palette)
        // A checkerboard of transparent 4×4 blocks.
        for i in exact.indices where (i % width / 4 + i / width / 4) % 2 == 0 { exact[i] = 0 }
        for i in exact.indices where exact[i] == 0 && (i % width / 4 + i / width / 4) % 2 == 1 { exact[i] = 1 }
        var indices = exact
        var lossy = LossyLZW(level: 200)
        lossy.rewrite(&indices, sources: sources, palette: palette, transparent: 0)
        for i in indices.indices { #expect((indices[i] == 0) == (exact[i] == 0), "pixel \(i)") }
        #expect(indices != exact, "level 200 changed nothing")
        let counted = try Self.giflibCodes(indices, width: width, height: height, palette: palette, transparent: 0)
        #expect(counted.codes == lossy.codes)
    }

    @Test("the entry that shows a color is its first one, also when the palette repeats a color")
    func entryLookup() {
        let a: UInt32 = 0xFF10_2030
        let b: UInt32 = 0xFF40_5060
        let c: UInt32 = 0x8070_8090  // alpha ignored: shown opaque
        // Entry 1 is transparent; entry 2 repeats entry 0's color.
        let lookup = EntryLookup([a, 0, a, c, b], transparent: 1)
        #expect(lookup.entry(showing: a) == 0)
        #expect(lookup.entry(showing: c | 0xFF00_0000) == 3)
        #expect(lookup.entry(showing: b) == 4)
        #expect(lookup.entry(showing: 0xFF00_0000) == nil, "the transparent entry shows nothing")
        #expect(lookup.entry(showing: 0xFF99_9999) == nil)
    }

    @Test(
        "level 0 with exact alternatives: each pixel keeps its entry or takes its alternative, giflib agrees, fewer codes",
        arguments: [false, true])
    func exactAlternatives(withTransparent: Bool) throws {
        let (width, height) = (160, 120)
        var palette = Self.palette(16)
        if withTransparent { palette[0] = 0 }
        // Noisy indices; every third pixel may instead show the entry of
        // the pixel before it (as if the viewer showed that color there),
        // or, `withTransparent`, is transparent and may show that entry.
        var random = SeededRandom(seed: 5)
        var own = (0..<(width * height)).map { _ in UInt8(1 + random.next() % 15) }
        var alternatives = [Int16](repeating: FewestRuns.none, count: own.count)
        for i in stride(from: 1, to: own.count, by: 3) where own[i] != own[i - 1] {
            alternatives[i] = Int16(own[i - 1])
            if withTransparent { own[i] = 0 }
        }
        var plain = own
        var follower = LossyLZW(level: 0)
        follower.rewrite(&plain, sources: [], palette: palette, transparent: withTransparent ? 0 : nil)
        #expect(plain == own, "level 0 without alternatives changed a pixel")
        var chosen = own
        var exact = LossyLZW(level: 0)
        exact.rewrite(
            &chosen, sources: [], palette: palette, transparent: withTransparent ? 0 : nil,
            alternatives: alternatives)
        for i in chosen.indices where chosen[i] != own[i] {
            #expect(Int16(chosen[i]) == alternatives[i], "pixel \(i) took \(chosen[i])")
        }
        #expect(exact.codes < follower.codes, "\(exact.codes) codes with alternatives, \(follower.codes) without")
        let counted = try Self.giflibCodes(
            chosen, width: width, height: height, palette: palette, transparent: withTransparent ? 0 : nil)
        #expect(counted.codes == exact.codes)
        #expect(counted.bytes == exact.imageDataBytes)
    }
}

/// Lossy LZW through the whole encoder, decoded by giflib and Pillow.
@Suite("Lossy LZW encodes", .tags(.slow))
struct LossyEncodeTests {
    /// A photo-like left half that moves and a right half that stays.
    static func halfMoving(frames: Int) -> [RGBAImage] {
        let still = Synth.photoLike(phase: 0, width: 96, height: 64)
        return (0..<frames).map { f in
            var image = Synth.photoLike(phase: f * 3, width: 96, height: 64)
            for y in 0..<64 {
                for x in 48..<96 {
                    let i = (y * 96 + x) * 4
                    for c in 0..<4 { image.pixels[i + c] = still.pixels[i + c] }
                }
            }
            return image
        }
    }

    @Test(
        "quantized and lossless frames: smaller with --lossy, the same in giflib and Pillow, still areas still",
        arguments: [Optional(90), nil])
    func endToEnd(quality: Int?) throws {
        let frames =
            quality == nil
            ? (0..<6).map { f in  // 2 × 120 colors: lossless, one palette
                Synth.image(96, 64) { x, y in
                    (UInt8((x + f) % 96 * 2), UInt8(y * 3 % 60 * 4), UInt8(x % 2 * 128), 255)
                }
            } : Self.halfMoving(frames: 6)
        let exact = try encodeGIF(frames, .with { $0.quality = quality })
        let lossy = try encodeGIF(
            frames,
            .with {
                $0.quality = quality
                $0.lossy = 120
            })
        #expect(lossy.bytes.count < exact.bytes.count, "\(lossy.bytes.count) vs \(exact.bytes.count) bytes")
        let pillow = try #require(lossy.pillow)
        #expect(pillow.frames.count == lossy.giflib.frames.count)
        for (g, p) in zip(lossy.giflib.frames, pillow.frames) { #expect(g.pixels == p.pixels) }
        // Every decoded pixel stays near its source: a redmean distance of
        // 8·120 allows at most √(960/2) ≈ 22 on one channel, plus
        // quantization and the tolerance of a kept earlier pixel.
        for (f, decoded) in lossy.giflib.frames.enumerated() {
            let source = frames[min(f, frames.count - 1)].pixels
            var worst = 0
            for i in 0..<decoded.pixels.count where i % 4 != 3 {
                worst = max(worst, abs(Int(decoded.pixels[i]) - Int(source[i])))
            }
            #expect(worst <= 90, "frame \(f) off by \(worst)")
        }
        if quality != nil {
            // The right half never changes, so no frame after the first
            // redraws it differently.
            let first = lossy.giflib.frames[0].pixels
            for frame in lossy.giflib.frames.dropFirst() {
                for y in 0..<64 {
                    let row = (y * 96 + 48) * 4..<(y * 96 + 96) * 4
                    #expect(Array(frame.pixels[row]) == Array(first[row]), "row \(y) of the still half changed")
                }
            }
        }
    }

    @Test(
        "testsrc2 (quantized frames over a still picture): each lossy level smaller than the one below, --lossy 20 at least 4 % under lossless"
    )
    func levelsShrinkOnQuantizedFrames() throws {
        // Taking every exact alternative (transparent, or the entry of the
        // color shown) where giflib's dictionary then matched further broke
        // the runs of transparent pixels the dictionary would have learnt:
        // --lossy 20 was 2 % under lossless here and 8 % over it on
        // testsrc2 at 320x240.
        try withTemporaryDirectory { dir in
            let files = try ffmpegSourceFrames("testsrc2=size=160x120:rate=25", count: 20, in: dir)
            let frames = MemoryFrameSource(try referenceImages(files.map(\.path)))
            let sizes = try [0, 20, 40, 80].map { level in
                try gifBytes(frames, .with { $0.lossy = level }).count
            }
            #expect(sizes[1] * 100 <= sizes[0] * 96, "lossy 20: \(sizes[1]) bytes, lossless \(sizes[0])")
            for (a, b) in zip(sizes, sizes.dropFirst()) { #expect(b < a, "sizes by level 0, 20, 40, 80: \(sizes)") }
        }
    }

    @Test(
        "testsrc2: a pixel changes, or keeps what is shown, only where that buys a string several pixels longer (gifsicle's score), so --lossy keeps more of the picture for its bytes"
    )
    func scoreKeepsThePicture() throws {
        // Measured with release builds (mean PSNR over the frames, Pillow),
        // lossless 60,315 B at 54.94 dB:
        // - strings by "longest, then least error", keeps forced: 94.9 % of
        //   the bytes at 48.20 dB at lossy 10 (tolerance 8 × 20 then);
        // - by the score, keeps scored at a quarter of their error: 89.4 %
        //   at 49.93 dB (lossy 10), 87.7 % at 47.44 dB (lossy 20);
        // - by the score, keeps at their whole error: 95.7 % at 53.22 dB,
        //   90.7 % at 50.32 dB;
        // - and keeps only while the source stays within a quarter of the
        //   tolerance of what was drawn: 96.9 % at 54.10 dB, 93.1 % at
        //   51.69 dB, on the same bytes-to-PSNR curve (the one before gives
        //   51.71 dB at those 56,144 B).
        try withTemporaryDirectory { dir in
            let files = try ffmpegSourceFrames("testsrc2=size=160x120:rate=25", count: 20, in: dir)
            let images = try referenceImages(files.map(\.path))
            let results = try [0, 10, 20].map { level -> (bytes: Int, psnr: Double) in
                let bytes = try gifBytes(MemoryFrameSource(images), .with { $0.lossy = level })
                let path = dir.appendingPathComponent("lossy\(level).gif").path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let gif = try DecodedGIF(path: path)
                try #require(gif.frames.count == images.count)
                let scores = zip(gif.frames, images).map { min(100, psnr($0.pixels, $1.pixels)) }
                return (bytes.count, scores.reduce(0, +) / Double(scores.count))
            }
            let lossless = results[0]
            for (lossy, (share, most)) in zip(results.dropFirst(), [(97.5, 2.5), (94, 5.5)]) {
                #expect(Double(lossy.bytes) <= Double(lossless.bytes) * share / 100, "\(results)")
                #expect(lossless.psnr - lossy.psnr <= most, "\(results)")
            }
        }
    }

    @Test(
        "the search looks past a long costly branch to an exact one: a run the dictionary knows exactly stays exact"
    )
    func searchReachesTheExactBranch() {
        // Entries 0 and 1 are grays 100 and 102, well within lossy 40's
        // tolerance of each other; 2 starts every string below; the rest
        // are far-apart separators, each used once, so that a string starts
        // at every 2. The dictionary learns "2 0…0" (30 zeros), then
        // "2 1…1" (20 ones), whose node it lists first. On a run of 30
        // zeros after a 2, a search stopped after 12 nodes (as it was until
        // the eleventh session) saw the costly branch of ones to its 13th
        // pixel and the exact one only to its first, and turned the zeros
        // into ones; the exact string is longer, with no error.
        func gray(_ v: UInt32) -> UInt32 { v | v << 8 | v << 16 | 0xFF00_0000 }
        var palette = [gray(100), gray(102), UInt32(0xFF00_00FF)]
        for g in [0, 200, 255] as [UInt32] {
            for r in [0, 60, 120, 180, 240] as [UInt32] {
                for b in [0, 60, 120, 180, 240] as [UInt32] {
                    palette.append(r | g << 8 | b << 16 | 0xFF00_0000)
                }
            }
        }
        var separator = 3
        var indices: [UInt8] = []
        func string(of entry: UInt8, _ count: Int) {
            indices += [UInt8(separator), 2] + [UInt8](repeating: entry, count: count)
            separator += 1
        }
        for _ in 0..<31 { string(of: 0, 40) }
        for _ in 0..<21 { string(of: 1, 40) }
        let probe = indices.count + 2
        string(of: 0, 30)
        string(of: 3, 1)
        // While the dictionary learns, neither gray may stand for the
        // other: the zeros' source is gray 92 and the ones' 110, each
        // over the tolerance from the other entry. In the run, gray 100.
        var sources = indices.map { palette[Int($0)] }
        for i in 0..<probe where indices[i] < 2 { sources[i] = gray(indices[i] == 0 ? 92 : 110) }
        var rewritten = indices
        var lossy = LossyLZW(level: 40)
        lossy.rewrite(&rewritten, sources: sources, palette: palette, transparent: nil)
        #expect(
            rewritten[probe..<(probe + 30)] == indices[probe..<(probe + 30)],
            "\(Array(rewritten[probe..<(probe + 30)]))")
    }

    @Test(
        "a budget the settings meet as they are: one pass of two files (lossy 0 and 200), the bytes of no budget; one between those: levels between, replayed, the bytes of a plain encode at the level chosen"
    )
    func budgetPassWritesItsEnds() throws {
        let frames = Self.halfMoving(frames: 6)
        let settings = EncodeSettings.with { $0.quality = 90 }
        let plain = try gifBytes(MemoryFrameSource(frames), settings)
        let asIs = try encodeGIF(
            frames,
            .with {
                $0 = settings
                $0.maxBytes = plain.count
            }, pillow: false)
        #expect(asIs.bytes == plain)
        #expect(asIs.report.budget?.trials == 2, "\(String(describing: asIs.report.budget))")
        let lossiest = try gifBytes(
            MemoryFrameSource(frames),
            .with {
                $0 = settings
                $0.lossy = 200
            })
        try #require(lossiest.count < plain.count)
        let budget = (plain.count + lossiest.count) / 2
        let between = try encodeGIF(
            frames,
            .with {
                $0 = settings
                $0.maxBytes = budget
            }, pillow: false)
        let choice = try #require(between.report.budget)
        #expect(between.bytes.count <= budget && choice.lossy > 0 && choice.lossy < 200, "\(choice)")
        // Levels 0 and 200 from the pass, then at least one round of two
        // levels between, replayed from the pass's palettized frames.
        #expect(choice.trials >= 4, "\(choice)")
        let direct = try gifBytes(
            MemoryFrameSource(frames),
            .with {
                $0 = settings
                $0.lossy = choice.lossy
            })
        #expect(direct == between.bytes, "lossy \(choice.lossy): \(direct.count) vs \(between.bytes.count) bytes")
    }

    @Test(
        "the budget ladder skips a step that the smallest file so far shows cannot fit, and goes to the last step at most"
    )
    func budgetSkipsHopelessSteps() {
        // Smallest files (lossy 200) of each ladder step, measured on the
        // 320x240 corpora with release builds: mandelbrot 1,775,497 (the
        // settings as given), 1,780,295, 1,676,744, 1,559,552, 1,387,623,
        // 1,149,190; testsrc2 476,123, 423,859, 413,362, 373,052,
        // 319,451, 257,203. Six steps; 6 stands for "none fits".
        let next = AnimationEncoder.nextStep
        // mandelbrot at a quarter of its default size (1,134,108 B): the
        // middle first; after 64 colors (step 3) missed by 37 %, 32 colors
        // would have to shrink the file to 0.73 of it, so 16 colors next.
        // The search used to try step 4 too: four passes, 3.3x the time
        // of a plain encode; now three.
        #expect(next(0, 6, 1_775_497, 1_134_108) == 3)
        #expect(next(3, 6, 1_559_552, 1_134_108) == 5)
        // testsrc2 at half (320,397 B): 32 colors may fit after 64 missed.
        #expect(next(0, 6, 476_123, 320_397) == 3)
        #expect(next(3, 6, 373_052, 320_397) == 4)
        // testsrc2 at a quarter: straight to the last step, to say how
        // small a file can get.
        #expect(next(0, 6, 476_123, 160_198) == 5)
        // A step known to fit bounds the jump, and without sizes (WebP)
        // it is plain bisection.
        #expect(next(3, 5, 1_559_552, 1_134_108) == 4)
        #expect(next(0, 6, nil, 1_134_108) == 3)
        #expect(next(0, 101, nil, 1_000) == 50)
    }

    @Test(
        "a step between two of the ladder is expected to make its smallest file along the logarithm of the colors"
    )
    func smallestBetweenSteps() throws {
        // mandelbrot at a quarter of its size: 64 colors 1,263,432 B and
        // 24 colors 1,098,510 B at lossy 200; 32 colors lie
        // (5 − log2 24) / (6 − log2 24) = 0.29331 of the way up from 24.
        let expected = try #require(GIFBudget.smallestBetween(64, 1_263_432, 24, 1_098_510, colors: 32))
        #expect(abs(expected - 1_146_883) < 1)
        #expect(GIFBudget.smallestBetween(64, 1_263_432, 24, 1_098_510, colors: 64) == nil)
        #expect(GIFBudget.smallestBetween(64, 1_263_432, 24, 1_098_510, colors: 16) == nil)
    }

    @Test("after a jump from lossless, the lossy levels reach 97 % of the budget in two rounds")
    func levelsAfterTheJump() throws {
        // Sizes as mandelbrot-320x240 gives them at its default palettes:
        // 4,536,433 B lossless, then along the logarithm of the level
        // (2,093,290 B at 67, 1,722,067 B at 159). The line from the
        // lossless file aimed at levels 53 and 63 (96.9 % and 93 % of
        // half the default size), and it took a third round.
        func size(_ level: Int) -> Int {
            level == 0 ? 4_536_433 : Int(2_093_290 - 434_000 * (log(Double(level + 1)) - log(68)))
        }
        func file(_ level: Int) -> LossyTrials.File {
            LossyTrials.File(level: level, bytes: [UInt8](repeating: 0, count: size(level)), psnr: nil)
        }
        for share in [0.5, 0.4, 0.45] {
            let budget = Int(share * 4_536_433)
            var rounds = 0
            let files = try GIFLevelSearch.levels([file(0), file(200)], maxBytes: budget) { levels in
                rounds += 1
                return levels.map(file)
            }
            let best = files.map(\.bytes.count).filter { $0 <= budget }.max() ?? 0
            #expect(Double(best) >= 0.97 * Double(budget), "budget \(budget): best \(best)")
            #expect(rounds <= 2, "budget \(budget): \(rounds) rounds")
        }
    }

    @Test(
        "with looks at the checkpoint, scaled by how whole files grew past theirs, one round of whole files reaches 97 % of the budget"
    )
    func levelsAimedByLooks() throws {
        // The sizes of `levelsAfterTheJump`, and bytes at the checkpoint
        // that whole files grow from as mandelbrot's did (measured with
        // `--frames 1-25` against all 100 frames, lossy 0, 10, 20, 40, 80
        // and 200; between those along the logarithm of the level).
        // Without looks two rounds of whole files are needed.
        func size(_ level: Int) -> Int {
            level == 0 ? 4_536_433 : Int(2_093_290 - 434_000 * (log(Double(level + 1)) - log(68)))
        }
        let measured: [(level: Int, growth: Double)] = [
            (0, 4.636), (10, 5.585), (20, 5.715), (40, 5.831), (80, 5.955), (200, 6.114),
        ]
        func growth(_ level: Int) -> Double {
            guard let above = measured.firstIndex(where: { $0.level >= level }), above > 0 else { return 4.636 }
            let (low, high) = (measured[above - 1], measured[above])
            let t =
                (log(Double(level + 1)) - log(Double(low.level + 1)))
                / (log(Double(high.level + 1)) - log(Double(low.level + 1)))
            return low.growth + t * (high.growth - low.growth)
        }
        func prefix(_ level: Int) -> Int { Int(Double(size(level)) / growth(level)) }
        func whole(_ level: Int) -> LossyTrials.File {
            LossyTrials.File(
                level: level, bytes: [UInt8](repeating: 0, count: size(level)), psnr: nil, prefix: prefix(level))
        }
        for share in [0.5, 0.4, 0.45, 0.6] {
            let budget = Int(share * 4_536_433)
            var (rounds, looks) = (0, 0)
            let files = try GIFLevelSearch.levels(
                [whole(0), whole(200)], maxBytes: budget,
                write: { levels in
                    rounds += 1
                    return levels.map(whole)
                },
                look: { levels in
                    looks += 1
                    return levels.map { level in
                        let bytes = prefix(level)
                        // As a replay to the checkpoint gives them: at a
                        // quarter of the timeline, the size a straight
                        // line from there gives.
                        return LossyTrials.File(
                            level: level, over: (entries: 25, bytes: bytes), entries: 100, projected: nil,
                            prefix: bytes)
                    }
                })
            let best = files.map(\.bytes.count).filter { $0 <= budget }.max() ?? 0
            #expect(Double(best) >= 0.97 * Double(budget), "budget \(budget): best \(best)")
            #expect(
                rounds == 1 && looks <= GIFTuning.lookRounds, "budget \(budget): \(rounds) rounds, \(looks) looks")
            #expect(files.allSatisfy { !$0.projected && $0.bytes.count == $0.size }, "a look among the files")
        }
    }

    @Test("a look's scale: the growth of the whole files around its level, along the logarithm of the level")
    func lookScale() {
        func file(_ level: Int, size: Int, prefix: Int?) -> LossyTrials.File {
            LossyTrials.File(level: level, bytes: [UInt8](repeating: 0, count: size), psnr: nil, prefix: prefix)
        }
        let files = [
            file(0, size: 4000, prefix: 1000), file(200, size: 1200, prefix: 200), file(50, size: 9, prefix: nil),
        ]
        // 4 at lossless, 6 at 200; at 14, ln 15 / ln 201 = 0.51064 of the
        // way, after the jump of 35 % of it: 0.35 + 0.65 × 0.51064.
        #expect(abs(GIFLevelSearch.scale(level: 14, files)! - 5.36383) < 1e-4)
        #expect(GIFLevelSearch.scale(level: 200, files) == 6)
        // Between two lossy files, no jump: 5.5 at 20, 6 at 200; at 60,
        // (ln 61 − ln 21) / (ln 201 − ln 21) = 0.47211 of the way.
        let lossy = [file(20, size: 2200, prefix: 400), files[1]]
        #expect(abs(GIFLevelSearch.scale(level: 60, lossy)! - 5.73606) < 1e-4)
        // Past the last known level: its growth; a file without a
        // checkpoint counts for nothing, and without any file, no scale.
        #expect(GIFLevelSearch.scale(level: 50, [files[1], files[2]]) == 6)
        #expect(GIFLevelSearch.scale(level: 50, [files[2]]) == nil)
        // A file left over the budget before half the timeline is too
        // rough a guide.
        let early = LossyTrials.File(
            level: 0, over: (entries: 40, bytes: 1500), entries: 100, projected: nil, prefix: 1000)
        #expect(early.growth == nil)
        #expect(GIFLevelSearch.scale(level: 14, [early, files[1]]) == 6)
    }

    /// Encodes `frames` at 10 fps under `maxBytes`, which nothing fits
    /// (a data error expected), and counts the passes over the frames that
    /// ran to the end: the progress callback reaches the last entry once
    /// per such pass.
    static func passesToTheEnd(_ frames: [RGBAImage], maxBytes: Int) throws -> Int {
        final class Passes: @unchecked Sendable { var whole = 0 }
        let passes = Passes()
        let encoder = AnimationEncoder(
            format: .gif,
            settings: .with {
                $0.timing.fps = Rational(10)
                $0.maxBytes = maxBytes
            },
            progress: { done, total in if done == total { passes.whole += 1 } })
        try withTemporaryDirectory { dir in
            let output = try OutputFile(path: dir.appendingPathComponent("out.gif").path)
            #expect(throws: ThrobberError.self) { try encoder.encode(MemoryFrameSource(frames), to: output) }
        }
        return passes.whole
    }

    @Test(
        "a budget far under what a lossless file of 2 colors can reach is refused by the lower bound: no pass runs to the end"
    )
    func budgetStopsAtFewExactColors() throws {
        // Two-color noise that changes everywhere: one exact palette of 2
        // colors, which every ladder step (16 colors or more) holds. The
        // lower bound's pass (the last step) passes the budget in its first
        // batches and the budget is refused there.
        var random = SeededRandom(seed: 7)
        let frames = (0..<24).map { _ in
            Synth.image(48, 32) { _, _ in random.next() % 2 == 0 ? (255, 255, 255, 255) : (0, 0, 0, 255) }
        }
        let whole = try Self.passesToTheEnd(frames, maxBytes: 100)
        #expect(whole == 0, "\(whole) passes")
    }

    @Test(
        "a budget a tenth of what any step can reach: the lower bound refuses it before any pass runs to the end"
    )
    func budgetPassesStopOverTheBudget() throws {
        // A photo-like animation (quantized on every step): the smallest
        // step passes the budget within the first batches.
        let frames = (0..<24).map { Synth.photoLike(phase: $0 * 3, width: 48, height: 36) }
        let whole = try Self.passesToTheEnd(frames, maxBytes: 1500)
        #expect(whole == 0, "\(whole) passes ran to the last frame")
    }

    @Test("a budget the smallest step's file meets, to the byte, is not refused by the lower bound")
    func boundKeepsTheSmallest() throws {
        let frames = (0..<12).map { Synth.photoLike(phase: $0 * 3, width: 48, height: 36) }
        let smallest = try gifBytes(
            MemoryFrameSource(frames),
            .with {
                $0.timing.fps = Rational(10)
                ($0.quality, $0.colors, $0.dither, $0.lossy) = (10, 16, 0, 200)
            })
        let fit = try encodeGIF(
            frames,
            .with {
                $0.timing.fps = Rational(10)
                $0.maxBytes = smallest.count
            }, pillow: false)
        #expect(fit.bytes.count <= smallest.count && fit.report.budget != nil)
    }

    @Test(
        "a trial file whose bytes at the checkpoint scale well past the budget stops there; one within the margin is written on"
    )
    func projectedFilesStopAtTheCheckpoint() throws {
        final class Furthest: @unchecked Sendable { var done = 0 }
        let frames = (0..<32).map { Synth.photoLike(phase: $0 * 3, width: 48, height: 36) }
        let settings = EncodeSettings.with { $0.timing.fps = Rational(10) }
        let source = MemoryFrameSource(frames)
        let timeline = Timeline(source: source, settings: settings.timing)
        let checkpoint = try #require(GIFTuning.checkpoint(entries: timeline.entries.count))
        #expect(checkpoint == 8)
        func encode(_ trials: LossyTrials) throws -> Int {
            let furthest = Furthest()
            let encoder = AnimationEncoder(
                format: .gif, settings: settings, progress: { done, _ in furthest.done = max(furthest.done, done) })
            // A pass whose files all stop ends early, abandoned.
            _ = try encoder.encodeTrials(settings, source, timeline: timeline, into: trials, batch: 4)
            #expect(trials.abandoned == (furthest.done < timeline.entries.count))
            return furthest.done
        }
        // Whole files: their sizes, and their bytes at the checkpoint.
        let whole = LossyTrials(levels: [0, 200])
        #expect(try encode(whole) == 32)
        let sizes = whole.files.map(\.size)
        let growth = try whole.files.map { try #require($0.growth) }
        #expect(whole.files.allSatisfy { !$0.estimated && $0.prefix! < $0.size }, "\(whole.files)")

        // A budget a fifth under the smaller file: both scale past 1.1
        // times it at the checkpoint, stop in the batch that passes it,
        // and tell the sizes the whole files have.
        let tight = LossyTrials(levels: [0, 200], limit: sizes[1] * 4 / 5)
        tight.growth = [0: growth[0], 200: growth[1]]
        #expect(try encode(tight) < checkpoint, "the pass ran past the checkpoint's batch")
        for (file, size) in zip(tight.files, sizes) {
            #expect(file.projected && file.estimated && abs(file.size - size) <= 1, "\(file.size) for \(size)")
        }

        // 5 % under it: within the margin, so the smaller file is written on
        // until it passes the budget, near the end.
        let near = LossyTrials(levels: [0, 200], limit: sizes[1] * 95 / 100)
        near.growth = tight.growth
        #expect(try encode(near) >= 2 * checkpoint)
        let smaller = near.files[1]
        #expect(!smaller.projected && smaller.estimated && smaller.written > 0.5, "\(smaller)")

        // A budget a tenth over the larger (lossless) file: it is expected
        // to fit at the checkpoint, so the lossy file stops there, below
        // the budget, at the size it is expected to reach; the lossless
        // file is written whole.
        let room = LossyTrials(levels: [0, 200], limit: sizes[0] * 11 / 10)
        room.growth = tight.growth
        #expect(try encode(room) == 32)
        let (lossless, lossy) = (room.files[0], room.files[1])
        #expect(!lossless.estimated && lossless.bytes == whole.outputs[0].bytes)
        #expect(room.stoppedBelow(lossy) && lossy.bytes.isEmpty && abs(lossy.size - sizes[1]) <= 1, "\(lossy)")
        #expect(!room.stoppedBelow(lossless) && !tight.files.contains(where: tight.stoppedBelow))

        // Expected to fit (a growth a tenth short) but over the budget at
        // the end: the lossy level, stopped below the budget, is written
        // whole from the kept frames, the bytes of the whole pass.
        let wrong = LossyTrials(levels: [0, 200], limit: sizes[0] - 64)
        wrong.growth = [0: growth[0] * 0.9, 200: growth[1]]
        _ = try encode(wrong)
        #expect(wrong.files[0].estimated && wrong.stoppedBelow(wrong.files[1]), "\(wrong.files)")
        let replayed = try #require(try wrong.replay(levels: [200], jobs: 2).first)
        #expect(!replayed.estimated && replayed.bytes == whole.outputs[1].bytes)
    }

    @Test(
        "the colors between two ladder steps that should fill a budget: along the logarithm of the colors, rounded down"
    )
    func colorsBetweenSteps() {
        // testsrc2 at half its size (320,397 B): 64 colors gave 412,437 B
        // lossless (projected), 24 colors 301,135 B. 99 % of the budget
        // lies 0.14427 of the way: 2^(log2 24 + 0.14427 × log2(64/24)) =
        // 27.65 colors (27 colors encode to 313,553 B, 97.9 %).
        let bytes = GIFTuning.fillShare * 320_397
        #expect(GIFBudget.colorsBetween(64, 412_437, 24, 301_135, bytes: bytes) == 27)
        // A budget beyond either file, or no count between: none.
        #expect(GIFBudget.colorsBetween(64, 412_437, 24, 301_135, bytes: 300_000) == nil)
        #expect(GIFBudget.colorsBetween(64, 412_437, 24, 301_135, bytes: 420_000) == nil)
        #expect(GIFBudget.colorsBetween(25, 412_437, 24, 301_135, bytes: bytes) == nil)
        // Halfway along the logarithm of 256 and 16 colors: 64.
        #expect(GIFBudget.colorsBetween(256, 300, 16, 100, bytes: 200) == 64)
    }

    @Test("the budget ladder below 32 colors loses at most a third of the colors a step")
    func ladderSteps() throws {
        // 32 colors at --lossy 200 and 16 at lossy 0 left testsrc2's half
        // budget (320,397 B) a gap: it took 16 colors at 82 % of the budget
        // and 28.66 dB; with 24 colors between, 94 % and 32.37 dB
        // (gifsicle's best under it: 30.71 dB).
        let colors = GIFBudget(EncodeSettings(), maxBytes: 1).steps.compactMap(\.colors)
        #expect(colors == colors.sorted(by: >), "\(colors)")
        for (a, b) in zip(colors, colors.dropFirst()) where a <= 32 {
            #expect(b * 3 >= a * 2, "\(a) colors, then \(b): \(colors)")
        }
        #expect(colors.last == 16, "\(colors)")
    }

    @Test(
        "the entries a new string may start with are every entry within the tolerance of the pixel's source, in green order"
    )
    func candidatesMissNone() {
        // `candidates` measures only the own entry's neighbors up to a
        // bound from the triangle inequality; a bound too tight would drop
        // entries the full scan took, and change strings. Checked against
        // the redmean distance written out here, over random palettes,
        // own entries and sources (also far from their own entry).
        func redmean(_ a: UInt32, _ b: UInt32) -> Int {
            let (ra, rb) = (Int(a & 0xFF), Int(b & 0xFF))
            let dg = Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF)
            let db = Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF)
            let mean = (ra + rb) / 2
            return ((512 + mean) * (ra - rb) * (ra - rb)) / 256 + 4 * dg * dg + ((767 - mean) * db * db) / 256
        }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> UInt32 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        var checked = 0
        for level in [1, 20, 80, 200] {
            for count in [16, 256] {
                // Clustered palettes (as quantizers make them) and spread ones.
                let spread: UInt32 = count == 16 ? 0xFF : 0x3F
                let base = random() & 0x00C0_C0C0
                let palette = (0..<count).map { _ in (base &+ (random() & (spread * 0x01_0101))) | 0xFF00_0000 }
                let transparent = count == 16 ? 3 : nil
                var coder = LossyLZW(level: level)
                var one: [UInt8] = [0]
                coder.rewrite(&one, sources: [palette[0]], palette: palette, transparent: transparent)
                let tolerance = LossyLZW.tolerance(level: level)
                for _ in 0..<400 {
                    var own = Int(random() % UInt32(count))
                    if own == transparent { own = 0 }
                    let jitter = random() & 0x001F_1F1F
                    let source = random() % 4 == 0 ? random() | 0xFF00_0000 : (palette[own] ^ jitter) | 0xFF00_0000
                    let cell = LossyLZW.Cell(alternative: FewestRuns.none, canChange: true, cost: 1)
                    let n = coder.candidates(own: own, cell: cell, source: source)
                    let got = (0..<n).map { Int(coder.candidate[$0].entry) }
                    let want = palette.indices.filter { k in
                        k != own && k != transparent && redmean(palette[k], source) <= tolerance
                    }.sorted { (palette[$0] >> 8 & 0xFF, $0) < (palette[$1] >> 8 & 0xFF, $1) }
                    #expect(got == want, "level \(level), \(count) colors, own \(own), source \(source)")
                    checked += want.count
                }
            }
        }
        #expect(checked > 1000)
    }

    @Test("--lossy is 0 … 200")
    func range() {
        for bad in [-1, 201] {
            #expect(throws: ThrobberError.self) {
                try EncodeSettings.with { $0.lossy = bad }.validate(for: .gif)
            }
        }
    }
}
