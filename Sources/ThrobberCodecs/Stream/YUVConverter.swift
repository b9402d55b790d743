import ThrobberCore

/// Y'CbCr planes → opaque RGBA, with exact rounding: each output level is
/// the conversion computed in 20-bit fixed point (from double-precision
/// coefficients) and rounded half up, so it is within half a level of the
/// real-number result and the same on every machine.
///
/// Chroma is upsampled by replication: each Cb/Cr sample covers the 2x2
/// (4:2:0) or 2x1 (4:2:2) pixels it was taken from, as ffmpeg's default
/// yuv420p/yuv422p → rgb24 conversion does (its "neighbor" chroma). The
/// chroma siting of 420jpeg, 420mpeg2 and 420paldv is not told apart.
struct YUVConverter: Sendable {
    let format: YUVFormat
    private static let shift = 20
    /// Per-sample contributions, already scaled by 2^shift: luma, Cr to
    /// red, Cb and Cr to green, Cb to blue.
    private let luma: [Int]
    private let crRed: [Int]
    private let cbGreen: [Int]
    private let crGreen: [Int]
    private let cbBlue: [Int]

    init(_ format: YUVFormat) {
        self.format = format
        let (kr, kb) = format.matrix.weights
        let kg = 1 - kr - kb
        let yScale = format.fullRange ? 1.0 : 255.0 / 219.0
        let cScale = format.fullRange ? 1.0 : 255.0 / 224.0
        let yOffset = format.fullRange ? 0.0 : 16.0
        let one = Double(1 << Self.shift)
        func table(_ f: (Double) -> Double) -> [Int] { (0..<256).map { Int((f(Double($0)) * one).rounded()) } }
        luma = table { ($0 - yOffset) * yScale }
        crRed = table { ($0 - 128) * cScale * 2 * (1 - kr) }
        cbGreen = table { -($0 - 128) * cScale * 2 * kb * (1 - kb) / kg }
        crGreen = table { -($0 - 128) * cScale * 2 * kr * (1 - kr) / kg }
        cbBlue = table { ($0 - 128) * cScale * 2 * (1 - kb) }
    }

    /// The frame held in `planes` (``YUVFormat/frameBytes`` bytes: Y', Cb, Cr).
    func image(_ planes: [UInt8]) -> RGBAImage {
        let w = format.width
        let h = format.height
        let (cw, ch) = format.chromaSize
        let (sx, sy) = format.shifts
        let half = 1 << (Self.shift - 1)
        let shift = Self.shift
        let mono = format.chroma == .mono
        var pixels = [UInt8](repeating: 255, count: w * h * 4)
        func level(_ v: Int) -> UInt8 { UInt8(clamping: (v + half) >> shift) }
        planes.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let row = y * w
                    let cRow = w * h + (y >> sy) * cw
                    for x in 0..<w {
                        let l = luma[Int(src[row + x])]
                        let o = (row + x) * 4
                        if mono {
                            let g = level(l)
                            (dst[o], dst[o + 1], dst[o + 2]) = (g, g, g)
                            continue
                        }
                        let cb = Int(src[cRow + (x >> sx)])
                        let cr = Int(src[cRow + cw * ch + (x >> sx)])
                        dst[o] = level(l + crRed[cr])
                        dst[o + 1] = level(l + cbGreen[cb] + crGreen[cr])
                        dst[o + 2] = level(l + cbBlue[cb])
                    }
                }
            }
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }
}
