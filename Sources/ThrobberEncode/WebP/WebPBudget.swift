import ThrobberCodecs
import ThrobberCore

/// WebP's byte-budget search (`BudgetStrategy`). Truecolor: the settings
/// as given, then lossy quality from 100 (or below the quality given) down
/// to 1, sizes falling with it. With `colors`, a palette a frame: the
/// palette ladder within those colors. Lossless as given can be smaller
/// than lossy quality 100, so sizes do not follow the steps strictly, and
/// the lower bound comes after the settings as given did not fit.
struct WebPBudget: BudgetStrategy {
    var steps: [BudgetStep]
    var boundsAfterFirstStep: Bool { true }
    var sizesFollowSteps: Bool { false }

    init(_ s: EncodeSettings) {
        guard s.colors == nil else {
            steps = BudgetStep.paletteLadder(s, levels: [0])
            return
        }
        let top = s.quality.map { $0 - 1 } ?? 100
        steps =
            [BudgetStep(quality: s.quality, colors: nil, dither: s.dither, lossy: [0])]
            + stride(from: top, through: 1, by: -1).map {
                BudgetStep(quality: $0, colors: nil, dither: s.dither, lossy: [0])
            }
    }

    mutating func attempt(_ i: Int, level: Int?, run: BudgetRun, search: inout BudgetSearch) throws -> Bool {
        try run.attemptWhole(steps[i], index: i, label: describe(steps[i], levels: [0]), search: &search)
    }

    /// "quality 40", "the settings as given"; with a palette size, "quality
    /// 40, 16 colors".
    func describe(_ step: BudgetStep, levels: [Int]) -> String {
        let quality = step.quality.map { "quality \($0)" } ?? "the settings as given"
        return step.colors.map { "\(quality), \($0) colors" } ?? quality
    }

    /// libwebp writes its file only at the end, so `last` (the ladder's
    /// smallest step) is encoded on a prefix of the timeline,
    /// `WebPTuning.budgetSampleShare` of it first, twice as long each time
    /// while its bytes project past `BudgetTuning.boundMargin` times the
    /// budget. Returns the prefix that passed the cap alone: no step can
    /// fit then. Nil once a prefix projects to fit or the whole timeline
    /// fits. The frames of a prefix are coded as the same frames of the
    /// whole (each frame against the ones before it), so its bytes are
    /// about a prefix of the smallest file's. A prefix projecting to fit
    /// ends the bound only where a sample of the whole timeline
    /// (`BudgetRun.sampledSize`) does too: a still start does not.
    func lowerBound(_ last: BudgetStep, level: Int, run: BudgetRun) throws -> BudgetRun.Overrun? {
        let trial = last.applied(to: run.settings)
        let cap = Double(run.maxBytes) * BudgetTuning.boundMargin
        let total = run.timeline.entries.count
        let sample = try run.sampledSize(trial)
        if sample.exact {
            return Double(sample.bytes) > cap
                ? BudgetRun.Overrun(bytes: sample.bytes, done: total, total: total, prefix: false) : nil
        }
        let projectedOver = Double(sample.bytes) > cap
        var done = max(1, total / WebPTuning.budgetSampleShare)
        let progress = run.encoder.progress
        while true {
            let sink = CountingSink()
            _ = try run.encode(trial, to: sink, timeline: run.timeline.prefix(done)) { entries, _ in
                progress?(entries, total)
            }
            if Double(sink.count) > cap {
                return BudgetRun.Overrun(bytes: sink.count, done: done, total: total, prefix: true)
            }
            if done == total || (!projectedOver && Double(sink.count) * Double(total) / Double(done) <= cap) {
                return nil
            }
            done = min(total, done * 2)
        }
    }
}

extension WebPEncoder {
    static func budget(_ settings: EncodeSettings, maxBytes: Int) -> any BudgetStrategy { WebPBudget(settings) }

    /// "quality 82", "lossless settings"; with a palette size, "quality
    /// 82, 16 colors".
    static func describe(_ choice: BudgetChoice) -> String {
        let quality = choice.quality.map { "quality \($0)" } ?? "lossless settings"
        return choice.colors.map { "\(quality), \($0) colors" } ?? quality
    }

    static func heavyLoss(_ choice: BudgetChoice) -> String? {
        guard let quality = choice.quality, quality < WebPTuning.heavyLossyBelow, choice.colors == nil else {
            return nil
        }
        return "heavily lossy (quality \(quality))"
    }
}
