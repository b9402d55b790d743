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
        // `best` ranks on every other band of rows: as good a ranking on the
        // benchmark corpora (±0.2 %) for half the trial time.
        let sample = effort == .best && height >= 4 * PNGFilterSet.band
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
                    size = try Deflate.libdeflateSize(scratch, level: Self.trialLevel)
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

    /// The filter strategies this effort tries. `best` leaves out the
    /// fixed Up, Average and Paeth filters, which won no frame of the
    /// benchmark corpora, presets or photographs (the per-row heuristics
    /// use them row by row).
    private func strategies(indexed: Bool) -> [PNGFilterSet.Strategy] {
        switch effort {
        case .max: PNGFilterSet.Strategy.allCases
        case .best: [.none, .sub, .minimumSum, .entropy, .bigrams]
        case .fast, .trial: [indexed ? .none : .minimumSum]
        }
    }

    /// Filtered rows (each with its filter type byte) as a zlib stream at
    /// this effort's final deflate.
    package func compress(filtered: [UInt8]) throws -> [UInt8] {
        switch effort {
        case .trial: return try Deflate.libdeflate(filtered, level: Self.trialLevel)
        case .fast: return try Deflate.libdeflate(filtered, level: Self.fastLevel)
        case .best: return try Deflate.libdeflate(filtered, level: Self.bestLevel)
        case .max:
            let strong = try Deflate.libdeflate(filtered, level: 12)
            let zopfli = Deflate.zopfli(filtered, iterations: Self.zopfliIterations(filtered.count))
            return zopfli.isEmpty || zopfli.count >= strong.count ? strong : zopfli
        }
    }

    /// The rows of an image filtered as `fast` does (every row by the
    /// minimum-sum heuristic).
    package static func filter(_ rows: [UInt8], stride: Int, height: Int, bpp: Int) -> [UInt8] {
        PNGFilterSet(rows, stride: stride, height: height, bpp: bpp).rows(.minimumSum)
    }

    // Levels chosen by measurement (docs/tuning.md, "APNG: choosing the deflate"):
    // libdeflate 6 is smaller and faster than zlib 6; libdeflate 11
    // is 0.5–1.6 % smaller than 10 for 10–20 % more time on the corpora,
    // where 12 saves 0.1–1 % more but costs 2.7 times 11's deflate on drawn
    // content (testsrc2), too slow for `best`; trial level 1 ranks
    // the candidates better than levels 2–4 do.
    static let trialLevel: Int32 = 1
    static let fastLevel: Int32 = 6
    static let bestLevel: Int32 = 11

    /// zopfli's passes for `bytes` of filtered rows: 15 (its default) up
    /// to 64 KiB, fewer above, down to 1 from 4 MiB, so that a large
    /// frame takes seconds rather than minutes; on the corpora the first
    /// pass gives most of zopfli's gain (7,369 B against 7,288 after 15 on
    /// a testsrc2 frame, libdeflate 12: 7,667 B).
    static func zopfliIterations(_ bytes: Int) -> Int32 {
        let steps: [(Int, Int32)] = [(64 << 10, 15), (256 << 10, 5), (1 << 20, 3), (4 << 20, 2)]
        return steps.first { bytes <= $0.0 }?.1 ?? 1
    }
}
