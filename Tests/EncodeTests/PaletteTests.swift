import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// How colors become palettes: exact when possible (one global palette, or
/// a palette per frame), libimagequant otherwise. Every check reads the GIF
/// back with giflib and Pillow.
@Suite("Palettes")
struct PaletteTests {
    /// PSNR floors for quality 90, from measurements with libimagequant
    /// 2.17: the photo-like animation's worst frame has 34.5 dB (34.8 without
    /// dithering: quality 90 is libimagequant's target of about 35 dB, it
    /// stops adding colors there), the camera frames' worst 40.8 dB. The
    /// floors leave 1.5–3 dB for other builds; a broken remap or palette
    /// (wrong channel order, lost colors) falls far below them.
    static let photoFloor = 33.0
    static let jpegFloor = 38.0

    static func opaque(_ gif: EncodedGIF) -> Bool {
        gif.giflib.frames.allSatisfy { f in
            stride(from: 3, to: f.pixels.count, by: 4).allSatisfy { f.pixels[$0] == 255 }
        }
    }

    @Test("frames that fit in 256 colors together decode exactly, with one global palette and no local ones")
    func globalPaletteIsExact() throws {
        let frames = Synth.movingDisc(frames: 8)
        #expect(Synth.colorCount(frames) == 3)  // red, blue, transparent
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        #expect(gif.giflib.hasGlobalPalette)
        #expect(gif.giflib.frames.allSatisfy { !$0.hasLocalPalette })
        expectViewersShow(gif, frames.map { ($0, 10) })
    }

    @Test("frames that each fit but not together get exact local palettes, still exact")
    func localPalettesAreExact() throws {
        let frames = Synth.distinctPalettes(frames: 4)
        #expect(Synth.colorCount(frames) == 800)
        #expect(frames.allSatisfy { Synth.colorCount([$0]) == 200 })
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        #expect(gif.giflib.frames.allSatisfy { $0.hasLocalPalette })
        expectViewersShow(gif, frames.map { ($0, 10) })
    }

    /// One image of a GIF as its blocks say: LZW minimum code size,
    /// whether it has a local color table, whether a graphic control
    /// extension comes before it, and that extension's transparent index.
    struct ImageBlock {
        var codeSize: Int
        var local: Bool
        var control: Bool
        var transparent: Int?
    }

