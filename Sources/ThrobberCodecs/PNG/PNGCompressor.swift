import ThrobberCore

/// Turns rows of pixels into PNG image data: PNG's row filters, then a zlib
/// stream. Pure and thread-safe, so frames compress in parallel.
public struct PNGCompressor: Sendable {
    /// How hard the compressor works: a trade of time for size
    /// (docs/benchmarks.md, "APNG size (issue #16)").
    public enum Effort: String, Sendable, CaseIterable {
        /// One filter heuristic (the smallest sum of residuals per row) and
        /// one deflate pass.
        case fast
        /// Every filter strategy tried at a quick deflate level, the
        /// smallest kept and deflated with libdeflate's level 10.
        case best
        /// As `best`, then the winner deflated again with zopfli, keeping
        /// the smaller stream.
        case max
        /// A quick deflate only: to compare two encodings of a frame.
        case trial
    }

    /// The effort; default ``Effort/best``.
    public var effort: Effort = .best

    /// A compressor working at `effort`.
    public init(effort: Effort = .best) { self.effort = effort }

    /// `rows` holds `height` rows of `stride` bytes, `bpp` bytes per pixel
    /// (1 for palette indices and bit depths below 8). Returns the zlib
    /// stream for IDAT/fdAT.
    func compress(_ rows: [UInt8], stride: Int, height: Int, bpp: Int) throws -> [UInt8] {
        try compress(variants: [rows], stride: stride, height: height, bpp: bpp).data
    }

    /// The smallest zlib stream of any of `variants` (the same rectangle
    /// encoded differently, such as for blend SOURCE and OVER), and which
    /// variant it encodes. The variant is chosen with the minimum-sum
    /// filter at the trial level; `best` and `max` then try every filter
    /// strategy on it.
    /// `indexed`: palette indices, which `fast` leaves unfiltered (PNG's
    /// own advice) where it filters other images by minimum sum.
    package func compress(variants: [[UInt8]], stride: Int, height: Int, bpp: Int, indexed: Bool = false) throws
        -> (variant: Int, data: [UInt8])
    {
        let sets = variants.map { PNGFilterSet($0, stride: stride, height: height, bpp: bpp) }
        let first: PNGFilterSet.Strategy = indexed && effort == .fast ? .none : .minimumSum
        var chosen = 0
        var rows = sets[0].rows(first)
        if sets.count > 1 {
            var smallest = try Self.trial(rows).count
            for i in 1..<sets.count {
                let candidate = sets[i].rows(first)
                let size = try Self.trial(candidate).count
                if size < smallest {
                    smallest = size
                    chosen = i
                    rows = candidate
                }
            }
        }
        guard effort == .best || effort == .max else { return (chosen, try compress(filtered: rows)) }
        var smallest = try Self.trial(rows).count
        for strategy in PNGFilterSet.Strategy.allCases where strategy != first {
            let candidate = sets[chosen].rows(strategy)
            let size = try Self.trial(candidate).count
            if size < smallest {
                smallest = size
                rows = candidate
            }
        }
        return (chosen, try compress(filtered: rows))
    }

    /// Filtered rows (each with its filter type byte) as a zlib stream at
    /// this effort's final deflate.
    package func compress(filtered: [UInt8]) throws -> [UInt8] {
        switch effort {
        case .trial: return try Self.trial(filtered)
        case .fast: return try Deflate.libdeflate(filtered, level: Self.fastLevel)
        case .best: return try Deflate.libdeflate(filtered, level: Self.bestLevel)
        case .max:
            let strong = try Deflate.libdeflate(filtered, level: Self.bestLevel)
            let zopfli = Deflate.zopfli(filtered, iterations: Self.zopfliIterations)
            return zopfli.isEmpty || zopfli.count >= strong.count ? strong : zopfli
        }
    }

    /// The rows of an image filtered as `fast` does (every row by the
    /// minimum-sum heuristic).
    package static func filter(_ rows: [UInt8], stride: Int, height: Int, bpp: Int) -> [UInt8] {
        PNGFilterSet(rows, stride: stride, height: height, bpp: bpp).rows(.minimumSum)
    }

    private static func trial(_ filtered: [UInt8]) throws -> [UInt8] {
        try Deflate.libdeflate(filtered, level: trialLevel)
    }

    // Levels chosen by measurement (docs/benchmarks.md, "APNG size (issue
    // #16)"): libdeflate 6 is smaller and faster than zlib 6; libdeflate 10
    // is 4–5 % smaller than zlib 8 in the same time, where 11 and 12 save
    // 1–2 % more at two to four times the time; trial level 1 ranks filter
    // strategies as well as level 6 does.
    static let trialLevel: Int32 = 1
    static let fastLevel: Int32 = 6
    static let bestLevel: Int32 = 10
    static let zopfliIterations: Int32 = 15
}
