/// Whether a costly second candidate is worth a trial on the next frame:
/// always while it wins now and then, and after `GIFTuning.trialLossLimit` losses in a
/// row once every `GIFTuning.trialRetry` frames. Deterministic: frames are written in
/// order.
struct TrialBackoff {
    /// Trials lost in a row, and frames since the last trial.
    private var losses = 0
    private var since = 0
    /// Never try (`--compression fast`).
    var off = false

    /// Whether to try the candidate on this frame.
    mutating func tries() -> Bool {
        if off { return false }
        guard losses < GIFTuning.trialLossLimit || since >= GIFTuning.trialRetry else {
            since += 1
            return false
        }
        since = 0
        return true
    }

    /// Whether trials run on every frame now (not only now and then).
    var isTrying: Bool { !off && losses < GIFTuning.trialLossLimit }

    /// Whether the candidate was the smaller this time.
    mutating func record(won: Bool) { losses = won ? 0 : losses + 1 }
}
