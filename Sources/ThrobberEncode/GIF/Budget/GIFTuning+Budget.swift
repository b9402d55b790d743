extension GIFTuning {
    // MARK: - Byte budget (`GIFBudget`), measured in docs/tuning.md, "Byte budgets"

    /// The lossy levels of a budget step, from the asked level up. A pass
    /// writes only the lowest and the highest; levels between come from
    /// the same palettized frames, LZW only. Trades: more levels per pass
    /// cost an LZW coder each, fewer leave wider gaps to search.
    static let budgetLevels = [0, 25, 50, 100, 200]

    /// The share of the budget a file must fill for the level search to
    /// stop (97 %). Trades: each round more costs two lossy LZW passes for
    /// a few tenths of a dB.
    static let budgetEnough = 0.97

    /// The share of the budget that colors chosen between two steps aim
    /// at (`GIFBudget.colorsBetween`). Trades: higher fills more of the
    /// budget, but a miss costs the step.
    static let fillShare = 0.99

    /// Rounds of two more lossy levels between a step's levels
    /// (`GIFLevelSearch.levels`). Trades: a round is two LZW passes.
    static let levelRounds = 3

    /// Rounds of looks (files written to their checkpoint only) before
    /// each round of whole files. Trades: a look is a quarter of a level's
    /// LZW; two rounds of looks replaced a round of whole files.
    static let lookRounds = 2

    /// The shares of the budget the two whole files after looks aim at:
    /// with the looks' scale error of −2.4 … +2.7 %, one or the other
    /// fills 97–100 % of the budget. Trades: aims nearer 100 % miss more
    /// often, lower ones leave bytes unused.
    static let aimShares = [0.9975, 0.9676]

    /// The share of the growth from a checkpoint between a lossless file
    /// and a lossy one that the least loss already takes (35–37 % on the
    /// noisy corpus, none on the flat one); the rest follows the level's
    /// logarithm. Trades: too low aims lossy levels short of the budget,
    /// costing a round.
    static let lossyJump = 0.35

    /// Where trial files are measured to tell early how large they will
    /// be: a quarter of the timeline (nil under 8 entries). Scaled by a
    /// whole file of the same level, bytes there gave every step's size
    /// within 3.6 %. Trades: later is more exact and stops files later.
    static func checkpoint(entries: Int) -> Int? { entries >= 8 ? (entries + 3) / 4 : nil }

    /// How far past the budget a projected file must be to stop at the
    /// checkpoint: well beyond the projections' error, so that a file that
    /// could fit is written on. Trades: lower stops more files sooner, at
    /// the risk of stopping one that fits.
    static let projectionMargin = 1.1

    /// How far under the budget the lowest level's file must be projected
    /// for the higher levels to stop at the checkpoint (a step that fits
    /// lossless needs no lossy level; the second file cost a third more
    /// time). Trades: a file projected to fit that does not is written
    /// again whole.
    static let fitMargin = 1.02

    /// Bytes of palettized frames kept for writing more levels LZW only.
    /// Trades: memory for a whole palette pass per extra level on longer
    /// animations.
    static let keepBudget = 384 << 20
}
