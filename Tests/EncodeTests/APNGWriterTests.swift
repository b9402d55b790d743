import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// The APNG encoder's output against the APNG 1.0 spec and independent
/// decoders: the chunk layout and sequence numbers (apng_chunks.py, struct +
/// zlib), pngcheck, and the decoded frames of three decoders (the spec
/// decoder of anim_reference.py, ffmpeg, Pillow). Expected pixels and
/// delays are the input frames and their exact times.
@Suite("APNG writer", .tags(.slow))
struct APNGWriterTests {
    /// Frames with alpha 0/255 only, a moving disc over transparency.
    static let disc = Synth.movingDisc(frames: 6)

    /// Frames with partial alpha: a soft-edged blob moving over a
    /// half-transparent gradient band, plus a fully transparent corner.
    static func softFrames(_ n: Int, width: Int = 40, height: Int = 24) -> [RGBAImage] {
        (0..<n).map { f in
            Synth.image(width, height) { x, y in
                if x < 4 && y < 4 { return (0, 0, 0, 0) }
                let cx = 8 + f * 5
                let cy = 12
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

    @Test(
        "signature, IHDR, acTL, fcTL+IDAT for the first frame, fcTL+fdAT after, IEND; one sequence run; CRC on every chunk"
    )
    func chunkLayout() throws {
        let settings = EncodeSettings.with {
            $0.timing.fps = Rational(30)
            $0.jobs = 2
        }
        try withAPNG(MemoryFrameSource(Self.disc), settings) { apng in
            let s = apng.structure
            #expect(s.signatureOk)
            #expect(Array(apng.bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(s.types.first == "IHDR" && s.types.last == "IEND" && s.trailingBytes == 0)
            #expect(s.types.dropFirst().first == "acTL", "acTL should follow IHDR: \(s.types)")
            // fcTL 0 comes before the IDAT: the default image is frame 0.
            let firstIDAT = try #require(s.types.firstIndex(of: "IDAT"))
            #expect(s.types[..<firstIDAT].filter { $0 == "fcTL" }.count == 1)
            #expect(
                s.types.filter {
                    $0 == "IDAT" || $0 == "fdAT" || $0 == "fcTL" || $0 == "IHDR" || $0 == "acTL" || $0 == "IEND"
                        || $0 == "PLTE" || $0 == "tRNS"
                }.count == s.types.count,
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
            #expect(ihdr.width == 48 && ihdr.height == 32 && [1, 2, 4, 8].contains(ihdr.depth) && ihdr.interlace == 0)
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

    @Test(
        "delays are the exact frame times as fractions: 30 fps says 1/30, 4 fps says 1/4, 29.97 fps says 1001/30000",
        arguments: [
            DelayCase(fps: Rational(30), num: 1, den: 30), DelayCase(fps: Rational(4), num: 1, den: 4),
            DelayCase(fps: Rational(30000, 1001), num: 1001, den: 30000),
            DelayCase(fps: Rational(7, 3), num: 3, den: 7),
        ])
    func exactDelays(_ c: DelayCase) throws {
        let (fps, num, den) = (c.fps, c.num, c.den)
        let settings = EncodeSettings.with {
            $0.timing.fps = fps
            $0.jobs = 2
        }
        try withAPNG(MemoryFrameSource(Self.disc), settings) { apng in
            let s = apng.structure
            #expect(s.fctl.count == 6)
            for f in s.fctl {
                #expect(f.delayNum == num && f.delayDen == den, "fcTL \(f.seq): \(f.delayNum)/\(f.delayDen)")
            }
            // Pillow and ffmpeg read the same durations.
            let pillow = try ReferenceAnimation(.pillow, path: apng.path)
            let expected = Double(num) / Double(den)
            #expect(pillow.seconds.count == 6)
            for d in pillow.seconds {
                #expect(abs((d ?? -1) - expected) < 1e-9, "Pillow: \(String(describing: d)) s, expected \(expected)")
            }
            let ffmpeg = try ReferenceAnimation(.ffmpeg, path: apng.path)
            for d in ffmpeg.seconds.prefix(5) {
                #expect(abs((d ?? -1) - expected) < 1e-4, "ffprobe: \(String(describing: d)) s, expected \(expected)")
            }
        }
    }

    @Test("a fixed delay in centiseconds, duplicates and merged identical frames give exact sums")
    func delaySums() throws {
        let a = Self.disc[0]
        let b = Self.disc[3]
        // --delay 7: 7/100 s per shown frame; A A B A with duplicate 2 →
        // A for 4·7 cs, B for 2·7 cs, A for 2·7 cs.
        let settings = EncodeSettings.with {
            $0.timing.delay = 7
            $0.timing.duplicate = 2
            $0.jobs = 1
        }
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
        let timeline = Timeline(
            durations: Array(repeating: Rational(100001, 100000), count: 5),
            duplicates: Array(repeating: 1, count: 5), bounce: false)
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 1 }, timeline: timeline) { apng in
            let delays = apng.structure.fctl.map(\.delay)
            #expect(delays.count == 5)
            let total = delays.reduce(Rational(0), +)
            let exact = Rational(500005, 100000)
            let error = abs(
                Double(total.numerator) / Double(total.denominator) - Double(exact.numerator)
                    / Double(exact.denominator))
            #expect(error <= 0.0005, "loop lasts \(total) s, exactly \(exact) s")
            for (i, f) in apng.structure.fctl.enumerated() {
                #expect(f.delayNum <= 65535 && f.delayDen <= 65535)
                // Each frame's end, summed, is within half a millisecond of its exact end.
                let end = delays[...i].reduce(Rational(0), +)
                let exactEnd = Double(i + 1) * 1.00001
                #expect(
                    abs(Double(end.numerator) / Double(end.denominator) - exactEnd) <= 0.0005,
                    "frame \(i) ends at \(end)")
            }
        }
    }

    // MARK: Loop

    @Test("loop 0 writes num_plays 0 (forever), loop 3 writes num_plays 3", arguments: [0, 1, 3, 65535])
    func loop(count: Int) throws {
        try withAPNG(
            MemoryFrameSource(Self.disc),
            .with {
                $0.loop = count
                $0.jobs = 1
            }
        ) { apng in
            #expect(apng.structure.actl?.numPlays == count)
            let pillow = try ReferenceAnimation(.pillow, path: apng.path)
            #expect(pillow.loop == count, "Pillow reads loop \(String(describing: pillow.loop))")
        }
    }

    // MARK: Lossless

    /// The colors of `frames` as decoders show them (alpha-0 pixels as
    /// 0,0,0,0), counted here, not by the encoder.
    static func distinctColors(_ frames: [RGBAImage]) -> Int {
        var seen = Set<[UInt8]>()
        for f in frames {
            let px = normalized(f)
            for p in stride(from: 0, to: px.count, by: 4) { seen.insert(Array(px[p..<p + 4])) }
        }
        return seen.count
    }

    @Test(
        "default with transparency and at most 256 colors: a palette with tRNS at the fewest bits, and every decoder shows exactly the input frames"
    )
    func losslessRGBA() throws {
        let frames = Self.disc
        try withAPNG(
            MemoryFrameSource(frames),
            .with {
                $0.timing.fps = Rational(10)
                $0.jobs = 2
            }
        ) { apng in
            let s = apng.structure
            // The disc's colors and transparency: every one a palette entry.
            let n = Self.distinctColors(frames)
            let depth = [1, 2, 4, 8].first { n <= 1 << $0 }!
            #expect(s.ihdr?.color == 3 && s.ihdr?.depth == depth && s.plteEntries == n && s.trns != nil)
            #expect(apng.report.palette == "lossless palette of \(n) colors, \(depth)-bit")
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
            // Under 256 colors: a palette, with tRNS for the partial alpha.
            #expect(Self.distinctColors(frames) <= 256)
            #expect(apng.structure.ihdr?.color == 3 && apng.structure.trns != nil)
            let expected = frames.map(normalized)
            for d in [ReferenceAnimation.Decoder.spec, .ffmpeg] {
                expectFrames(try ReferenceAnimation(d, path: apng.path).frames, equal: expected, width: 40, d.rawValue)
            }
            // Pillow composites blend OVER with paste-with-mask, which is not
            // Porter-Duff "over" for partial alpha (alpha becomes a² instead of
            // a); it is exact when every frame uses blend SOURCE.
            if apng.structure.fctl.allSatisfy({ $0.blend == 0 }) {
                expectFrames(
                    try ReferenceAnimation(.pillow, path: apng.path).frames, equal: expected, width: 40, "pillow")
            }
        }
    }

    @Test(
        "opaque frames of many colors: 8-bit RGB with a tRNS color key no frame uses, blend OVER where unchanged pixels take it; decoded exactly"
    )
    func losslessRGB() throws {
        // A wavy gradient with two small marks moving at opposite corners:
        // each frame's rectangle spans the picture, nearly all of it
        // unchanged, which only blend OVER can leave as it is.
        let frames: [RGBAImage] = (0..<4).map { f in
            var image = Synth.photoLike(phase: 0)
            for (x0, y0) in [(1 + 3 * f, 1), (60 - 3 * f, 44)] {
                for y in y0..<(y0 + 3) {
                    for x in x0..<(x0 + 3) {
                        image.pixels.replaceSubrange(
                            ((y * 64 + x) * 4)..<((y * 64 + x) * 4 + 4), with: [250, 20, 30, 255])
                    }
                }
            }
            return image
        }
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 2 }) { apng in
            let s = apng.structure
            #expect(s.ihdr?.color == 2 && s.ihdr?.depth == 8, "\(String(describing: s.ihdr))")
            #expect(s.plteEntries == nil)
            #expect(apng.report.palette == "lossless RGB")
            // tRNS: three 16-bit samples, a color that no frame has.
            let trns = try #require(s.trns)
            #expect(trns.count == 6 && trns[0] == 0 && trns[2] == 0 && trns[4] == 0, "\(trns)")
            let key = [trns[1], trns[3], trns[5]].map(UInt8.init)
            for (i, frame) in frames.enumerated() {
                let hit = stride(from: 0, to: frame.pixels.count, by: 4).first {
                    Array(frame.pixels[$0..<($0 + 3)]) == key
                }
                #expect(hit == nil, "frame \(i) has the key color \(key)")
            }
            #expect(s.fctl.dropFirst().contains { $0.blend == 1 }, "no frame blends OVER")
            let expected = frames.map(normalized)
            try expectDecodersShow(apng.path, expected, width: 64)
        }
    }

