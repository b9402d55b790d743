import Testing
import ThrobberCore

@testable import ThrobberEncode

/// `PaletteMapper`, the remap of `--palette shared --compression fast`,
/// against an exhaustive search written here.
@Suite("Palette mapper")
struct PaletteMapperTests {
    /// A deterministic pseudo-random sequence (64-bit LCG, high bits).
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
    }

    static func packed(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) -> UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    static func channels(_ c: UInt32) -> (Int, Int, Int) { (Int(c & 0xFF), Int(c >> 8 & 0xFF), Int(c >> 16 & 0xFF)) }

    /// The nearest opaque entry by squared RGB distance, the lowest index
    /// on ties: every entry looked at.
    static func exhaustive(_ c: UInt32, _ palette: [UInt32]) -> Int {
        let (r, g, b) = channels(c)
        var best = -1
        var bestDistance = Int.max
        for (k, e) in palette.enumerated() where e >> 24 >= 128 {
            let (er, eg, eb) = channels(e)
            let d = (r - er) * (r - er) + (g - eg) * (g - eg) + (b - eb) * (b - eb)
            if d < bestDistance {
                bestDistance = d
                best = k
            }
        }
        return best
    }

    @Test("without dithering every pixel takes the exhaustive search's entry", arguments: [2, 17, 255])
    func nearestWithoutDither(entries: Int) {
        var random = Random(state: UInt64(entries))
        // Clustered entries (long candidate lists) and repeated ones (ties).
        var palette = (0..<entries).map { _ in
            Self.packed(100 + random.next(40), 100 + random.next(40), random.next(256))
        }
        if entries > 2 { palette[entries - 1] = palette[1] }
        palette.append(0)  // a clear entry, never chosen for an opaque pixel
        let mapper = PaletteMapper(colors: palette, jobs: 2)
        var image = RGBAImage(width: 97, height: 61)
        image.withMutablePackedPixels { px in
            for i in px.indices { px[i] = Self.packed(random.next(256), random.next(256), random.next(256)) }
        }
        let indices = mapper.map(image, dither: 0)
        var wrong = 0
        image.withPackedPixels { px in
            for i in px.indices where Int(indices[i]) != Self.exhaustive(px[i], palette) { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) of \(indices.count) pixels took another entry")
    }

    @Test("dithering keeps a flat color's mean between two entries, and mixes both")
    func ditherKeepsTheMean() {
        let palette = [Self.packed(0, 0, 0), Self.packed(255, 255, 255)]
        let mapper = PaletteMapper(colors: palette, jobs: 1)
        var image = RGBAImage(width: 64, height: 64)
        image.withMutablePackedPixels { px in for i in px.indices { px[i] = Self.packed(64, 64, 64) } }
        let indices = mapper.map(image, dither: 1)
        let white = indices.filter { $0 == 1 }.count
        let mean = 255 * Double(white) / Double(indices.count)
        #expect(abs(mean - 64) < 1, "mean \(mean)")
        // Half strength diffuses half the error: still some white, fewer.
        let half = mapper.map(image, dither: 0.5).filter { $0 == 1 }.count
        #expect(half < white)
        #expect(mapper.map(image, dither: 0).allSatisfy { $0 == 0 })
    }

    @Test("pixels under 50% alpha take the clear entry and pass no error on")
    func clearPixels() {
        let palette = [Self.packed(10, 10, 10), 0, Self.packed(200, 200, 200)]
        let mapper = PaletteMapper(colors: palette, jobs: 1)
        #expect(mapper.transparent == 1)
        var image = RGBAImage(width: 8, height: 2)
        image.withMutablePackedPixels { px in
            for i in px.indices { px[i] = i % 2 == 0 ? Self.packed(250, 0, 0, 100) : Self.packed(190, 190, 190) }
        }
        let indices = mapper.map(image, dither: 1)
        for i in indices.indices { #expect(Int(indices[i]) == (i % 2 == 0 ? 1 : 2)) }
    }

    @Test("the map is the same from a mapper built on one thread or two")
    func sameForAnyJobs() {
        var random = Random(state: 7)
        let palette = (0..<200).map { _ in Self.packed(random.next(256), random.next(256), random.next(256)) }
        var image = RGBAImage(width: 50, height: 40)
        image.withMutablePackedPixels { px in
            for i in px.indices { px[i] = Self.packed(random.next(256), random.next(256), random.next(256)) }
        }
        let one = PaletteMapper(colors: palette, jobs: 1).map(image, dither: 1)
        let two = PaletteMapper(colors: palette, jobs: 2).map(image, dither: 1)
        #expect(one == two)
    }
}
