import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

extension APNGWriterTests {
    // MARK: Frame differencing

    @Test("frames after the first are cropped to the changed rectangle; decoding stays exact")
    func cropToChange() throws {
        // A photo-like background with a small square moving over it.
        let background = Synth.photoLike(phase: 0, width: 96, height: 64)
        let frames: [RGBAImage] = (0..<6).map { f in
            var image = background
            for y in 20..<26 {
                for x in (10 + f * 9)..<(16 + f * 9) {
                    let o = (y * 96 + x) * 4
                    image.pixels[o] = 255
                    image.pixels[o + 1] = 0
                    image.pixels[o + 2] = 255
                }
            }
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
            try expectDecodersShow(apng.path, expected, width: 96)
        }
    }

    @Test(
        "sparse changes on an opaque picture use blend OVER with the unchanged pixels transparent; decoding stays exact"
    )
    func blendOver() throws {
        // RGBA output (one transparent pixel), noise background; each frame
        // repaints every 5th pixel of a 40x40 area in a new opaque color.
        var base = Synth.noise(seed: 3, width: 64, height: 64)
        base.pixels[0...3] = [0, 0, 0, 0]
        let frames: [RGBAImage] = (0..<5).map { f in
            var image = base
            guard f > 0 else { return image }
            for y in 10..<50 {
                for x in 12..<52 where (x + y) % 5 == 0 {
                    let o = (y * 64 + x) * 4
                    image.pixels[o] = UInt8(40 * f)
                    image.pixels[o + 1] = 200
                    image.pixels[o + 2] = UInt8(255 - 40 * f)
                    image.pixels[o + 3] = 255
                }
            }
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
            try expectDecodersShow(apng.path, expected, width: 64)
        }
    }

    @Test("identical neighbours are merged into one frame whose delay is their sum")
    func mergesIdentical() throws {
        let a = Self.disc[0]
        let b = Self.disc[5]
        try withAPNG(
            MemoryFrameSource([a, a, a, b, b, a]),
            .with {
                $0.timing.fps = Rational(10)
                $0.jobs = 1
            }
        ) { apng in
            #expect(apng.structure.actl?.numFrames == 3)
            #expect(apng.structure.fctl.map(\.delay) == [Rational(3, 10), Rational(2, 10), Rational(1, 10)])
            expectFrames(
                try ReferenceAnimation(.spec, path: apng.path).frames, equal: [a, b, a].map(normalized), width: a.width,
                "spec")
        }
    }

    @Test("a single frame is a one-frame APNG that every decoder reads")
    func singleFrame() throws {
        try withAPNG(
            MemoryFrameSource([Self.disc[2]]),
            .with {
                $0.jobs = 1
                $0.timing.fps = Rational(2)
            }
        ) { apng in
            #expect(
                apng.structure.actl?.numFrames == 1 && apng.structure.fctl.count == 1 && apng.structure.fdat.isEmpty)
            #expect(apng.structure.fctl[0].delay == Rational(1, 2))
            try expectDecodersShow(apng.path, [normalized(Self.disc[2])], width: 48)
        }
    }

    // MARK: Palette

    @Test(
        "colors N writes a palette APNG: color type 3, at most N PLTE entries, tRNS for the transparency, close to the input",
        arguments: [16, 64, 256])
    func palette(colors: Int) throws {
        // Thousands of colors with a transparent band.
        let frames: [RGBAImage] = (0..<4).map { f in
            var image = Synth.photoLike(phase: f * 4)
            for y in 0..<6 {
                for x in 0..<64 {
                    let o = (y * 64 + x) * 4
                    image.pixels[o..<o + 4] = [0, 0, 0, 0]
                }
            }
            return image
        }
        try withAPNG(
            MemoryFrameSource(frames),
            .with {
                $0.colors = colors
                $0.jobs = 2
            }
        ) { apng in
            let s = apng.structure
            let entries = try #require(s.plteEntries)
            // The fewest bits that index every entry.
            #expect(s.ihdr?.color == 3 && s.ihdr?.depth == [1, 2, 4, 8].first { entries <= 1 << $0 })
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
                    #expect(
                        db >= floors[i],
                        "\(d.rawValue) frame \(i): PSNR \(db) dB with \(colors) colors, floor \(floors[i]) dB")
                    let wrongAlpha = stride(from: 3, to: px.count, by: 4).filter { px[$0] != image.pixels[$0] }.count
                    #expect(wrongAlpha == 0, "\(d.rawValue) frame \(i): \(wrongAlpha) pixels with other alpha")
                }
            }
        }
    }

    @Test("a palette APNG of frames with fewer colors than N is lossless")
    func paletteExact() throws {
        let frames = Self.disc  // red, blue, transparent
        try withAPNG(
            MemoryFrameSource(frames),
            .with {
                $0.colors = 8
                $0.jobs = 2
            }
        ) { apng in
            #expect(apng.structure.ihdr?.color == 3)
            #expect((apng.structure.plteEntries ?? 99) <= 8)
            try expectDecodersShow(apng.path, frames.map(normalized), width: 48)
        }
    }

    @Test("an opaque palette APNG decodes opaque and close to the input; every decoder agrees")
    func paletteOpaque() throws {
        let frames = (0..<3).map { Synth.photoLike(phase: $0 * 6) }
        try withAPNG(
            MemoryFrameSource(frames),
            .with {
                $0.colors = 32
                $0.jobs = 2
            }
        ) { apng in
            #expect(apng.structure.ihdr?.color == 3 && (apng.structure.plteEntries ?? 99) <= 32)
            let spec = try ReferenceAnimation(.spec, path: apng.path)
            for (i, px) in spec.frames.enumerated() {
                #expect(stride(from: 3, to: px.count, by: 4).allSatisfy { px[$0] == 255 }, "frame \(i) is not opaque")
                let floor = try quantizeBaselinePSNR(frames[i], colors: 32) - 1.5
                #expect(
                    psnr(px, frames[i].pixels) >= floor,
                    "frame \(i): PSNR \(psnr(px, frames[i].pixels)) dB, floor \(floor) dB")
            }
            for d in [ReferenceAnimation.Decoder.ffmpeg, .pillow] {
                expectFrames(
                    try ReferenceAnimation(d, path: apng.path).frames, equal: spec.frames, width: 64, d.rawValue)
            }
        }
    }

    // MARK: Compression

    @Test("compression fast and best both decode exactly; best is no larger than fast")
    func compressionEffort() throws {
        let frames =
            (0..<5).map { Synth.photoLike(phase: $0 * 2, width: 80, height: 60) }
            + Self.softFrames(3, width: 80, height: 60)
        var sizes: [EncodeSettings.Compression: Int] = [:]
        let frameSets = [Array(frames.prefix(5)), Array(frames.suffix(3))]
        for set in frameSets {
            for effort in EncodeSettings.Compression.allCases {
                try withAPNG(MemoryFrameSource(set), .with { $0.jobs = 2 }, compression: effort) { apng in
                    sizes[effort, default: 0] += apng.bytes.count
                    expectFrames(
                        try ReferenceAnimation(.spec, path: apng.path).frames, equal: set.map(normalized),
                        width: 80, "spec (\(effort))")
                    expectFrames(
                        try ReferenceAnimation(.ffmpeg, path: apng.path).frames, equal: set.map(normalized),
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
