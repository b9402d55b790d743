import ThrobberCodecs
import ThrobberCore

extension AnimationEncoder {
    /// One step of the byte-budget search: palette settings, tried at each
    /// of `lossy` (GIF) in one pass over the frames.
    struct BudgetStep {
        var quality: Int?
        var colors: Int?
        var dither: Double
        var lossy: [Int]
    }

    /// Below this share of the smallest file of the settings as given, the
    /// search tries the last step next (the ladder's smallest step was 0.54
    /// to 0.67 of it on the benchmark corpora).
    static let hopeless = 0.5

    /// The lossy levels of a GIF step, from `floor` (the asked level) up.
    /// A pass writes only the lowest and the highest: most passes of a
    /// search do not fit even at the highest, and the first often fits at
    /// the lowest. Where the budget falls between them, levels between are
    /// written from the pass's palettized frames, LZW only
    /// (`BudgetSearch.levels`).
    static let budgetLevels = [0, 25, 50, 100, 200]

    /// The steps, best-looking first: the settings as given, then ever
    /// fewer colors at lower quality; from 128 colors on with less
    /// dithering and from 64 with none, as dither noise costs LZW more
    /// than it gains PSNR there (testsrc2 at half its size: gifsicle's
    /// undithered 64 colors beat our dithered ones).
    func budgetSteps() -> [BudgetStep] {
        let s = settings
        if format == .webp {
            // WebP: the settings as given, then lossy quality from 100
            // (or below the quality given) down to 1, sizes falling with it.
            let top = s.quality.map { $0 - 1 } ?? 100
            return [BudgetStep(quality: s.quality, colors: nil, dither: s.dither, lossy: [0])]
                + stride(from: top, through: 1, by: -1).map {
                    BudgetStep(quality: $0, colors: nil, dither: s.dither, lossy: [0])
                }
        }
        let levels =
            format == .gif ? Array(Set([s.lossy] + Self.budgetLevels.filter { $0 >= s.lossy })).sorted() : [0]
        let colors = s.colors ?? 256
        var steps = [BudgetStep(quality: s.quality, colors: s.colors, dither: s.dither, lossy: levels)]
        let reductions: [(quality: Int, colors: Int, dither: Double)] = [
            (80, 256, s.dither), (60, 128, min(s.dither, 0.5)), (40, 64, 0), (20, 32, 0), (10, 16, 0),
        ]
        for r in reductions where r.colors < colors || r.quality < (s.quality ?? 101) {
            steps.append(
                BudgetStep(
                    quality: min(r.quality, s.quality ?? 100), colors: min(r.colors, colors),
                    dither: min(r.dither, s.dither), lossy: levels))
        }
        return steps
    }

    /// The files of `trial` at `levels`, from one more pass (frames too
    /// large to keep for a replay).
    private func encodeLevels(
        _ levels: [Int], _ trial: EncodeSettings, _ source: FrameSource, timeline: Timeline, batch: Int
    ) throws -> [LossyTrials.File] {
        guard !levels.isEmpty else { return [] }
        let outputs = LossyTrials(levels: levels)
        _ = try encodeOnce(trial, source, timeline: timeline, to: outputs, batch: batch)
        return outputs.files
    }

    /// A file that fits, from step `step`.
    struct BudgetFile {
        var bytes: [UInt8]
        var report: EncodeReport
        var step: Int
        /// PSNR of the file (GIF), nil where not measured (APNG).
        var psnr: Double?
        /// Whether it is better looking than `other`: higher PSNR, or where
        /// that is not measured the earlier step (fewer reductions).
        func beats(_ other: BudgetFile) -> Bool {
            if let a = psnr, let b = other.psnr, a != b { return a > b }
            return step < other.step
        }
    }

    /// The best-looking file of at most `maxBytes`: the settings as given
    /// first; if they do not fit, a binary search of the ladder for the
    /// first step that fits (sizes fall along the steps), each step in one
    /// pass at its lowest and highest lossy level, and at levels between
    /// where the budget lies between those (`BudgetSearch.levels`, from
    /// the kept palettized frames, LZW only), to use the budget fully. Of
    /// the files that fit, the one with the highest PSNR against the
    /// source (measured while writing) wins. The file is written to
    /// `sink`. Throws a data error, writing nothing, when even the last
    /// step's smallest file is too large.
    func encodeWithin(_ maxBytes: Int, _ source: FrameSource, timeline: Timeline, to sink: ByteSink, batch: Int)
        throws -> EncodeReport
    {
        let steps = budgetSteps()
        var search = BudgetSearch(maxBytes: maxBytes)
        func attempt(_ i: Int) throws -> Bool {
            let step = steps[i]
            var trial = settings
            trial.quality = step.quality
            trial.colors = step.colors
            trial.dither = step.dither
            if format == .gif {
                let ends = Array(Set([step.lossy.first!, step.lossy.last!])).sorted()
                let outputs = LossyTrials(levels: ends)
                let report = try encodeOnce(trial, source, timeline: timeline, to: outputs, batch: batch)
                let files = try BudgetSearch.levels(outputs.files, maxBytes: maxBytes) { levels in
                    outputs.canReplay
                        ? try outputs.replay(levels: levels, jobs: settings.jobs)
                        : try encodeLevels(levels, trial, source, timeline: timeline, batch: batch)
                }
                return search.add(step, index: i, files: files, report: report, format: format)
            }
            let output = MemorySink()
            let report = try encodeOnce(trial, source, timeline: timeline, to: output, batch: batch)
            return search.add(step, index: i, bytes: output.bytes, psnr: nil, report: report, format: format)
        }
        if try !attempt(0), steps.count > 1 {
            // Bisect the ladder for the first step that fits, one past the
            // end standing for "none". Where the budget is under half of
            // the settings' smallest file, nothing may fit: the last step
            // first, to say so after two passes.
            // A step that fails without any file smaller than the settings'
            // smallest shows that fewer colors do not help (a few exact
            // colors): the search stops there. (WebP's quality always
            // helps: lossy quality 100 can be larger than lossless.)
            let given = search.smallest?.bytes ?? .max
            var (fails, fits) = (0, steps.count)
            if Double(maxBytes) < Self.hopeless * Double(given) {
                if try attempt(steps.count - 1) { fits = steps.count - 1 } else { fails = steps.count - 1 }
            }
            while fits - fails > 1 {
                let mid = (fails + fits) / 2
                if try attempt(mid) {
                    fits = mid
                } else if format != .webp, search.smallest?.bytes ?? .max >= given {
                    break
                } else {
                    fails = mid
                }
            }
        }
        guard let file = search.best else {
            let reached = search.smallest.map { "\($0.bytes) bytes (\($0.description))" } ?? "nothing"
            throw ThrobberError(
                .data,
                "no setting fits in \(maxBytes) bytes: the smallest file reached is \(reached); fewer pixels or frames would: --width, --frames 1-:2 (with half the --fps), or a lower --fps"
            )
        }
        var report = file.report
        report.budget?.trials = search.trials
        try sink.put(file.bytes)
        return report
    }
}
