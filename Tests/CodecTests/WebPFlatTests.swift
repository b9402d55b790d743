import Testing

@testable import ThrobberCodecs
@testable import ThrobberCore

/// `WebPAnimWriter.isFlat`, which turns libwebp's segment smoothing on for
/// lossy frames: drawn content (most 16x16 blocks of at most 4 colors),
/// not texture.
@Suite("WebP flat-frame test")
struct WebPFlatTests {
    /// A `width`×`height` image whose pixel (x, y) is `color(x, y)` (RGBA).
    static func image(_ width: Int, _ height: Int, _ color: (Int, Int) -> [UInt8]) -> RGBAImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height { for x in 0..<width { pixels += color(x, y) } }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// A different opaque color at every pixel.
    static func noise(_ x: Int, _ y: Int) -> [UInt8] {
        let v = (x &* 73_856_093) ^ (y &* 19_349_663)
        return [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: x + y), 255]
    }

    @Test("one color, and up to 4 colors a block, are flat; 5 colors a block and noise are not")
    func colorsPerBlock() {
        #expect(WebPAnimWriter.isFlat(Self.image(64, 48) { _, _ in [10, 20, 30, 255] }))
        let four: [[UInt8]] = [[0, 0, 0, 255], [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]
        #expect(WebPAnimWriter.isFlat(Self.image(64, 48) { x, y in four[(x + 3 * y) % 4] }))
        let five = four + [[255, 255, 255, 255]]
        #expect(!WebPAnimWriter.isFlat(Self.image(64, 48) { x, y in five[(x + 3 * y) % 5] }))
        // Alpha counts: the same RGB at two alphas is two colors.
        let alphas: [[UInt8]] = (0..<5).map { [9, 9, 9, UInt8(50 * $0 + 1)] }
        #expect(!WebPAnimWriter.isFlat(Self.image(64, 48) { x, _ in alphas[x % 5] }))
        #expect(!WebPAnimWriter.isFlat(Self.image(64, 48, Self.noise)))
    }

    @Test("fully transparent pixels are one color whatever their RGB")
    func transparentIsOneColor() {
        let clear = Self.image(64, 48) { x, y in
            x < 32 ? Array(Self.noise(x, y).prefix(3)) + [0] : [200, 40, 40, 255]
        }
        #expect(WebPAnimWriter.isFlat(clear))
        let faint = Self.image(64, 48) { x, y in
            x < 32 ? Array(Self.noise(x, y).prefix(3)) + [1] : [200, 40, 40, 255]
        }
        // Half the blocks are noise at alpha 1: still half flat.
        #expect(WebPAnimWriter.isFlat(faint))
        let mostlyFaint = Self.image(64, 48) { x, y in
            x < 48 ? Array(Self.noise(x, y).prefix(3)) + [1] : [200, 40, 40, 255]
        }
        #expect(!WebPAnimWriter.isFlat(mostlyFaint))
    }

    @Test("the line is half the whole blocks; a frame without a whole block is not flat")
    func half() {
        // 4x3 blocks: 6 flat of 12 is flat, 5 of 12 is not.
        let six = Self.image(64, 48) { x, y in x < 32 ? [1, 2, 3, 255] : Self.noise(x, y) }
        #expect(WebPAnimWriter.isFlat(six))
        let five = Self.image(64, 48) { x, y in x < 32 && !(x < 16 && y < 16) ? [1, 2, 3, 255] : Self.noise(x, y) }
        #expect(!WebPAnimWriter.isFlat(five))
        // The partial column and row (7 pixels) are not counted.
        let edges = Self.image(71, 55) { x, y in x < 64 && y < 48 ? [1, 2, 3, 255] : Self.noise(x, y) }
        #expect(WebPAnimWriter.isFlat(edges))
        #expect(!WebPAnimWriter.isFlat(Self.image(15, 200) { _, _ in [1, 2, 3, 255] }))
        #expect(!WebPAnimWriter.isFlat(Self.image(200, 15) { _, _ in [1, 2, 3, 255] }))
    }
}
