import TestSupport
import Testing

@testable import ThrobberKit

/// Dithering stops next to strong edges and stays on smooth areas away from
/// them: checked on what giflib and Pillow decode.
@Suite("Edge-masked dithering", .tags(.slow))
struct EdgeMaskedDitherTests {
    /// A 512-column gradient (red 0…255, green 0…200: more colors than the
    /// palette of 32 allowed below, about 10 levels apart along it) on flat
    /// blue, in a 12-pixel band (rows 40–51, every pixel within 6 of its
    /// strong edges) and a 60-row field (rows 60–119; from row 67 on more
    /// than 6 pixels from any strong edge).
    static let picture = Synth.image(512, 120) { x, y in
        guard (40..<52).contains(y) || y >= 60 else { return (0, 0, 254, 255) }
        return (UInt8(x / 2), UInt8(x * 200 / 511), 60, 255)
    }

    static func distance(_ a: ArraySlice<UInt8>, _ b: (Int, Int, Int)) -> Int {
        let d = (Int(a[a.startIndex]) - b.0, Int(a[a.startIndex + 1]) - b.1, Int(a[a.startIndex + 2]) - b.2)
        return d.0 * d.0 + d.1 * d.1 + d.2 * d.2
    }

    @Test(
        "near strong edges a pixel is drawn within about 4 levels of its source whenever the palette has such a color; away from edges dithering goes on"
    )
    func unditheredNearEdges() throws {
        let picture = Self.picture
        let gif = try encodeGIF(
            [picture],
            .with {
                $0.quality = 100
                $0.colors = 32
                $0.timing.fps = Rational(10)
            })
        let frame = gif.giflib.frames[0]
        let palette = frame.drawnColors.map { (Int($0 & 0xFF), Int($0 >> 8 & 0xFF), Int($0 >> 16 & 0xFF)) }
        #expect(palette.count > 16, "the gradient is quantized to many colors")
        let tolerance = 48  // squared RGB distance
        /// Pixels of `rows` with a palette color within the tolerance, and
        /// those of them drawn farther away than it (dithered).
        func count(rows: Range<Int>) -> (close: Int, dithered: Int) {
            var close = 0
            var dithered = 0
            for y in rows {
                for x in 0..<512 {
                    let o = (y * 512 + x) * 4
                    let source = (Int(picture.pixels[o]), Int(picture.pixels[o + 1]), Int(picture.pixels[o + 2]))
                    let nearest = palette.map { c in
                        (c.0 - source.0) * (c.0 - source.0) + (c.1 - source.1) * (c.1 - source.1) + (c.2 - source.2)
                            * (c.2 - source.2)
                    }.min()!
                    guard nearest <= tolerance else { continue }
                    close += 1
                    if Self.distance(frame.pixels[o..<o + 3], source) > tolerance { dithered += 1 }
                }
            }
            return (close, dithered)
        }
        let band = count(rows: 40..<52)
        let field = count(rows: 67..<120)
        #expect(band.close > 2000, "most band pixels have a close palette color (\(band.close))")
        #expect(band.dithered == 0, "\(band.dithered) band pixels drawn farther than the close color")
        #expect(field.dithered > 1000, "only \(field.dithered) of \(field.close) pixels dithered away from edges")
        expectViewersShow(gif, [(picture, 10)], minPSNR: 43.0)  // measured: 43.48 dB
    }

    @Test(
        "the edge table finds a strong edge within 6 pixels exactly where a direct search of the square does",
        arguments: [1, 2, 3])
    func edgeTableMatchesDirectSearch(seed: Int) {
        // Small blocks of random strength on a gray field, some strong edges,
        // some weak, some touching the picture's border; partly transparent.
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        var image = Synth.image(48, 40) { _, _ in (128, 128, 128, 255) }
        for _ in 0..<6 {
            let x0 = next(48)
            let y0 = next(40)
            let w = 1 + next(6)
            let h = 1 + next(6)
            let level = UInt8(next(256))
            let alpha: UInt8 = next(4) == 0 ? 0 : 255
            for y in y0..<min(y0 + h, 40) {
                for x in x0..<min(x0 + w, 48) {
                    image.pixels.replaceSubrange(
                        (y * 48 + x) * 4..<(y * 48 + x) * 4 + 4, with: [level, 128, 128, alpha])
                }
            }
        }
        func isEdgePixel(_ x: Int, _ y: Int) -> Bool {
            [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)].contains { (nx, ny) in
                guard (0..<48).contains(nx), (0..<40).contains(ny) else { return false }
                return (0..<4).contains { c in
                    abs(Int(image.pixels[(y * 48 + x) * 4 + c]) - Int(image.pixels[(ny * 48 + nx) * 4 + c])) >= 48
                }
            }
        }
        let table = EdgeMaskedDither.EdgeTable(image)
        var mismatches = 0
        var near = 0
        for y in 0..<40 {
            for x in 0..<48 {
                let direct = (max(y - 6, 0)...min(y + 6, 39)).contains { yy in
                    (max(x - 6, 0)...min(x + 6, 47)).contains { xx in isEdgePixel(xx, yy) }
                }
                if direct { near += 1 }
                if table.isNear(x: x, y: y) != direct { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(near > 0 && near < 48 * 40, "the picture has pixels both near and far from edges (\(near))")
    }
}
