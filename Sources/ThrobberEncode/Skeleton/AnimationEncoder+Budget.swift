import Glibc
import ThrobberCodecs
import ThrobberCore

extension AnimationEncoder {
    /// The step of the ladder to try next, between `fails` (a step that
    /// did not fit) and `fits` (one that did, or one past the last): the
    /// middle, or where `smallest` (the smallest file so far, nil for no
    /// skipping) is too large for the steps before to fit at
    /// `BudgetTuning.fastestStep` a step, the first step after them (the
    /// last at most).
    static func nextStep(fails: Int, fits: Int, smallest: Int?, maxBytes: Int) -> Int {
        var next = (fails + fits) / 2
        if let smallest, smallest > maxBytes {
            let needed = log(Double(maxBytes) / Double(smallest)) / log(BudgetTuning.fastestStep)
            next = max(next, fails + Int(needed.rounded(.up)))
        }
        return min(next, fits - 1)
    }

    /// The best-looking file of at most `maxBytes`, written to `sink`
    /// (`searchWithin`). Throws a data error, writing nothing, when even
    /// the last step's smallest file is too large.
    func encodeWithin(_ maxBytes: Int, _ source: FrameSource, timeline: Timeline, to sink: ByteSink, batch: Int)
        throws -> EncodeReport
    {
        let outcome = try searchWithin(maxBytes, source, timeline: timeline, batch: batch)
        guard let fit = outcome.fit else { throw outcome.refusal! }
        try sink.put(fit.bytes)
        return fit.report
    }

    /// The outcome of a budget search: the file chosen, or the refusal of
    /// a budget nothing fits; and the bytes a reduction of frames or pixels
    /// must bring under the budget: for a degraded file, the smallest file
    /// tried at settings that are not degraded; for a refusal, the smallest
    /// reached (or estimated).
    struct BudgetOutcome {
        var fit: (bytes: [UInt8], report: EncodeReport)?
        var refusal: ThrobberError?
        var aimBytes: Int?
    }

    /// The best-looking file of at most `maxBytes`, kept in memory.
    ///
    /// The format's `BudgetStrategy` offers a ladder of settings; this
    /// loop bounds the budget with the ladder's smallest step (before the
    /// search, or after the first step where the strategy asks), tries the
    /// settings as given, and if they do not fit bisects the ladder for the
    /// first step that fits (sizes fall along the steps), never trying a
    /// step that the smallest file so far shows cannot fit
    /// (`nextStep`); the last step at the latest, to tell the smallest size
    /// reachable. Of the files that fit, the best-looking wins
    /// (`BudgetSearch`).
    func searchWithin(_ maxBytes: Int, _ source: FrameSource, timeline: Timeline, batch: Int) throws
        -> BudgetOutcome
    {
        var strategy = format.encoder.budget(settings, maxBytes: maxBytes)
        let count = strategy.steps.count
        // Passes are named on the progress: the lower bound, the settings
        // as given, and a bisection of the rest of the ladder.
        let most = (count > 1 ? 1 : 0) + 1 + Int(log2(Double(count)).rounded(.up))
        var passCount = 0
        let run = BudgetRun(
            encoder: self, source: source, timeline: timeline, batch: batch, maxBytes: maxBytes,
            announce: { [passes] trying in
                passCount += 1
                passes?(EncodePass(number: passCount, most: most, trying: trying))
            })
        func bound() throws -> BudgetOutcome? {
            guard let last = strategy.steps.last else { return nil }
            let level = last.lossy.last ?? 0
            run.announce("lower bound at " + strategy.describe(last, levels: [level]))
            guard let over = try strategy.lowerBound(last, level: level, run: run) else { return nil }
            return BudgetOutcome(
                refusal: boundRefusal(last, level: level, over: over, run: run),
                aimBytes: over.bytes * over.total / max(1, over.done))
        }
        if !strategy.boundsAfterFirstStep && count > 1, let refused = try bound() { return refused }
        var search = BudgetSearch(maxBytes: maxBytes, format: format)
        if try !strategy.attempt(0, level: nil, run: run, search: &search), count > 1, strategy.laterStepsHelp() {
            if strategy.boundsAfterFirstStep, let refused = try bound() { return refused }
            // A step that fails without any file smaller than the settings' smallest shows that
            // fewer colors do not help (a few exact colors): the search stops there, where sizes
            // follow the steps.
            let given = search.smallest?.bytes ?? .max
            var (fails, fits) = (0, count)
            while fits - fails > 1 {
                let next = Self.nextStep(
                    fails: fails, fits: fits, smallest: strategy.sizesFollowSteps ? search.smallest?.bytes : nil,
                    maxBytes: maxBytes)
                guard strategy.prepare(next: next, fails: fails, fits: fits, search: search) else { break }
                if try strategy.attempt(next, level: nil, run: run, search: &search) {
                    fits = next
                } else if strategy.sizesFollowSteps, search.smallest?.bytes ?? .max >= given {
                    break
                } else {
                    fails = next
                }
            }
        }
        guard let file = search.best else {
            try strategy.writeSmallest(run: run, search: &search)
            return refusal(search, run: run)
        }
        return BudgetOutcome(
            fit: (file.bytes, report(of: file, search, source, timeline)), aimBytes: search.smallestGood?.bytes)
    }

    /// The outcome of a search that found nothing that fits: the refusal,
    /// naming the smallest file reached.
    private func refusal(_ search: BudgetSearch, run: BudgetRun) -> BudgetOutcome {
        let smallest = search.smallestWritten ?? search.smallest
        let reached =
            smallest.map {
                "the smallest file reached is \($0.estimated ? "about " : "")\($0.bytes) bytes (\($0.description))"
            } ?? "no file was made"
        return BudgetOutcome(
            refusal: budgetRefusal(
                run.maxBytes, reached: reached, estimate: smallest?.bytes, run.source, run.timeline),
            aimBytes: smallest?.bytes)
    }

    /// The report of the file a search chose: its trials counted, and
    /// where it is posterized or heavily lossy, the note that says so.
    private func report(of file: BudgetFile, _ search: BudgetSearch, _ source: FrameSource, _ timeline: Timeline)
        -> EncodeReport
    {
        var report = file.report
        report.budget?.trials = search.trials
        if let choice = report.budget, choice.isDegraded {
            report.budget?.note = budgetNote(
                choice, good: search.smallestGood, width: report.width, source, timeline)
        }
        return report
    }
}
