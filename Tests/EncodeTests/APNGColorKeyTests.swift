import Foundation
import TestSupport
import Testing

@testable import ThrobberCodecs
@testable import ThrobberEncode
@testable import ThrobberKit

/// The color key of gray and RGB APNGs, the second OVER variant, and the
/// per-row filter heuristics, each against values worked out by hand.
@Suite("APNG color key, OVER variants, filter heuristics", .tags(.slow))
struct APNGColorKeyTests {
    /// A `width`x`height` image of one opaque color.
    static func solid(_ width: Int, _ height: Int, _ rgb: [UInt8]) -> RGBAImage {
        RGBAImage(
            width: width, height: height,
            pixels: Array((0..<(width * height)).map { _ in rgb + [255] }.joined()))
    }

    static func set(_ image: inout RGBAImage, _ x: Int, _ y: Int, _ rgba: [UInt8]) {
        let o = (y * image.width + x) * 4
        image.pixels.replaceSubrange(o..<(o + 4), with: rgba)
    }

    /// Two frames of many colors (a gradient) in which a few pixels change.
    static func gradientFrames(including extra: [[UInt8]] = []) -> [RGBAImage] {
        var pixels: [UInt8] = []
        for i in 0..<(40 * 30) {
            let r = UInt8(i % 40 * 6)
            let g = UInt8(i / 40 * 8)
            let b = UInt8((i * 7) % 251 + 1)
            pixels += [r, g, b, 255]
        }
        var a = RGBAImage(width: 40, height: 30, pixels: pixels)
        for (k, rgb) in extra.enumerated() { set(&a, k, 0, rgb + [255]) }
        var b = a
        for x in 10..<30 where x % 3 != 0 { set(&b, x, 15, [9, 200, 9, 255]) }
        return [a, b]
    }

    @Test("the key is the lowest RGB value no frame uses: black when it is free, else the next")
    func keyIsLowestUnused() throws {
        let cases: [([[UInt8]], [Int])] = [([], [0, 0, 0]), ([[0, 0, 0], [1, 0, 0]], [2, 0, 0])]
        for (extra, key) in cases {
            let frames = Self.gradientFrames(including: extra)
            // The gradient itself must not hold the expected key, or the
            // case would prove nothing.
            let hasBlack = frames[0].pixels.indices.filter { $0 % 4 == 0 }.contains {
                Array(frames[0].pixels[$0..<($0 + 3)]) == [0, 0, 0]
            }
            #expect(hasBlack == !extra.isEmpty)
            try withAPNG(MemoryFrameSource(frames), .with { $0.jobs = 1 }) { apng in
                let s = apng.structure
                #expect(s.ihdr?.color == 2)
                let expected: [Int] = [0, key[0], 0, key[1], 0, key[2]]
                #expect(s.trns == expected, "\(String(describing: s.trns))")
                try expectDecodersShow(apng.path, frames.map(normalized), width: 40)
            }
        }
    }

    @Test("gray gets no key, at 8 bits nor at 4: Pillow ignores a gray key under blend OVER, ffmpeg one at 4 bits")
    func grayHasNoKey() throws {
        // 8-bit: levels 1...255 in use, 0 free; 4-bit: 17, 34, ... 255.
        let cases: [(width: Int, level: (Int) -> UInt8, depth: Int)] = [
            (16, { UInt8(max(1, $0)) }, 8), (15, { UInt8(17 * ($0 % 15 + 1)) }, 4),
        ]
        for c in cases {
            var pixels: [UInt8] = []
            for i in 0..<(c.width * 16) {
                let v = c.level(i % 256)
                pixels += [v, v, v, 255]
            }
            let a = RGBAImage(width: c.width, height: 16, pixels: pixels)
            var b = a
            for x in stride(from: 1, to: c.width - 1, by: 2) { Self.set(&b, x, 8, [34, 34, 34, 255]) }
            try withAPNG(MemoryFrameSource([a, b]), .with { $0.jobs = 1 }) { apng in
                #expect(apng.structure.ihdr?.color == 0 && apng.structure.ihdr?.depth == c.depth)
                #expect(apng.structure.trns == nil)
                #expect(apng.structure.fctl.allSatisfy { $0.blend == 0 })
                try expectDecodersShow(apng.path, [a, b].map(normalized), width: c.width)
            }
        }
    }

    @Test("the second OVER variant draws again the unchanged runs shorter than 5 pixels, where they are opaque")
    func keepingShortRuns() throws {
        // One row of 16: C = changed, u = unchanged. Runs of unchanged
        // pixels: 1 (x=1), 4 (x=3...6), 5 (x=8...12), 2 at the end (x=14, 15),
        // and x=3 translucent (OVER would darken it, so it stays clear).
        let pattern = "CuCuuuuCuuuuuCuu"
        var canvas = Self.solid(16, 1, [50, 60, 70])
        Self.set(&canvas, 3, 0, [50, 60, 70, 128])
        var image = canvas
        for (x, c) in pattern.enumerated() where c == "C" { Self.set(&image, x, 0, [200, 10, 10, 255]) }
        let rect = PixelRect(x: 0, y: 0, width: 16, height: 1)
        let over = try #require(APNGRects.overPixels(image, over: canvas, rect))
        let layout = APNGPixelLayout.rgba
        let kept = try #require(layout.keepingShortRuns(over, rows: image.pixels, width: 16, shortRun: 5))
        let drawn = (0..<16).map { kept[4 * $0 + 3] != 0 }
        let expected = [
            true, true, true, false, true, true, true, true, false, false, false, false, false, true, true, true,
        ]
        #expect(drawn == expected)
        // What is drawn is the image itself.
        for x in 0..<16 where drawn[x] {
            #expect(Array(kept[(4 * x)..<(4 * x + 4)]) == Array(image.pixels[(4 * x)..<(4 * x + 4)]))
        }
        // No short run: no second variant.
        #expect(layout.keepingShortRuns(over, rows: image.pixels, width: 16, shortRun: 1) == nil)
        // RGB: the key marks the unchanged pixels; every pixel is opaque.
        let key: UInt32 = 0xFF00_0001
        let rgb = APNGPixelLayout(colorType: .rgb, key: key)
        let keptRGB = try #require(
            rgb.keepingShortRuns(
                rgb.encode(over, width: 16), rows: rgb.encode(image.pixels, width: 16), width: 16, shortRun: 5))
        let drawnRGB = (0..<16).map { Array(keptRGB[(3 * $0)..<(3 * $0 + 3)]) != [1, 0, 0] }
        var expectedRGB = expected
        expectedRGB[3] = true  // opaque in RGB
        #expect(drawnRGB == expectedRGB)
    }

    @Test("each per-row heuristic picks the filter that makes a row's residuals constant")
    func heuristicsPickTheObviousFilter() {
        // Row 0: a ramp 0, 3, 6, ... (Sub gives 3s); row 1: the same ramp
        // (Up gives zeros); bpp 1.
        let ramp = (0..<32).map { UInt8($0 * 3) }
        let set = PNGFilterSet(
            ramp + ramp, stride: 32, height: 2, bpp: 1, heuristics: [.minimumSum, .entropy, .bigrams])
        for strategy in [PNGFilterSet.Strategy.minimumSum, .entropy, .bigrams] {
            #expect(set.choice(strategy) == [1, 2], "\(strategy)")
        }
        let rows = set.rows(.minimumSum)
        #expect(rows[0] == 1 && rows[33] == 2)
        #expect(Array(rows[2..<33]) == Array(repeating: 3, count: 31))
        #expect(Array(rows[34..<66]) == Array(repeating: 0, count: 32))
    }
}
