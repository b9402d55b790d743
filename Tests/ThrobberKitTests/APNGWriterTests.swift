import Foundation
import Testing
import TestSupport
@testable import ThrobberKit

/// The APNG encoder's output against the APNG 1.0 spec and independent
/// decoders: the chunk layout and sequence numbers (apng_chunks.py, struct +
/// zlib), pngcheck, and the decoded frames of three decoders (the spec
/// decoder of anim_reference.py, ffmpeg, Pillow). Expected pixels and
/// delays are the input frames and their exact times.
@Suite("APNG writer")
struct APNGWriterTests {
    /// Frames with alpha 0/255 only, a moving disc over transparency.
    static let disc = Synth.movingDisc(frames: 6)

    /// Frames with partial alpha: a soft-edged blob moving over a
    /// half-transparent gradient band, plus a fully transparent corner.
    static func softFrames(_ n: Int, width: Int = 40, height: Int = 24) -> [RGBAImage] {
        (0..<n).map { f in
            Synth.image(width, height) { x, y in
                if x < 4 && y < 4 { return (0, 0, 0, 0) }
                let cx = 8 + f * 5, cy = 12
                let d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy)
                if d2 <= 16 { return (250, 200, 10, UInt8(255 - d2 * 8)) }
                if y >= height - 6 {
                    let t = x * 255 / max(1, width - 1)
                    return (UInt8(t), 90, UInt8(255 - t), UInt8(40 + t * 200 / 255))
                }
                return (0, 0, 0, 0)
            }
        }
    }

    // MARK: Chunk layout

    @Test("signature, IHDR, acTL, fcTL+IDAT for the first frame, fcTL+fdAT after, IEND; one sequence run; CRC on every chunk")
    func chunkLayout() throws {
        let settings = EncodeSettings.with { $0.timing.fps = Rational(30); $0.jobs = 2 }
        try withAPNG(MemoryFrameSource(Self.disc), settings) { apng in
            let s = apng.structure
            #expect(s.signatureOk)
            #expect(Array(apng.bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(s.types.first == "IHDR" && s.types.last == "IEND" && s.trailingBytes == 0)
            #expect(s.types.dropFirst().first == "acTL", "acTL should follow IHDR: \(s.types)")
            // fcTL 0 comes before the IDAT: the default image is frame 0.
            let firstIDAT = try #require(s.types.firstIndex(of: "IDAT"))
            #expect(s.types[..<firstIDAT].filter { $0 == "fcTL" }.count == 1)
            #expect(s.types.filter { $0 == "IDAT" || $0 == "fdAT" || $0 == "fcTL" || $0 == "IHDR" || $0 == "acTL" || $0 == "IEND" }.count == s.types.count,
                    "only the animation chunks are expected: \(s.types)")
            // After IDAT: only fcTL, fdAT, then IEND; every fcTL is followed by its data.
            let tail = Array(s.types[firstIDAT...].drop { $0 == "IDAT" }.dropLast())
            #expect(tail.first == "fcTL")
            for (i, t) in tail.enumerated() where t == "fcTL" { #expect(i + 1 < tail.count && tail[i + 1] == "fdAT") }
            // Sequence numbers: 0, 1, 2 ... over fcTL and fdAT together.
            #expect(s.sequence == Array(0..<s.sequence.count))
            #expect(s.sequence.count == s.fctl.count + s.fdat.count)
            // 6 distinct frames, all announced in acTL.
            #expect(s.actl?.numFrames == 6 && s.fctl.count == 6 && apng.report.frames == 6)
            let ihdr = try #require(s.ihdr)
            #expect(ihdr.width == 48 && ihdr.height == 32 && ihdr.depth == 8 && ihdr.interlace == 0)
            #expect(s.fctl[0].rect == PixelRect(x: 0, y: 0, width: 48, height: 32))
            #expect(s.fctl.allSatisfy { $0.dispose <= 2 && $0.blend <= 1 })
            // Every frame's zlib stream inflates to exactly its rows.
            for (i, f) in s.frames.enumerated() { #expect(f.inflated == f.expected, "frame \(i): \(f)") }
        }
    }

    @Test("image data over 1 MiB is split into several IDAT / fdAT chunks without breaking the sequence run")
    func splitChunks() throws {
        // Noise with varying alpha does not compress: about 1.2 MB per frame.
        var random = SeededRandom(seed: 7)
        let frames = (0..<2).map { _ in
            Synth.image(600, 500) { _, _ in (random.byte(), random.byte(), random.byte(), random.byte() | 1) }
        }
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 2 }, compression: .fast) { apng in
            let s = apng.structure
            #expect(s.types.filter { $0 == "IDAT" }.count >= 2, "\(s.types)")
            #expect(s.fdat.count >= 2, "\(s.fdat)")
            #expect(s.chunks.allSatisfy { $0.length <= 1 << 20 | 4 }, "chunk lengths \(s.chunks.map(\.length))")
            #expect(s.sequence == Array(0..<s.sequence.count), "\(s.sequence)")
            let decoded = try ReferenceAnimation(.spec, path: apng.path)
            expectFrames(decoded.frames, equal: frames.map(normalized), width: 600, "spec decoder")
        }
    }

    // MARK: Delays

    struct DelayCase: Sendable, CustomTestStringConvertible {
        var fps: Rational, num: Int, den: Int
        var testDescription: String { "\(fps) fps → \(num)/\(den)" }
    }

    @Test("delays are the exact frame times as fractions: 30 fps says 1/30, 4 fps says 1/4, 29.97 fps says 1001/30000",
          arguments: [DelayCase(fps: Rational(30), num: 1, den: 30), DelayCase(fps: Rational(4), num: 1, den: 4),
                      DelayCase(fps: Rational(30000, 1001), num: 1001, den: 30000), DelayCase(fps: Rational(7, 3), num: 3, den: 7)])
    func exactDelays(_ c: DelayCase) throws {
        let (fps, num, den) = (c.fps, c.num, c.den)
        let settings = EncodeSettings.with { $0.timing.fps = fps; $0.jobs = 2 }
        try withAPNG(MemoryFrameSource(Self.disc), settings) { apng in
            let s = apng.structure
            #expect(s.fctl.count == 6)
            for f in s.fctl { #expect(f.delayNum == num && f.delayDen == den, "fcTL \(f.seq): \(f.delayNum)/\(f.delayDen)") }
            // Pillow and ffmpeg read the same durations.
            let pillow = try ReferenceAnimation(.pillow, path: apng.path)
            let expected = Double(num) / Double(den)
            #expect(pillow.seconds.count == 6)
            for d in pillow.seconds { #expect(abs((d ?? -1) - expected) < 1e-9, "Pillow: \(String(describing: d)) s, expected \(expected)") }
            let ffmpeg = try ReferenceAnimation(.ffmpeg, path: apng.path)
            for d in ffmpeg.seconds.prefix(5) { #expect(abs((d ?? -1) - expected) < 1e-4, "ffprobe: \(String(describing: d)) s, expected \(expected)") }
        }
    }

    @Test("a fixed delay in centiseconds, duplicates and merged identical frames give exact sums")
    func delaySums() throws {
        let a = Self.disc[0], b = Self.disc[3]
        // --delay 7: 7/100 s per shown frame; A A B A with duplicate 2 →
        // A for 4·7 cs, B for 2·7 cs, A for 2·7 cs.
        let settings = EncodeSettings.with { $0.timing.delay = 7; $0.timing.duplicate = 2; $0.jobs = 1 }
        try withAPNG(MemoryFrameSource([a, a, b, a]), settings) { apng in
            let delays = apng.structure.fctl.map(\.delay)
            #expect(delays == [Rational(28, 100), Rational(14, 100), Rational(14, 100)], "\(delays)")
            let decoded = try ReferenceAnimation(.spec, path: apng.path)
            expectFrames(decoded.frames, equal: [a, b, a].map(normalized), width: a.width, "spec decoder")
        }
    }

    @Test("times that do not fit 16-bit fractions are rounded on cumulative times, so the loop does not drift")
    func longDelays() throws {
        let frames = Array(Self.disc.prefix(5))
        // 1.00001 s per frame: 100001/100000 does not fit 16 bits.
        let timeline = Timeline(durations: Array(repeating: Rational(100001, 100000), count: 5),
                                duplicates: Array(repeating: 1, count: 5), bounce: false)
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 1 }, timeline: timeline) { apng in
            let delays = apng.structure.fctl.map(\.delay)
            #expect(delays.count == 5)
            let total = delays.reduce(Rational(0), +)
            let exact = Rational(500005, 100000)
            let error = abs(Double(total.numerator) / Double(total.denominator) - Double(exact.numerator) / Double(exact.denominator))
            #expect(error <= 0.0005, "loop lasts \(total) s, exactly \(exact) s")
            for (i, f) in apng.structure.fctl.enumerated() {
                #expect(f.delayNum <= 65535 && f.delayDen <= 65535)
                // Each frame's end, summed, is within half a millisecond of its exact end.
                let end = delays[...i].reduce(Rational(0), +)
                let exactEnd = Double(i + 1) * 1.00001
                #expect(abs(Double(end.numerator) / Double(end.denominator) - exactEnd) <= 0.0005, "frame \(i) ends at \(end)")
            }
        }
    }

    // MARK: Loop

    @Test("loop 0 writes num_plays 0 (forever), loop 3 writes num_plays 3", arguments: [0, 1, 3, 65535])
    func loop(count: Int) throws {
        try withAPNG(MemoryFrameSource(Self.disc), .with { $0.loop = count; $0.jobs = 1 }) { apng in
            #expect(apng.structure.actl?.numPlays == count)
            let pillow = try ReferenceAnimation(.pillow, path: apng.path)
            #expect(pillow.loop == count, "Pillow reads loop \(String(describing: pillow.loop))")
        }
    }

    // MARK: Lossless

    @Test("default with transparency: 8-bit RGBA, and every decoder shows exactly the input frames")
    func losslessRGBA() throws {
        let frames = Self.disc
        try withAPNG(MemoryFrameSource(frames), .with { $0.timing.fps = Rational(10); $0.jobs = 2 }) { apng in
            let s = apng.structure
            #expect(s.ihdr?.color == 6 && s.ihdr?.depth == 8)
            #expect(s.plteEntries == nil && s.trns == nil)
            #expect(apng.report.palette == "lossless RGBA")
            let expected = frames.map(normalized)
            for d in [ReferenceAnimation.Decoder.spec, .ffmpeg, .pillow] {
                let decoded = try ReferenceAnimation(d, path: apng.path)
                #expect(decoded.width == 48 && decoded.height == 32)
                expectFrames(decoded.frames, equal: expected, width: 48, d.rawValue)
            }
        }
    }

    @Test("partial alpha is kept exactly (straight RGBA), also where frames blend OVER")
    func losslessPartialAlpha() throws {
        let frames = Self.softFrames(5)
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 2 }) { apng in
            #expect(apng.structure.ihdr?.color == 6)
            let expected = frames.map(normalized)
            for d in [ReferenceAnimation.Decoder.spec, .ffmpeg] {
                expectFrames(try ReferenceAnimation(d, path: apng.path).frames, equal: expected, width: 40, d.rawValue)
            }
            // Pillow composites blend OVER with paste-with-mask, which is not
            // Porter-Duff "over" for partial alpha (alpha becomes a² instead of
            // a); it is exact when every frame uses blend SOURCE.
            if apng.structure.fctl.allSatisfy({ $0.blend == 0 }) {
                expectFrames(try ReferenceAnimation(.pillow, path: apng.path).frames, equal: expected, width: 40, "pillow")
            }
        }
    }

    @Test("default with every pixel opaque: 8-bit RGB (no alpha channel, no tRNS), decoded exactly")
    func losslessRGB() throws {
        let frames = (0..<4).map { Synth.photoLike(phase: $0 * 3) }
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 2 }) { apng in
            let s = apng.structure
            #expect(s.ihdr?.color == 2 && s.ihdr?.depth == 8, "\(String(describing: s.ihdr))")
            #expect(s.trns == nil && s.plteEntries == nil)
            #expect(apng.report.palette == "lossless RGB")
            let expected = frames.map(normalized)
            for d in [ReferenceAnimation.Decoder.spec, .ffmpeg, .pillow] {
                expectFrames(try ReferenceAnimation(d, path: apng.path).frames, equal: expected, width: 64, d.rawValue)
            }
        }
    }

    @Test("an animation with one transparent pixel in one frame is written as RGBA")
    func oneTransparentPixel() throws {
        var frames = (0..<3).map { Synth.photoLike(phase: $0 * 5, width: 20, height: 12) }
        frames[2].pixels[(5 * 20 + 7) * 4 + 3] = 0
        frames[2].pixels[(5 * 20 + 7) * 4 ..< (5 * 20 + 7) * 4 + 3] = [0, 0, 0]
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 1 }) { apng in
            #expect(apng.structure.ihdr?.color == 6)
            expectFrames(try ReferenceAnimation(.spec, path: apng.path).frames, equal: frames.map(normalized), width: 20, "spec")
        }
    }

    // MARK: Frame differencing

    @Test("frames after the first are cropped to the changed rectangle; decoding stays exact")
    func cropToChange() throws {
        // A photo-like background with a small square moving over it.
        let background = Synth.photoLike(phase: 0, width: 96, height: 64)
        let frames: [RGBAImage] = (0..<6).map { f in
            var image = background
            for y in 20..<26 { for x in (10 + f * 9)..<(16 + f * 9) {
                let o = (y * 96 + x) * 4
                image.pixels[o] = 255; image.pixels[o + 1] = 0; image.pixels[o + 2] = 255
            } }
            return image
        }
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 2 }) { apng in
            let fctl = apng.structure.fctl
            #expect(fctl.count == 6)
            #expect(fctl[0].rect == PixelRect(x: 0, y: 0, width: 96, height: 64))
            for i in 1..<min(fctl.count, 6) {
                let box = try #require(changedBox(frames[i - 1], frames[i]))
                #expect(fctl[i].rect == box, "frame \(i): region \(fctl[i].rect), changed pixels span \(box)")
                #expect(fctl[i].width * fctl[i].height < 96 * 64 / 10)
            }
            let expected = frames.map(normalized)
            for d in [ReferenceAnimation.Decoder.spec, .ffmpeg, .pillow] {
                expectFrames(try ReferenceAnimation(d, path: apng.path).frames, equal: expected, width: 96, d.rawValue)
            }
        }
    }

    @Test("sparse changes on an opaque picture use blend OVER with the unchanged pixels transparent; decoding stays exact")
    func blendOver() throws {
        // RGBA output (one transparent pixel), noise background; each frame
        // repaints every 5th pixel of a 40x40 area in a new opaque color.
        var base = Synth.noise(seed: 3, width: 64, height: 64)
        base.pixels[0...3] = [0, 0, 0, 0]
        let frames: [RGBAImage] = (0..<5).map { f in
            var image = base
            guard f > 0 else { return image }
            for y in 10..<50 { for x in 12..<52 where (x + y) % 5 == 0 {
                let o = (y * 64 + x) * 4
                image.pixels[o] = UInt8(40 * f); image.pixels[o + 1] = 200; image.pixels[o + 2] = UInt8(255 - 40 * f); image.pixels[o + 3] = 255
            } }
            return image
        }
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 2 }) { apng in
            let fctl = apng.structure.fctl
            #expect(fctl.count == 5)
            #expect(fctl.dropFirst().allSatisfy { $0.blend == 1 }, "blend ops \(fctl.map(\.blend))")
            for i in 1..<fctl.count {
                #expect(fctl[i].rect == changedBox(frames[i - 1], frames[i]), "frame \(i) region \(fctl[i].rect)")
            }
            let expected = frames.map(normalized)
            for d in [ReferenceAnimation.Decoder.spec, .ffmpeg, .pillow] {
                expectFrames(try ReferenceAnimation(d, path: apng.path).frames, equal: expected, width: 64, d.rawValue)
            }
        }
    }

    @Test("identical neighbours are merged into one frame whose delay is their sum")
    func mergesIdentical() throws {
        let a = Self.disc[0], b = Self.disc[5]
        try withAPNG(MemoryFrameSource([a, a, a, b, b, a]), .with { $0.timing.fps = Rational(10); $0.jobs = 1 }) { apng in
            #expect(apng.structure.actl?.numFrames == 3)
            #expect(apng.structure.fctl.map(\.delay) == [Rational(3, 10), Rational(2, 10), Rational(1, 10)])
            expectFrames(try ReferenceAnimation(.spec, path: apng.path).frames, equal: [a, b, a].map(normalized), width: a.width, "spec")
        }
    }

    @Test("a single frame is a one-frame APNG that every decoder reads")
    func singleFrame() throws {
        try withAPNG(MemoryFrameSource([Self.disc[2]]), .with { $0.jobs = 1; $0.timing.fps = Rational(2) }) { apng in
            #expect(apng.structure.actl?.numFrames == 1 && apng.structure.fctl.count == 1 && apng.structure.fdat.isEmpty)
            #expect(apng.structure.fctl[0].delay == Rational(1, 2))
            for d in [ReferenceAnimation.Decoder.spec, .ffmpeg, .pillow] {
                expectFrames(try ReferenceAnimation(d, path: apng.path).frames, equal: [normalized(Self.disc[2])], width: 48, d.rawValue)
            }
        }
    }

    // MARK: Palette

    @Test("colors N writes a palette APNG: color type 3, at most N PLTE entries, tRNS for the transparency, close to the input",
          arguments: [16, 64, 256])
    func palette(colors: Int) throws {
        // Thousands of colors with a transparent band.
        let frames: [RGBAImage] = (0..<4).map { f in
            var image = Synth.photoLike(phase: f * 4)
            for y in 0..<6 { for x in 0..<64 { let o = (y * 64 + x) * 4; image.pixels[o..<o + 4] = [0, 0, 0, 0] } }
            return image
        }
        try withAPNG(MemoryFrameSource(frames), .with { $0.colors = colors; $0.jobs = 2 }) { apng in
            let s = apng.structure
            #expect(s.ihdr?.color == 3 && s.ihdr?.depth == 8)
            let entries = try #require(s.plteEntries)
            #expect(entries <= colors, "PLTE has \(entries) entries for --colors \(colors)")
            let trns = try #require(s.trns, "a palette APNG with transparency needs tRNS")
            #expect(trns.count <= entries && trns.contains(0))
            // Floor: an independent quantizer's PSNR (Pillow, undithered) less
            // 1.5 dB for dithering.
            let floors = try frames.map { try quantizeBaselinePSNR($0, colors: colors) - 1.5 }
            for d in [ReferenceAnimation.Decoder.spec, .ffmpeg, .pillow] {
                let decoded = try ReferenceAnimation(d, path: apng.path)
                #expect(decoded.frames.count == frames.count)
                for (i, (px, image)) in zip(decoded.frames, frames).enumerated() {
                    let db = psnr(px, image.pixels)
                    #expect(db >= floors[i], "\(d.rawValue) frame \(i): PSNR \(db) dB with \(colors) colors, floor \(floors[i]) dB")
                    let wrongAlpha = stride(from: 3, to: px.count, by: 4).filter { px[$0] != image.pixels[$0] }.count
                    #expect(wrongAlpha == 0, "\(d.rawValue) frame \(i): \(wrongAlpha) pixels with other alpha")
                }
            }
        }
    }

    @Test("a palette APNG of frames with fewer colors than N is lossless")
    func paletteExact() throws {
        let frames = Self.disc   // red, blue, transparent
        try withAPNG(MemoryFrameSource(frames), .with { $0.colors = 8; $0.jobs = 2 }) { apng in
            #expect(apng.structure.ihdr?.color == 3)
            #expect((apng.structure.plteEntries ?? 99) <= 8)
            for d in [ReferenceAnimation.Decoder.spec, .ffmpeg, .pillow] {
                expectFrames(try ReferenceAnimation(d, path: apng.path).frames, equal: frames.map(normalized), width: 48, d.rawValue)
            }
        }
    }

    @Test("an opaque palette APNG decodes opaque and close to the input; every decoder agrees")
    func paletteOpaque() throws {
        let frames = (0..<3).map { Synth.photoLike(phase: $0 * 6) }
        try withAPNG(MemoryFrameSource(frames), .with { $0.colors = 32; $0.jobs = 2 }) { apng in
            #expect(apng.structure.ihdr?.color == 3 && (apng.structure.plteEntries ?? 99) <= 32)
            let spec = try ReferenceAnimation(.spec, path: apng.path)
            for (i, px) in spec.frames.enumerated() {
                #expect(stride(from: 3, to: px.count, by: 4).allSatisfy { px[$0] == 255 }, "frame \(i) is not opaque")
                let floor = try quantizeBaselinePSNR(frames[i], colors: 32) - 1.5
                #expect(psnr(px, frames[i].pixels) >= floor, "frame \(i): PSNR \(psnr(px, frames[i].pixels)) dB, floor \(floor) dB")
            }
            for d in [ReferenceAnimation.Decoder.ffmpeg, .pillow] {
                expectFrames(try ReferenceAnimation(d, path: apng.path).frames, equal: spec.frames, width: 64, d.rawValue)
            }
        }
    }

    // MARK: Compression

    @Test("compression fast and best both decode exactly; best is no larger than fast")
    func compressionEffort() throws {
        let frames = (0..<5).map { Synth.photoLike(phase: $0 * 2, width: 80, height: 60) } + Self.softFrames(3, width: 80, height: 60)
        var sizes: [EncodeSettings.Compression: Int] = [:]
        let frameSets = [Array(frames.prefix(5)), Array(frames.suffix(3))]
        for set in frameSets {
            for effort in EncodeSettings.Compression.allCases {
                try withAPNG(MemoryFrameSource(set), .with { $0.jobs = 2 }, compression: effort) { apng in
                    sizes[effort, default: 0] += apng.bytes.count
                    expectFrames(try ReferenceAnimation(.spec, path: apng.path).frames, equal: set.map(normalized),
                                 width: 80, "spec (\(effort))")
                    expectFrames(try ReferenceAnimation(.ffmpeg, path: apng.path).frames, equal: set.map(normalized),
                                 width: 80, "ffmpeg (\(effort))")
                }
            }
        }
        #expect(sizes[.best]! <= sizes[.fast]!, "best \(sizes[.best]!) bytes, fast \(sizes[.fast]!) bytes")
    }

    @Test("the bytes do not depend on the number of threads")
    func deterministic() throws {
        let frames = (0..<6).map { Synth.photoLike(phase: $0) } + Array(Self.softFrames(3, width: 64, height: 48))
        let one = try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 1 }) { $0.bytes }
        let four = try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 4 }) { $0.bytes }
        #expect(one == four)
    }
}
