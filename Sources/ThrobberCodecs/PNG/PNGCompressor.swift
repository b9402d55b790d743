import ThrobberCore

/// Turns rows of pixels into PNG image data: PNG's row filters, then a zlib
/// stream. Pure and thread-safe, so frames compress in parallel.
public struct PNGCompressor: Sendable {
    /// How hard the compressor works: a trade of time for size
    /// (docs/tuning.md, "APNG size").
    public enum Effort: String, Sendable, CaseIterable {
        /// One filter heuristic (the smallest sum of residuals per row) and
        /// one deflate pass.
        case fast
        /// The filter strategies that win in practice tried at a quick
        /// deflate level on half the rows, the smallest deflated with
        /// libdeflate's level 11.
        case best
        /// Every filter strategy tried on every row, the smallest deflated
        /// with libdeflate 12 and with zopfli, keeping the smaller stream.
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
    /// variant it encodes. `fast` picks the variant by one filter
    /// heuristic at the trial level; `best` and `max` try each filter
    /// strategy on every variant at the trial level and deflate the
    /// smallest: which variant wins depends on the filter (a color key's
    /// runs favour no filter, photographic pixels Sub), so the two are
    /// chosen together.
    /// `indexed`: palette indices, which `fast` leaves unfiltered (PNG's
    /// own advice) where it filters other images by minimum sum.
    package func compress(variants: [[UInt8]], stride: Int, height: Int, bpp: Int, indexed: Bool = false) throws
        -> (variant: Int, data: [UInt8])
    {
        let strategies = strategies(indexed: indexed)
        let single = variants.count * strategies.count == 1
        // `best` ranks on every other band of rows (`PNGTuning.sampleBand`).
        let sample = effort == .best && height >= PNGTuning.sampleMinimumBands * PNGTuning.sampleBand
        var chosen = 0
        var best: (set: PNGFilterSet, choice: [UInt8])? = nil
        var smallest = Int.max
        var scratch: [UInt8] = []
        for (i, variant) in variants.enumerated() {
            let set = PNGFilterSet(variant, stride: stride, height: height, bpp: bpp, heuristics: Set(strategies))
            // Strategies that choose the same filters (a heuristic that
            // picks None on every row, say) are tried once.
            var tried = Set<[UInt8]>()
            for strategy in strategies {
                let choice = set.choice(strategy)
                guard tried.insert(choice).inserted else { continue }
                var size = 0  // one candidate needs no trial
                if !single {
                    set.filter(choice: choice, bands: sample, into: &scratch)
                    size = try Deflate.libdeflateSize(scratch, level: PNGTuning.trialLevel)
                }
                if size < smallest {
                    smallest = size
                    chosen = i
                    best = (set, choice)
                }
            }
        }
        guard let best else { throw ThrobberError(.software, "PNG: a frame without rows to compress") }
        best.set.filter(choice: best.choice, bands: false, into: &scratch)
        return (chosen, try compress(filtered: scratch))
    }

    /// The filter strategies this effort tries (`best`:
    /// `PNGTuning.bestStrategies`).
    private func strategies(indexed: Bool) -> [PNGFilterSet.Strategy] {
        switch effort {
        case .max: PNGFilterSet.Strategy.allCases
        case .best: PNGTuning.bestStrategies
        case .fast, .trial: [indexed ? .none : .minimumSum]
        }
    }

    /// Filtered rows (each with its filter type byte) as a zlib stream at
    /// this effort's final deflate.
    package func compress(filtered: [UInt8]) throws -> [UInt8] {
        switch effort {
        case .trial: return try Deflate.libdeflate(filtered, level: PNGTuning.trialLevel)
        case .fast: return try Deflate.libdeflate(filtered, level: PNGTuning.fastLevel)
        case .best: return try Deflate.libdeflate(filtered, level: PNGTuning.bestLevel)
        case .max:
            let strong = try Deflate.libdeflate(filtered, level: PNGTuning.maxLevel)
            let zopfli = Deflate.zopfli(filtered, iterations: PNGTuning.zopfliPasses(filtered.count))
            return zopfli.isEmpty || zopfli.count >= strong.count ? strong : zopfli
        }
    }

    /// The rows of an image filtered as `fast` does (every row by the
    /// minimum-sum heuristic).
    package static func filter(_ rows: [UInt8], stride: Int, height: Int, bpp: Int) -> [UInt8] {
        PNGFilterSet(rows, stride: stride, height: height, bpp: bpp).rows(.minimumSum)
    }
}