    /// The global color table's entries (0 for none) and each image's
    /// blocks, read from the file's bytes (not by the code under test).
    static func imageBlocks(_ bytes: [UInt8]) -> (tableEntries: Int, images: [ImageBlock]) {
        let table = bytes[10] & 0x80 != 0 ? 2 << Int(bytes[10] & 7) : 0
        var i = 13 + 3 * table
        var images: [ImageBlock] = []
        var control: Int?? = nil  // the pending extension's transparent index
        func skipSubBlocks() {
            while bytes[i] != 0 { i += Int(bytes[i]) + 1 }
            i += 1
        }
        while i < bytes.count {
            switch bytes[i] {
            case 0x21:
                if bytes[i + 1] == 0xF9 { control = .some(bytes[i + 3] & 1 != 0 ? Int(bytes[i + 6]) : nil) }
                i += 2
                skipSubBlocks()
            case 0x2C:
                let flags = bytes[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
                images.append(
                    ImageBlock(
                        codeSize: Int(bytes[i]), local: flags & 0x80 != 0, control: control != nil,
                        transparent: control ?? nil))
                control = nil
                i += 1
                skipSubBlocks()
            default: return (table, images)
            }
        }
        return (table, images)
    }

    /// Each image's LZW minimum code size and whether it has a local color
    /// table.
    static func imageCodeSizes(_ bytes: [UInt8]) -> [(codeSize: Int, local: Bool)] {
        imageBlocks(bytes).images.map { ($0.codeSize, $0.local) }
    }

    @Test("a frame that uses few entries of a large global palette starts with narrow LZW codes, and stays exact")
    func narrowCodesUnderGlobalPalette() throws {
        // 16 frames of 10 opaque colors each, none shared: 160 colors (and
        // transparent) in all, one global table of 256 entries.
        let frames = (0..<16).map { f in
            Synth.image(16, 16) { x, y in
                let k = (x + y) % 10
                return (UInt8(f * 16 + k), UInt8(255 - f * 8), UInt8(k * 20), 255)
            }
        }
        #expect(Synth.colorCount(frames) == 160)
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        #expect(gif.giflib.hasGlobalPalette)
        let sizes = Self.imageCodeSizes(gif.bytes)
        try #require(sizes.count == 16)
        #expect(sizes.allSatisfy { !$0.local })
        // The table would ask for 8-bit codes; some frames need far fewer.
        #expect(sizes.contains { $0.codeSize < 8 }, "\(sizes)")
        #expect(sizes.allSatisfy { $0.codeSize >= 2 && $0.codeSize <= 8 })
        // giflib and Pillow read every frame exactly as drawn.
        expectViewersShow(gif, frames.map { ($0, 10) })
    }

    @Test("the global palette puts the colors most frames share first, so that those frames get 7-bit codes")
    func sharedColorsFirst() throws {
        // Frame 0: 60 colors of its own, and the fewest in all. Frames 1–4:
        // 90 colors they share and 5 of their own each (95). 170 colors in
        // all. Taking frame 0's colors first (the fewest new ones) would
        // hold only it within the first 128 entries; the shared colors
        // first hold frames 1–4 there (1 + 90 + 4 × 5 = 111 entries).
        func color(_ frame: Int, _ j: Int) -> (UInt8, UInt8, UInt8, UInt8) {
            if frame == 0 { return (UInt8(j * 4), 0, 255, 255) }
            let k = j % 95
            return k < 90 ? (UInt8(k * 2), 128, 0, 255) : (UInt8(frame * 10 + k - 90), 255, 128, 255)
        }
        let frames = (0..<5).map { f in
            Synth.image(20, 20) { x, y in color(f, (y * 20 + x + f * 7) % (f == 0 ? 60 : 95)) }
        }
        #expect(Synth.colorCount(frames) == 170)
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        #expect(gif.giflib.hasGlobalPalette)
        let sizes = Self.imageCodeSizes(gif.bytes)
        try #require(sizes.count == 5)
        #expect(sizes.allSatisfy { !$0.local })
        #expect(sizes[1...].allSatisfy { $0.codeSize == 7 }, "\(sizes)")
        expectViewersShow(gif, frames.map { ($0, 10) })
    }

    @Test("frames with local palettes share a global one where it holds all their colors, and stay exact")
    func sharedPaletteForLocalFrames() throws {
        // 180 colors common to all frames and 20 of each frame's own, in a
        // band the frames redraw: 260 colors in all, so no one palette.
        func color(_ i: Int, frame: Int) -> (UInt8, UInt8, UInt8, UInt8) {
            (180..<200).contains(i)
                ? (UInt8(frame * 40 + i - 180), 7, 200, 255) : (UInt8(i % 180), UInt8(100 + i % 180 / 2), 3, 255)
        }
        let frames = (0..<4).map { f in Synth.image(16, 16) { x, y in color(y * 16 + x, frame: f) } }
        #expect(Synth.colorCount(frames) == 260)
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        #expect(gif.giflib.hasGlobalPalette)
        let sizes = Self.imageCodeSizes(gif.bytes)
        try #require(sizes.count == 4)
        // The first frame has 200 colors (the later ones redraw the band
        // only: 20 each). Its colors and two later frames' go in the shared
        // table (201 + 40 entries); the last frame's 20 no longer fit, and
        // it keeps its own table (a 64-color one, not the first frame's
        // 256).
        #expect(sizes.map(\.local) == [false, false, false, true], "\(sizes)")
        expectViewersShow(gif, frames.map { ($0, 10) })
    }

    @Test("two frames of the same 256 colors share a global table without a transparent entry, and stay exact")
    func sharedPaletteWithoutTransparent() throws {
        // Frames 0 and 2 hold the same 256 colors (each color on 16
        // pixels, frame 2 in another order, so that it redraws every
        // pixel); frame 1 holds 256 others. A shared table that keeps an
        // entry for transparency holds 255 colors, neither of frames 0 and
        // 2, and each of the three frames would carry a 768-byte table.
        func a(_ i: Int) -> (UInt8, UInt8, UInt8, UInt8) { (UInt8(i), UInt8(255 - i), UInt8(i * 7 % 256), 255) }
        let frames = [
            Synth.image(64, 64) { x, y in a((y * 64 + x) % 256) },
            Synth.image(64, 64) { x, y in (UInt8((y * 64 + x) * 3 % 256), UInt8((y * 64 + x) % 256), 128, 255) },
            Synth.image(64, 64) { x, y in a((y * 64 + x) * 37 % 256) },
        ]
        #expect(Synth.colorCount(frames) == 512)
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        #expect(gif.giflib.hasGlobalPalette)
        // Frames 0 and 2 use the global table (no local one), frame 1 its
        // own; each image needs all 256 entries (8-bit codes).
        let sizes = Self.imageCodeSizes(gif.bytes)
        #expect(sizes.map(\.local) == [false, true, false], "\(sizes)")
        #expect(sizes.allSatisfy { $0.codeSize == 8 }, "\(sizes)")
        expectViewersShow(gif, frames.map { ($0, 10) })
    }

    @Test(
        "exactly 256 colors over all frames still decode exactly (a full global palette, no room for a transparent entry)"
    )
    func fullGlobalPalette() throws {
        // 4 frames of 64 grays each, 256 distinct opaque colors in all.
        let frames = (0..<4).map { f in
            Synth.image(16, 16) { x, y in
                let v = UInt8(f * 64 + (y * 16 + x) % 64)
                return (v, v, v, 255)
            }
        }
        #expect(Synth.colorCount(frames) == 256)
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        expectViewersShow(gif, frames.map { ($0, 10) })
    }

    @Test("too many colors in a frame: libimagequant at quality 90 keeps a photo-like animation above the PSNR floor")
    func quantizedPhotoLike() throws {
        let frames = (0..<6).map { Synth.photoLike(phase: $0 * 3) }
        #expect(frames.allSatisfy { Synth.colorCount([$0]) > 1000 })
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        #expect(Self.opaque(gif), "an opaque input must stay opaque")
        expectViewersShow(gif, frames.map { ($0, 10) }, minPSNR: Self.photoFloor)
    }

    @Test(
        "quantized frames keep what is shown where the source did not change: no dither shimmer outside the moving part"
    )
    func quantizedUnchangedAreasStayStable() throws {
        // A still photo-like picture with two 6x6 squares moving in opposite
        // corners: the frame rectangle spans most of the picture and every
        // frame is quantized to its own palette, yet outside the squares' old
        // and new places nothing may change on screen.
        let still = Synth.photoLike(phase: 0)
        func squares(_ f: Int) -> [(x: Range<Int>, y: Range<Int>)] {
            [((2 + 4 * f)..<(8 + 4 * f), 2..<8), ((56 - 4 * f)..<(62 - 4 * f), 40..<46)]
        }
        let frames = (0..<6).map { f in
            var image = still
            for s in squares(f) {
                for y in s.y {
                    for x in s.x {
                        image.pixels.replaceSubrange((y * 64 + x) * 4..<(y * 64 + x) * 4 + 4, with: [255, 40, 40, 255])
                    }
                }
            }
            return image
        }
        let gif = try encodeGIF(
            frames,
            .with {
                $0.quality = 80
                $0.timing.fps = Rational(10)
            })
        #expect(gif.giflib.frames.count == 6)
        #expect(
            gif.giflib.frames.dropFirst().allSatisfy { $0.hasLocalPalette && $0.width * $0.height > 64 * 48 / 4 },
            "each frame has its own palette and redraws a large part of the picture")
        for f in 1..<6 {
            let before = gif.giflib.frames[f - 1].pixels
            let after = gif.giflib.frames[f].pixels
            let moved = squares(f - 1) + squares(f)
            var changedOutside = 0
            for y in 0..<48 {
                for x in 0..<64 where !moved.contains(where: { $0.x.contains(x) && $0.y.contains(y) }) {
                    let o = (y * 64 + x) * 4
                    if before[o..<o + 4] != after[o..<o + 4] { changedOutside += 1 }
                }
            }
            #expect(
                changedOutside == 0, "frame \(f): \(changedOutside) pixels outside the moving squares changed on screen"
            )
        }
        expectViewersShow(gif, frames.map { ($0, 10) }, minPSNR: Self.photoFloor)
    }

    @Test("the real camera sequence quantized at quality 90 stays above the PSNR floor", Fixtures.needed)
    func quantizedRealJPEGs() throws {
        let dir = try Fixtures.folder("photo-seq-dlib-bobot").path
        let files = Array(try FrameList().files(for: [dir]).prefix(12))
        let frames = try referenceImages(files)  // Pillow: the expected pixels
        let gif = try encodeGIF(
            FileFrameSource(files: files),
            .with {
                $0.quality = 90
                $0.timing.fps = Rational(10)
            })
        #expect(Self.opaque(gif))
        expectViewersShow(gif, frames.map { ($0, 10) }, minPSNR: Self.jpegFloor)
    }

    @Test("the grayscale camera sequence fits in 256 grays, so by default it is encoded losslessly", Fixtures.needed)
    func grayscaleJPEGsAreLossless() throws {
        let dir = try Fixtures.folder("photo-seq-dlib-bobot").path
        let files = Array(try FrameList().files(for: [dir]).prefix(8))
        let expected = try referenceImages(files)  // Pillow: the expected pixels
        let gif = try encodeGIF(FileFrameSource(files: files), .with { $0.timing.fps = Rational(25) })
        expectViewersShow(
            gif,
            expected.enumerated().map {
                (
                    $1,
                    expectedStartCentiseconds($0 + 1, fpsNumerator: 25)
                        - expectedStartCentiseconds($0, fpsNumerator: 25)
                )
            })
    }

    @Test("quality N always quantizes: a 256-gray gradient at quality 30 is lossy and smaller than lossless")
    func qualityAlwaysQuantizes() throws {
        let frames = (0..<3).map { f in
            Synth.image(64, 64) { x, y in
                let v = UInt8((x * 4 + y + f * 5) % 256)
                return (v, v, 255 - v, 255)
            }
        }
        #expect(Synth.colorCount(frames) <= 256)
        let lossless = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) }, pillow: false)
        expectViewersShow(lossless, frames.map { ($0, 10) })
        let quantized = try encodeGIF(
            frames,
            .with {
                $0.quality = 30
                $0.timing.fps = Rational(10)
            })
        // Measured: 6117 bytes lossless, 3245 at quality 30.
        #expect(quantized.bytes.count < lossless.bytes.count)
        let first = try #require(quantized.giflib.frames.first)
        #expect(first.pixels != frames[0].pixels, "quality 30 should have reduced the colors")
        #expect(
            Synth.colorCount([RGBAImage(width: 64, height: 64, pixels: first.pixels)]) < Synth.colorCount([frames[0]]))
        expectViewersShow(quantized, frames.map { ($0, 10) }, minPSNR: 29.4)  // measured: 29.87 dB
    }

    @Test("--colors N with exactly N opaque colors over all frames stays exact", arguments: [4, 16])
    func colorsLimitEqualToInput(limit: Int) throws {
        // A checkerboard of N opaque colors that shifts each frame.
        let frames = (0..<4).map { f in
            Synth.image(24, 24) { x, y in
                let j = ((x / 3 + y / 3 + f) % limit)
                return (UInt8(j * 255 / (limit - 1)), UInt8(255 - j * 200 / (limit - 1)), UInt8((j * 97) % 256), 255)
            }
        }
        #expect(Synth.colorCount(frames) == limit)
        let gif = try encodeGIF(
            frames,
            .with {
                $0.colors = limit
                $0.timing.fps = Rational(10)
            })
        expectViewersShow(gif, frames.map { ($0, 10) })
    }

    @Test("--colors caps every palette: no frame draws with more than N colors", arguments: [2, 16, 64])
    func colorsLimit(limit: Int) throws {
        // (The composited picture may show more: pixels a frame leaves
        // transparent keep the previous frames' colors.)
        let frames = (0..<3).map { Synth.photoLike(phase: $0 * 5, width: 32, height: 24) }
        let gif = try encodeGIF(
            frames,
            .with {
                $0.colors = limit
                $0.timing.fps = Rational(10)
            }, pillow: false)
        for (i, frame) in gif.giflib.frames.enumerated() {
            #expect(frame.paletteSize <= limit, "frame \(i) has a palette of \(frame.paletteSize) entries")
            #expect(frame.drawnColors.count <= limit, "frame \(i) draws \(frame.drawnColors.count) colors")
        }
        #expect(
            gif.giflib.frames.first?.drawnColors.count ?? 0 >= limit / 2,
            "the first frame should use most of its palette")
    }

    @Test("--colors below the count of a lossless input quantizes it; at or above it, stays exact")
    func colorsLimitAndLossless() throws {
        let frames = Synth.movingDisc(frames: 4)  // red, blue and transparent
        let exact = try encodeGIF(
            frames,
            .with {
                $0.colors = 4
                $0.timing.fps = Rational(10)
            }, pillow: false)
        expectViewersShow(exact, frames.map { ($0, 10) })
        let two = try encodeGIF(
            frames,
            .with {
                $0.colors = 2
                $0.timing.fps = Rational(10)
            }, pillow: false)
        for frame in two.giflib.frames { #expect(frame.paletteSize <= 2 && frame.drawnColors.count <= 2) }
    }

    @Test(
        "a frame that must redraw more than 256 colors (an area was cleared for it) is quantized, the others stay exact, and the report says so"
    )
    func localPaletteFallback() throws {
        // Blocks of 200 colors (A, B) and of 100 (C) on a transparent 60x20
        // canvas: A, then A and B, then B and C. Each change fits a palette,
        // but frame 1 covers A, which frame 2 clears, so its disposal clears
        // A and B, and frame 2 must redraw B with C: 300 colors.
        func block(_ x: Int, _ y: Int, base: Int) -> (UInt8, UInt8, UInt8, UInt8) {
            let i = y * 10 + x + base
            return (UInt8(i % 256), UInt8(i / 256 * 100 + 20), UInt8(255 - i % 256), 255)
        }
        func frame(a: Bool, b: Bool, c: Bool) -> RGBAImage {
            Synth.image(60, 20) { x, y in
                if a && x < 10 { return block(x, y, base: 0) }
                if b && (30..<40).contains(x) { return block(x - 30, y, base: 200) }
                if c && (45..<55).contains(x) && y < 10 { return block(x - 45, y, base: 400) }
                return (0, 0, 0, 0)
            }
        }
        let frames = [
            frame(a: true, b: false, c: false), frame(a: true, b: true, c: false), frame(a: false, b: true, c: true),
        ]
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        #expect(gif.report.palette == "lossless, a palette per frame, 1 of 3 frames quantized")
        let exact = gif.giflib.frames.indices.map { gif.giflib.frames[$0].pixels == frames[$0].pixels }
        #expect(exact == [true, true, false])
        // Measured (libimagequant 2.17): the quantized frame 2 at 58.1 dB in giflib and Pillow; 0 and 1 exact.
        expectViewersShow(gif, frames.map { ($0, 10) }, minPSNR: 57)
    }

    @Test(
        "a change spread over 400 colors but of few new ones stays exact: only the changed pixels' colors, the rest transparent"
    )
    func changedPixelsOnly() throws {
        // 200 colors on the left, then 200 more on the right (400 shown),
        // then two corner pixels change to new colors: the changed rectangle
        // is the whole picture, 400 colors, but only 2 of them are new, as
        // in an input GIF whose frames leave the rest transparent.
        func color(_ i: Int) -> (UInt8, UInt8, UInt8, UInt8) {
            (UInt8(i % 256), UInt8(i / 256 * 100 + 20), UInt8(255 - i % 256), 255)
        }
        let left = Synth.image(20, 20) { x, y in x < 10 ? color(y * 10 + x) : (0, 0, 0, 0) }
        let both = Synth.image(20, 20) { x, y in color(x < 10 ? y * 10 + x : 200 + y * 10 + x - 10) }
        var corners = both
        for (x, y, c) in [(0, 0, (1, 2, 3)), (19, 19, (250, 251, 252))] {
            let o = (y * 20 + x) * 4
            corners.pixels[o..<(o + 4)] = [UInt8(c.0), UInt8(c.1), UInt8(c.2), 255]
        }
        let frames = [left, both, corners]
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        #expect(!gif.report.palette.contains("quantized"), "\(gif.report.palette)")
        let sizes = Self.imageCodeSizes(gif.bytes)
        try #require(sizes.count == 3)
        // The last frame: a local table of the 2 new colors and transparent.
        #expect(sizes[2].local && sizes[2].codeSize == 2, "\(sizes)")
        expectViewersShow(gif, frames.map { ($0, 10) })
    }
}
