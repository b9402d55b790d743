import Testing

@testable import ThrobberEncode

/// Where lossy LZW weighs distances more (`LossyMasking`): pixels whose
/// 3x3 neighborhood is flat in luma.
@Suite("Lossy masking: flat parts of the source")
struct LossyMaskingTests {
    static func gray(_ v: UInt32) -> UInt32 { 0xFF00_0000 | v << 16 | v << 8 | v }

    @Test("a flat picture, or one with steps of a single level, is flat everywhere")
    func flat() {
        let plain = [UInt32](repeating: Self.gray(200), count: 8 * 5)
        #expect(LossyMasking.weights(plain, width: 8) == [UInt8](repeating: 64, count: 40))
        // A ramp of one level a column: still flat.
        let ramp = (0..<40).map { Self.gray(100 + UInt32($0 % 8)) }
        #expect(LossyMasking.weights(ramp, width: 8) == [UInt8](repeating: 64, count: 40))
    }

    @Test("a step of two levels takes the pixels within one of it out of the flat part, across rows and columns")
    func step() {
        // 7 wide, 5 high: a vertical edge between columns 3 and 4.
        let (w, h) = (7, 5)
        let pixels = (0..<(w * h)).map { Self.gray($0 % w >= 4 ? 202 : 200) }
        let weights = LossyMasking.weights(pixels, width: w)
        for y in 0..<h {
            for x in 0..<w {
                // Columns 3 and 4 hold the step; 2 and 5 see it in their 3x3.
                let expected: UInt8 = (2...5).contains(x) ? 1 : 64
                #expect(weights[y * w + x] == expected, "(\(x), \(y))")
            }
        }
        // A horizontal edge the same, and a lone bright pixel in a flat field.
        let rows = (0..<(w * h)).map { Self.gray($0 / w >= 2 ? 210 : 200) }
        let across = LossyMasking.weights(rows, width: w)
        #expect((0..<w).allSatisfy { across[$0] == 1 && across[4 * w + $0] == 64 })
        var dot = [UInt32](repeating: Self.gray(0), count: w * h)
        dot[2 * w + 3] = Self.gray(40)
        let around = LossyMasking.weights(dot, width: w)
        // Steep: the dot and its four neighbors; within one of those
        // (rows and columns both), not flat.
        let steep = [(3, 2), (2, 2), (4, 2), (3, 1), (3, 3)]
        for y in 0..<h {
            for x in 0..<w {
                let near = steep.contains { abs($0.0 - x) <= 1 && abs($0.1 - y) <= 1 }
                #expect(around[y * w + x] == (near ? 1 : 64), "(\(x), \(y))")
            }
        }
    }

    @Test("luma decides: a step in blue alone weighs little, in green much")
    func luma() {
        // Blue +4 moves luma by under one level; green +4 by more than 2.
        let blue = (0..<9).map { $0 % 3 == 2 ? 0xFF04_0000 as UInt32 : 0xFF00_0000 }
        #expect(LossyMasking.weights(blue, width: 3) == [UInt8](repeating: 64, count: 9))
        let green = (0..<9).map { $0 % 3 == 2 ? 0xFF00_0400 as UInt32 : 0xFF00_0000 }
        #expect(LossyMasking.weights(green, width: 3) == [UInt8](repeating: 1, count: 9))
    }
}
