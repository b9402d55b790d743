import ThrobberCodecs
import ThrobberCore

extension AnimationEncoder {
    /// The best file of at most `maxBytes` from `source` (the frames as
    /// the input gives them) and `transformed` (as the options crop and
    /// resize them), written to `sink`. Where the best file of every frame
    /// at the size asked for is degraded (posterized or heavily lossy,
    /// `BudgetChoice.isDegraded`) or none fits, and the settings give leave
    /// (`EncodeSettings.budgetMayReduce`), the search is run again on
    /// fewer frames or fewer pixels (`BudgetReduction.ladder`), from the
    /// reduction the bytes' ratio points to, until its best file is not
    /// degraded (where that was the first tried, the ones before it while
    /// they are not degraded either, as the ratio may overshoot); that
    /// file is written. Where no reduction
    /// tried gives one, the file of the full frames is written if one
    /// fits, else the least reduced file that fits; else the budget is
    /// refused.
    func encodeWithinReducing(
        _ maxBytes: Int, _ source: FrameSource, transformed: TransformedFrames?, timeline: Timeline,
        to sink: ByteSink, batch: Int
    ) throws -> EncodeReport {
        let first = try searchWithin(maxBytes, transformed ?? source, timeline: timeline, batch: batch)
        let allowed = settings.budgetMayReduce
        if let fit = first.fit, allowed.isEmpty || fit.report.budget?.isDegraded != true {
            try sink.put(fit.bytes)
            return fit.report
        }
        var fallback = first.fit
        if !allowed.isEmpty {
            let ladder = try reductions(allowed, source, timeline: timeline)
            let need = first.aimBytes.map { Double(maxBytes) / Double(max(1, $0)) * BudgetTuning.adviceMargin }
            let start = ladder.firstIndex { need == nil || $0.reduction.share <= need! } ?? max(0, ladder.count - 1)
            func attempt(_ i: Int) throws -> (bytes: [UInt8], report: EncodeReport)? {
                let (reduction, transform) = ladder[i]
                let frames = transform.map {
                    TransformedFrames(source, transform: $0, resamplesInSource: settings.compression == .fast)
                }
                let thin = timeline.thinned(every: reduction.every)
                guard var fit = try searchWithin(maxBytes, frames ?? source, timeline: thin, batch: batch).fit
                else { return nil }
                let note = reductionNote(reduction, fit.report, timeline)
                fit.report.budget?.note = note
                if let size = frames?.inputSize { (fit.report.inputWidth, fit.report.inputHeight) = size }
                return fit
            }
            var searches = 0
            var chosen: (bytes: [UInt8], report: EncodeReport)?
            for i in ladder.indices.dropFirst(start) where searches < BudgetTuning.reduceSearches {
                searches += 1
                guard let fit = try attempt(i) else { continue }
                guard fit.report.budget?.isDegraded == true else {
                    chosen = fit
                    // The bytes' ratio may overshoot: where the first reduction tried is
                    // good, the ones before it are tried too, while they are good.
                    var j = i - 1
                    while i == start, j >= 0, searches < BudgetTuning.reduceSearches {
                        searches += 1
                        guard let less = try attempt(j), less.report.budget?.isDegraded != true else { break }
                        chosen = less
                        j -= 1
                    }
                    break
                }
                if fallback == nil { fallback = fit }
            }
            if let chosen {
                try sink.put(chosen.bytes)
                return chosen.report
            }
        }
        guard let fit = fallback else { throw first.refusal! }
        try sink.put(fit.bytes)
        return fit.report
    }

    /// The reductions `allowed` permits for these frames, least first,
    /// each with the transform that makes its size (nil: the frames as
    /// `settings.transform` makes them, or as given): none that leaves a
    /// side under `BudgetTuning.reducedSideMinimum` pixels or fewer than
    /// two entries.
    private func reductions(_ allowed: BudgetReductions, _ source: FrameSource, timeline: Timeline) throws
        -> [(reduction: BudgetReduction, transform: FrameTransform?)]
    {
        guard let firstEntry = timeline.entries.first else { return [] }
        var size = source.knownSize(at: firstEntry.source)
        if size == nil {
            let frame = try source.frame(at: firstEntry.source)
            size = FrameSize(width: frame.width, height: frame.height)
        }
        guard let size else { return [] }
        let given = settings.transform
        var out: [(BudgetReduction, FrameTransform?)] = []
        for r in BudgetReduction.ladder(allowed) where timeline.entries.count > r.every {
            guard r.scale < 1 else {
                out.append((r, given.changesPixels ? given : nil))
                continue
            }
            var t = given
            if t.width != nil || t.height != nil {
                t.width = t.width.map { max(1, Int((Double($0) * r.scale).rounded())) }
                t.height = t.height.map { max(1, Int((Double($0) * r.scale).rounded())) }
            } else {
                t.scale = (t.scale ?? 1) * r.scale
            }
            let layout = try t.layout(inputWidth: size.width, inputHeight: size.height)
            guard min(layout.canvasWidth, layout.canvasHeight) >= BudgetTuning.reducedSideMinimum else { continue }
            out.append((r, t))
        }
        return out
    }

    /// The note of a file made with `reduction`: what it gave up, and
    /// where it is still degraded, that too.
    private func reductionNote(_ reduction: BudgetReduction, _ report: EncodeReport, _ full: Timeline) -> String {
        var parts: [String] = []
        if reduction.every > 1 {
            var text = "every \(Self.ordinal(reduction.every)) frame"
            if full.duration > Rational(0) {
                let rate = Double(full.entries.count) / full.duration.doubleValue
                let round = { (r: Double) in cFormat("%g", (r * 100).rounded() / 100) }
                text += " (\(round(rate / Double(reduction.every))) fps from \(round(rate)))"
            }
            parts.append(text)
        }
        if reduction.scale < 1 { parts.append("\(cFormat("%g", reduction.scale * 100)) % of the size") }
        var note = "reduced (--allow-reduce) to " + parts.joined(separator: " and ")
        if let gave = report.budget?.degradation { note += "; still " + gave }
        return note
    }

    /// "2nd", "3rd", "4th", …
    static func ordinal(_ n: Int) -> String {
        let suffix = (n % 100) / 10 == 1 ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }
}
