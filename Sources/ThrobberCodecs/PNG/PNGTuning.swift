/// The PNG compressor's tuned constants (filters and deflate, for APNG and
/// PNG stills), each with what it trades and the section of
/// `docs/tuning.md` that measured it on the benchmark corpora
/// ("APNG size", "APNG: choosing the deflate"; current sizes in docs/benchmarks.md, "APNG").
package enum PNGTuning {
    /// libdeflate level that ranks filter strategies and variants against
    /// each other: trades trial time for the ranking ("APNG:
    /// choosing the deflate"). Level 1 ranks the candidates better than levels 2–4 do.
    static let trialLevel: Int32 = 1

    /// libdeflate level of `--compression fast`: trades size for time
    /// ("APNG: choosing the deflate"). Smaller and faster than zlib 6.
    static let fastLevel: Int32 = 6

    /// libdeflate level of `--compression best`: trades size for time
    /// ("APNG: choosing the deflate"). 0.5–1.6 % smaller than 10 for 10–20 % more
    /// time on the corpora, where 12 saves 0.1–1 % more but costs 2.7 times
    /// 11's deflate on drawn content, too slow for `best`.
    static let bestLevel: Int32 = 11

    /// libdeflate level of `--compression max`, raced against zopfli: the
    /// smallest libdeflate writes, whatever the time ("APNG: choosing
    /// the deflate").
    static let maxLevel: Int32 = 12

    /// zopfli's passes for `bytes` of filtered rows (`--compression max`):
    /// trades size for time ("APNG size"). 15 (its default) up to 64 KiB,
    /// fewer above, down to 1 from 4 MiB, so that a large frame takes
    /// seconds rather than minutes; on the corpora the first pass gives
    /// most of zopfli's gain (7,369 B against 7,288 after 15 on a frame,
    /// libdeflate 12: 7,667 B).
    static func zopfliPasses(_ bytes: Int) -> Int32 {
        let steps: [(Int, Int32)] = [(64 << 10, 15), (256 << 10, 5), (1 << 20, 3), (4 << 20, 2)]
        return steps.first { bytes <= $0.0 }?.1 ?? 1
    }

    /// The filter strategies `--compression best` tries: trades trial time
    /// for size ("APNG size"). The fixed Up, Average and Paeth filters are
    /// left out: they won no frame of the benchmark corpora, presets or
    /// photographs (the per-row heuristics use them row by row).
    static let bestStrategies: [PNGFilterSet.Strategy] = [.none, .sub, .minimumSum, .entropy, .bigrams]

    /// Rows in a band when `best` ranks strategies on every other band:
    /// trades trial time for the ranking ("APNG size"). As good a ranking
    /// on the corpora (±0.2 %) for half the trial time.
    static let sampleBand = 16

    /// Bands an image needs before `best` ranks on every other one:
    /// smaller images are ranked whole ("APNG size").
    static let sampleMinimumBands = 4
}
