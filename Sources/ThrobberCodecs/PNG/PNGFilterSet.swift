import FoundationEssentials
import Glibc

/// An image and PNG's five filters (None, Sub, Up, Average, Paeth), from
/// which each ``Strategy`` assembles its rows. Rows are filtered as they
/// are needed, one at a time: the set holds the image, never its five
/// filtered copies (on a 2048x2048 RGB frame, 63 MB less a worker).
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
    private let bpp: Int
    /// The unfiltered rows.
    private let source: [UInt8]
    /// Each heuristic's filter per row, worked out only when asked for.
    private var minimumSumChoice: [UInt8] = []
    private var entropyChoice: [UInt8] = []
    private var bigramChoice: [UInt8] = []

    /// `rows` holds `height` rows of `stride` bytes; `bpp` is the filter
    /// distance (bytes per pixel, at least 1). `heuristics`: the per-row
    /// strategies that will be asked for, whose choices are made here, in
    /// one pass that filters each row five ways.
    init(_ rows: [UInt8], stride: Int, height: Int, bpp: Int, heuristics: Set<Strategy> = [.minimumSum]) {
        precondition(rows.count == stride * height, "PNGFilterSet: \(rows.count) bytes for \(height) rows of \(stride)")
        self.stride = stride
        self.height = height
        self.bpp = min(max(bpp, 1), max(stride, 1))
        source = rows
        if !heuristics.isDisjoint(with: [.minimumSum, .entropy, .bigrams]) { choose(heuristics) }
    }

    /// Row `y`'s upper neighbour, or a zero row for the first.
    @inline(__always)
    private static func withRows<T>(
        _ source: UnsafeBufferPointer<UInt8>, stride: Int,
        _ body: (_ row: (Int) -> UnsafePointer<UInt8>, _ up: (Int) -> UnsafePointer<UInt8>) -> T
    ) -> T {
        let zero = UnsafeMutablePointer<UInt8>.allocate(capacity: max(stride, 1))
        zero.initialize(repeating: 0, count: max(stride, 1))
        defer { zero.deallocate() }
        let base = source.baseAddress ?? UnsafePointer(zero)  // no rows: never read
        return body({ base + $0 * stride }, { $0 > 0 ? base + ($0 - 1) * stride : UnsafePointer(zero) })
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

    /// Calls `body` with each pair of neighbouring bytes of `row` (the first
    /// byte paired with a 0 before it) as `previous << 8 | byte`, once for
    /// each run of one pair: a repeat is seen already.
    @inline(__always)
    private static func forEachPairRun(_ row: UnsafePointer<UInt8>, _ stride: Int, _ body: (Int) -> Void) {
        var previous = 0
        var last = -1
        for x in 0..<stride {
            let v = Int(row[x])
            let key = previous << 8 | v
            previous = v
            if key == last { continue }
            last = key
            body(key)
        }
    }

    /// Row filtered by `f` (0–4) into `o` (`stride` bytes).
    @inline(__always)
    private static func filterOne(
        _ f: Int, _ row: UnsafePointer<UInt8>, _ up: UnsafePointer<UInt8>, _ o: UnsafeMutablePointer<UInt8>,
        _ stride: Int, _ bpp: Int
    ) {
        switch f {
        case 0: o.update(from: row, count: stride)
        case 1:
            for x in 0..<bpp { o[x] = row[x] }
            for x in bpp..<stride { o[x] = row[x] &- row[x - bpp] }
        case 2:
            for x in 0..<stride { o[x] = row[x] &- up[x] }
        case 3:
            for x in 0..<bpp { o[x] = row[x] &- up[x] >> 1 }
            for x in bpp..<stride { o[x] = row[x] &- UInt8((UInt16(row[x - bpp]) + UInt16(up[x])) >> 1) }
        default:
            for x in 0..<bpp { o[x] = row[x] &- up[x] }
            for x in bpp..<stride {
                let a = row[x - bpp]
                let b = up[x]
                let c = up[x - bpp]
                let p = Int(a) + Int(b) - Int(c)
                let pa = abs(p - Int(a))
                let pb = abs(p - Int(b))
                let pc = abs(p - Int(c))
                o[x] = row[x] &- (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
            }
        }
    }

    /// The per-row choices of `heuristics`: each row is filtered five ways
    /// into one buffer, and each way is scored by all of them.
    // Long: one pass over the rows that scores each filtered copy by every heuristic while it is in the cache.
    private mutating func choose(_ heuristics: Set<Strategy>) {
        let size = stride  // the five filtered copies of one row
        let (wantSum, wantEntropy, wantBigrams) =
            (heuristics.contains(.minimumSum), heuristics.contains(.entropy), heuristics.contains(.bigrams))
        var sums = [UInt8](repeating: 0, count: wantSum ? height : 0)
        var entropies = [UInt8](repeating: 0, count: wantEntropy ? height : 0)
        var bigrams = [UInt8](repeating: 0, count: wantBigrams ? height : 0)
        // c·log2(c) for every count a row can hold: a row's entropy is
        // n·log2(n) − Σ c·log2(c), and n is the same for every filter.
        let plogp = wantEntropy ? (0...stride).map { $0 == 0 ? 0 : Double($0) * log2(Double($0)) } : [0]
        let counts = UnsafeMutablePointer<Int32>.allocate(capacity: 1024)
        counts.initialize(repeating: 0, count: 1024)
        let seen = UnsafeMutablePointer<UInt64>.allocate(capacity: 1024)
        seen.initialize(repeating: 0, count: 1024)
        defer {
            counts.deallocate()
            seen.deallocate()
        }
        let (stride, height, bpp) = (stride, height, bpp)
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: 5 * max(stride, 1))
        defer { filtered.deallocate() }
        source.withUnsafeBufferPointer { s in
            Self.withRows(s, stride: stride) { rowAt, upAt in
                plogp.withUnsafeBufferPointer { plogp in
                    for y in 0..<height {
                        Self.filterRow(rowAt(y), upAt(y), filtered, size, stride, bpp)
                        var bestSum = Int.max
                        var bestEntropy = Double.infinity
                        var bestBigrams = Int.max
                        for g in 0..<5 {
                            let row = UnsafePointer(filtered + g * size)
                            if wantSum {
                                var s = 0
                                for x in 0..<stride { s &+= Int(Int8(bitPattern: row[x]).magnitude) }
                                if s < bestSum {
                                    bestSum = s
                                    sums[y] = UInt8(g)
                                }
                            }
                            if wantEntropy {
                                // −Σ c·log2(c): the smaller, the lower the entropy.
                                // Four histograms, so that a run of one value
                                // does not wait on its own count.
                                var x = 0
                                while x + 4 <= stride {
                                    counts[Int(row[x])] &+= 1
                                    counts[256 + Int(row[x + 1])] &+= 1
                                    counts[512 + Int(row[x + 2])] &+= 1
                                    counts[768 + Int(row[x + 3])] &+= 1
                                    x += 4
                                }
                                while x < stride {
                                    counts[Int(row[x])] &+= 1
                                    x += 1
                                }
                                var score = 0.0
                                for v in 0..<256 {
                                    let c = Int(counts[v] &+ counts[256 + v] &+ counts[512 + v] &+ counts[768 + v])
                                    score -= plogp[c]
                                }
                                counts.update(repeating: 0, count: 1024)
                                if score < bestEntropy {
                                    bestEntropy = score
                                    entropies[y] = UInt8(g)
                                }
                            }
                            if wantBigrams {
                                // A bit per pair (8 KiB, in the L1 cache), set
                                // along the row, then cleared along it again.
                                var distinct = 0
                                Self.forEachPairRun(row, stride) { key in
                                    let bit = UInt64(1) << UInt64(key & 63)
                                    if seen[key >> 6] & bit == 0 {
                                        seen[key >> 6] |= bit
                                        distinct &+= 1
                                    }
                                }
                                Self.forEachPairRun(row, stride) { seen[$0 >> 6] = 0 }
                                if distinct < bestBigrams {
                                    bestBigrams = distinct
                                    bigrams[y] = UInt8(g)
                                }
                            }
                        }
                    }
                }
            }
        }
        minimumSumChoice = sums
        entropyChoice = entropies
        bigramChoice = bigrams
    }

    /// The filter `strategy` gives each row. A per-row strategy must have
    /// been among the set's heuristics.
    func choice(_ strategy: Strategy) -> [UInt8] {
        let choice: [UInt8]
        switch strategy {
        case .none, .sub, .up, .average, .paeth:
            let f = UInt8(Strategy.allCases.firstIndex(of: strategy)!)
            choice = [UInt8](repeating: f, count: height)
        case .minimumSum: choice = minimumSumChoice
        case .entropy: choice = entropyChoice
        case .bigrams: choice = bigramChoice
        }
        precondition(choice.count == height, "\(strategy) was not among the filter set's heuristics")
        return choice
    }

    /// The filtered image as PNG stores it: each row preceded by its filter
    /// type.
    func rows(_ strategy: Strategy) -> [UInt8] { rows(choice: choice(strategy)) }

    /// The image with row y filtered by `choice[y]` (0–4).
    func rows(choice: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        filter(choice: choice, bands: false, into: &out)
        return out
    }

    /// Writes the image filtered by `choice` into `out`, reusing its
    /// storage. `bands`: only every other band of `PNGTuning.sampleBand`
    /// rows (the first, the third, …), which ranks the strategies for half
    /// the deflate time.
    func filter(choice: [UInt8], bands: Bool, into out: inout [UInt8]) {
        let rows = bands ? (0..<height).filter { $0 / PNGTuning.sampleBand % 2 == 0 } : Array(0..<height)
        let count = (stride + 1) * rows.count
        if out.count != count { out = [UInt8](repeating: 0, count: count) }
        let (stride, bpp) = (stride, bpp)
        source.withUnsafeBufferPointer { s in
            Self.withRows(s, stride: stride) { rowAt, upAt in
                out.withUnsafeMutableBufferPointer { o in
                    for (k, y) in rows.enumerated() {
                        let f = Int(choice[y])
                        o[k * (stride + 1)] = UInt8(f)
                        Self.filterOne(f, rowAt(y), upAt(y), o.baseAddress! + k * (stride + 1) + 1, stride, bpp)
                    }
                }
            }
        }
    }
}
