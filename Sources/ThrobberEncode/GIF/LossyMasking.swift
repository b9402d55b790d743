/// Where lossy LZW may change a pixel less: in flat parts of the source.
/// A color shifted a few levels inside a flat area (a white margin, a
/// still dark background) stands out where the same shift beside an edge
/// or in texture is masked by it, and SSIM counts it so too: in a flat
/// window its structure term is all the error's own variance. A pixel
/// whose 3x3 neighborhood has no luma step above
/// `GIFTuning.lossyFlatContrast` weighs its distances
/// `GIFTuning.lossyFlatWeight` times.
enum LossyMasking {
    /// Per pixel of a `width`-wide rectangle of `pixels` (RGBA, row by
    /// row), the weight of its distances (`LossyLZW.Cell.weight`).
    static func weights(_ pixels: [UInt32], width: Int) -> [UInt8] {
        let n = pixels.count
        guard width > 0, n > 0 else { return [] }
        let height = n / width
        var weights = [UInt8](repeating: 1, count: n)
        // Per pixel: whether a step to a neighbor is above the contrast
        // (bit 0), and then whether a pixel of its row's three is (bit 1).
        var steep = [UInt8](repeating: 0, count: n)
        pixels.withUnsafeBufferPointer { src in
            steep.withUnsafeMutableBufferPointer { s in
                weights.withUnsafeMutableBufferPointer { w in
                    markSteps(src, s, width: width, height: height)
                    for y in 0..<height {
                        let row = y * width
                        for x in 0..<width {
                            let i = row + x
                            let left = x > 0 ? s[i - 1] : 0
                            let right = x + 1 < width ? s[i + 1] : 0
                            s[i] |= ((s[i] | left | right) & 1) << 1
                        }
                    }
                    for i in 0..<n {
                        let up = i >= width ? s[i - width] : 0
                        let down = i + width < n ? s[i + width] : 0
                        if (s[i] | up | down) & 2 == 0 { w[i] = GIFTuning.lossyFlatWeight }
                    }
                }
            }
        }
        return weights
    }

    /// Sets bit 0 of `steep` on both pixels of every step to the right or
    /// down neighbor of more than `GIFTuning.lossyFlatContrast` levels of
    /// luma.
    private static func markSteps(
        _ src: UnsafeBufferPointer<UInt32>, _ steep: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int
    ) {
        let contrast = Int32(GIFTuning.lossyFlatContrast)
        @inline(__always) func luma(_ v: UInt32) -> Int32 {
            Int32((77 * (v & 0xFF) + 150 * (v >> 8 & 0xFF) + 29 * (v >> 16 & 0xFF)) >> 8)
        }
        var above = [Int32](repeating: 0, count: width)
        for y in 0..<height {
            let row = y * width
            var left: Int32 = 0
            for x in 0..<width {
                let i = row + x
                let l = luma(src[i])
                if x > 0, abs(l - left) > contrast {
                    steep[i] |= 1
                    steep[i - 1] |= 1
                }
                if y > 0, abs(l - above[x]) > contrast {
                    steep[i] |= 1
                    steep[i - width] |= 1
                }
                above[x] = l
                left = l
            }
        }
    }
}
