internal import CZlib
import ThrobberCore

/// Reverses PNG's per-row filters (None, Sub, Up, Average, Paeth) in place.
enum PNGUnfilter {
    /// The value filter type `f` predicts from the bytes to the left (a),
    /// above (b) and above-left (c): None, Sub, Up, Average, Paeth.
    @inline(__always)
    static func predict(_ f: UInt8, _ a: Int, _ b: Int, _ c: Int) -> Int {
        switch f {
        case 0: return 0
        case 1: return a
        case 2: return b
        case 3: return (a + b) >> 1
        default:
            let p = a + b - c
            let pa = abs(p - a)
            let pb = abs(p - b)
            let pc = abs(p - c)
            return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        }
    }

    /// `data` holds `height` rows of 1 filter byte plus `stride` bytes;
    /// returns the rows without filter bytes.
    static func apply(_ data: [UInt8], stride: Int, height: Int, bpp: Int, name: String) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: stride * height)
        try data.withUnsafeBufferPointer { src in
            try out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let filter = src[y * (stride + 1)]
                    let s = src.baseAddress! + y * (stride + 1) + 1
                    let d = dst.baseAddress! + y * stride
                    let up: UnsafeMutablePointer<UInt8>? = y > 0 ? d - stride : nil
                    for x in 0..<stride {
                        let a = x >= bpp ? Int(d[x - bpp]) : 0
                        let b = up.map { Int($0[x]) } ?? 0
                        let c = (x >= bpp ? up.map { Int($0[x - bpp]) } : nil) ?? 0
                        guard filter <= 4 else {
                            throw ThrobberError(.data, "\(name): bad PNG filter type \(filter) in row \(y)")
                        }
                        let predictor = predict(filter, a, b, c)
                        d[x] = UInt8(truncatingIfNeeded: Int(s[x]) + predictor)
                    }
                }
            }
        }
        return out
    }
}