    @Test("one opaque frame of many colors: 8-bit RGB with no tRNS (no frame blends, so no key)")
    func stillRGB() throws {
        try withAPNG(MemoryFrameSource([Synth.photoLike(phase: 0)]), .with { $0.jobs = 1 }) { apng in
            #expect(apng.structure.ihdr?.color == 2 && apng.structure.trns == nil && apng.structure.plteEntries == nil)
            expectFrames(
                try ReferenceAnimation(.spec, path: apng.path).frames, equal: [normalized(Synth.photoLike(phase: 0))],
                width: 64, "spec")
        }
    }

    @Test("an animation with one transparent pixel in one frame is written as RGBA")
    func oneTransparentPixel() throws {
        var frames = (0..<3).map { Synth.photoLike(phase: $0 * 5, width: 20, height: 12) }
        frames[2].pixels[(5 * 20 + 7) * 4 + 3] = 0
        frames[2].pixels[(5 * 20 + 7) * 4..<(5 * 20 + 7) * 4 + 3] = [0, 0, 0]
        try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 1 }) { apng in
            #expect(apng.structure.ihdr?.color == 6)
            expectFrames(
                try ReferenceAnimation(.spec, path: apng.path).frames, equal: frames.map(normalized), width: 20, "spec")
        }
    }
}
