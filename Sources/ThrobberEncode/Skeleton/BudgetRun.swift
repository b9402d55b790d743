import ThrobberCodecs
import ThrobberCore

/// What a format's `BudgetStrategy` may do during a byte-budget search:
/// encode the frames again with other settings (whole, or a prefix of the
/// timeline), and name the pass it begins.
struct BudgetRun {
    /// The encoder searching, with the settings as given.
    let encoder: AnimationEncoder
    let source: FrameSource
    let timeline: Timeline
    let batch: Int
    /// The budget, in bytes.
    let maxBytes: Int
    /// Names a pass over the frames as it begins (progress).
    let announce: (String) -> Void

    /// How far a counted file got past the budget: `bytes` after `done`
    /// of the timeline's `total` entries; `prefix` where those entries
    /// were encoded as an animation of their own.
    struct Overrun {
        var bytes: Int
        var done: Int
        var total: Int
        var prefix: Bool
    }

    /// The settings as given.
    var settings: EncodeSettings { encoder.settings }

    /// One encode of the frames with `trial` into `sink`, shown as
    /// `timeline` (by default the whole one), reporting progress to
    /// `progress` where given instead of the encoder's own.
    func encode(
        _ trial: EncodeSettings, to sink: ByteSink, timeline: Timeline? = nil,
        progress: ((Int, Int) -> Void)? = nil
    ) throws -> EncodeReport {
        var run = encoder
        if let progress { run.progress = progress }
        return try run.encodeOnce(trial, source, timeline: timeline ?? self.timeline, to: sink, batch: batch)
    }

    /// The lower bound of a format that writes as it goes: `trial` (the
    /// ladder's smallest settings) written only to count its bytes. Where
    /// they pass `BudgetTuning.boundMargin` times the budget, no step can
    /// fit: returns those bytes and how many of the timeline's entries
    /// were written then (the batch that passed the cap is finished, so
    /// the share is exact). Where `sampledSize` estimates the file within
    /// the cap, the pass stops without a verdict after the first batch
    /// whose bytes, scaled by the share of the timeline written, come to
    /// no more than the cap, and the search goes on; where the sample
    /// says the file passes the cap, a still start (a title held for a
    /// second) does not stop it, and the refusal comes within this one
    /// pass. The bound never refuses a budget the search could meet:
    /// bytes written are a prefix of the smallest file.
    func countSmallest(_ trial: EncodeSettings) throws -> Overrun? {
        let cap = Double(maxBytes) * BudgetTuning.boundMargin
        let total = timeline.entries.count
        let sample = try sampledSize(trial)
        if sample.exact {
            return Double(sample.bytes) > cap
                ? Overrun(bytes: sample.bytes, done: total, total: total, prefix: false) : nil
        }
        let projectedOver = Double(sample.bytes) > cap
        let sink = CountingSink()
        // The bytes and entries done when the count was first seen past the
        // cap, after a batch.
        var over: (bytes: Int, done: Int)?
        let progress = encoder.progress
        do {
            _ = try encode(trial, to: sink) { done, total in
                progress?(done, total)
                guard done > 0, !sink.stop else { return }
                if Double(sink.count) > cap {
                    over = (sink.count, done)
                    sink.stop = true
                } else if !projectedOver, Double(sink.count) * Double(total) / Double(done) <= cap {
                    sink.stop = true
                }
            }
        } catch  where sink.stop {
            return over.map { Overrun(bytes: $0.bytes, done: $0.done, total: total, prefix: false) }
        }
        return Double(sink.count) > cap ? Overrun(bytes: sink.count, done: total, total: total, prefix: false) : nil
    }

    /// The bytes of `trial` on a sample of the whole timeline
    /// (`BudgetTuning.sampleRuns` stretches of `sampleLength` entries,
    /// `Timeline.sample`), scaled to all its entries; `exact` where the
    /// sample is the whole timeline. Each stretch begins with a jump from
    /// the one before, which costs more than a step between neighbours:
    /// the estimate leans high, so it only decides how long the exact
    /// count goes on, never a refusal by itself.
    func sampledSize(_ trial: EncodeSettings) throws -> (bytes: Int, exact: Bool) {
        let sample = timeline.sample(runs: BudgetTuning.sampleRuns, length: BudgetTuning.sampleLength)
        let sink = CountingSink()
        let total = timeline.entries.count
        let progress = encoder.progress
        _ = try encode(trial, to: sink, timeline: sample) { _, _ in progress?(0, total) }
        let count = sample.entries.count
        guard count < total, count > 0 else { return (sink.count, true) }
        return (Int((Double(sink.count) * Double(total) / Double(count)).rounded(.up)), false)
    }

    /// `step` (step `index` of the ladder, named `label` on the progress)
    /// encoded whole into memory and added to `search`; true when it fits
    /// and is now the best.
    func attemptWhole(_ step: BudgetStep, index: Int, label: String, search: inout BudgetSearch) throws -> Bool {
        announce(label)
        let output = MemorySink()
        let report = try encode(step.applied(to: settings), to: output)
        return search.add(step, index: index, bytes: output.bytes, psnr: nil, report: report)
    }
}
