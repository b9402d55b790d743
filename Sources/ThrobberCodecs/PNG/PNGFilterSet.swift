import FoundationEssentials
import Glibc

/// An image run through all five PNG filters (None, Sub, Up, Average,
/// Paeth) once, from which each ``Strategy`` assembles its rows.
struct PNGFilterSet {
    /// How the filter of each row is chosen.
    enum Strategy: CaseIterable, Sendable {
        /// The same filter on every row.
        case none, sub, up, average, paeth
        /// Per row, the smallest sum of absolute signed residuals (libpng's
        /// heuristic, and what `--compression fast` uses).
        case minimumSum
        /// Per row, the residual bytes of lowest Shannon entropy.
        case entropy
        /// Per row, the fewest distinct pairs of neighbouring residual bytes.
        case bigrams
    }

    let stride: Int
    let height: Int
    /// The image under filter f at [f * stride * height ...].
    private var planes: [UInt8]

    /// `rows` holds `height` rows of `stride` bytes; `bpp` is the filter
    /// distance (bytes per pixel, at least 1).
    init(_ rows: [UInt8], stride: Int, height: Int, bpp: Int) {
        self.stride = stride
        self.height = height
        let size = stride * height
        var planes = [UInt8](repeating: 0, count: 5 * size)
        let zero = [UInt8](repeating: 0, count: stride)
        rows.withUnsafeBufferPointer { s in
            zero.withUnsafeBufferPointer { z in
                planes.withUnsafeMutableBufferPointer { p in
                    for y in 0..<height {
                        let row = s.baseAddress! + y * stride
                        let up = y > 0 ? row - stride : z.baseAddress!
                        let o = p.baseAddress! + y * stride
                        Self.filterRow(row, up, o, size, stride, min(bpp, stride))
                    }
                }
            }
        }
        self.planes = planes
    }

    @inline(__always)
    private static func filterRow(
        _ row: UnsafePointer<UInt8>, _ up: UnsafePointer<UInt8>, _ o: UnsafeMutablePointer<UInt8>, _ size: Int,
        _ stride: Int, _ bpp: Int
    ) {
        for x in 0..<bpp {
            let v = row[x]
            let b = up[x]
            o[x] = v
            o[size + x] = v
            o[2 * size + x] = v &- b
            o[3 * size + x] = v &- b >> 1
            o[4 * size + x] = v &- b
        }
        for x in bpp..<stride {
            let v = row[x]
            let a = row[x - bpp]
            let b = up[x]
            let c = up[x - bpp]
            o[x] = v
            o[size + x] = v &- a
            o[2 * size + x] = v &- b
            o[3 * size + x] = v &- UInt8((UInt16(a) + UInt16(b)) >> 1)
            let p = Int(a) + Int(b) - Int(c)
            let pa = abs(p - Int(a))
            let pb = abs(p - Int(b))
            let pc = abs(p - Int(c))
            o[4 * size + x] = v &- (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
        }
    }

    /// The filtered image as PNG stores it: each row preceded by its filter
    /// type.
    func rows(_ strategy: Strategy) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (stride + 1) * height)
        let size = stride * height
        var seen = strategy == .bigrams ? [UInt32](repeating: 0, count: 65536) : []
        planes.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    let f: Int
                    switch strategy {
                    case .none: f = 0
                    case .sub: f = 1
                    case .up: f = 2
                    case .average: f = 3
                    case .paeth: f = 4
                    case .minimumSum, .entropy, .bigrams:
                        var best = 0
                        var bestCost = Double.infinity
                        for g in 0..<5 {
                            let row = UnsafeBufferPointer(
                                rebasing: p[(g * size + y * stride)..<(g * size + y * stride + stride)])
                            let cost: Double
                            switch strategy {
                            case .minimumSum: cost = Double(Self.sum(row))
                            case .entropy: cost = Self.entropy(row)
                            default: cost = Double(Self.bigrams(row, &seen, stamp: UInt32(y * 5 + g + 1)))
                            }
                            if cost < bestCost {
                                bestCost = cost
                                best = g
                            }
                        }
                        f = best
                    }
                    o[y * (stride + 1)] = UInt8(f)
                    let src = p.baseAddress! + f * size + y * stride
                    (o.baseAddress! + y * (stride + 1) + 1).update(from: src, count: stride)
                }
            }
        }
        return out
    }

    private static func sum(_ row: UnsafeBufferPointer<UInt8>) -> Int {
        var s = 0
        for v in row { s += Int(Int8(bitPattern: v).magnitude) }
        return s
    }

    private static func entropy(_ row: UnsafeBufferPointer<UInt8>) -> Double {
        var counts = [Int](repeating: 0, count: 256)
        for v in row { counts[Int(v)] += 1 }
        var bits = 0.0
        for c in counts where c > 0 { bits -= Double(c) * log2(Double(c)) }
        return bits
    }

    private static func bigrams(_ row: UnsafeBufferPointer<UInt8>, _ seen: inout [UInt32], stamp: UInt32) -> Int {
        var distinct = 0
        var previous = 0
        for v in row {
            let key = previous << 8 | Int(v)
            if seen[key] != stamp {
                seen[key] = stamp
                distinct += 1
            }
            previous = Int(v)
        }
        return distinct
    }
}
