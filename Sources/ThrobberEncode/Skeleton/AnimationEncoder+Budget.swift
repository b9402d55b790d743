import Glibc
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

    /// The most one step of the ladder has shrunk the smallest file on the
    /// benchmark corpora is to 0.805 of it (testsrc2, 32 to 16 colors;
    /// mandelbrot 0.83; most steps 0.85–1.0). A step is not tried while
    /// the budget needs more shrinking than this per step from the smallest
    /// file so far: after mandelbrot's 64 colors missed a quarter of its
    /// default size by 37 %, the search goes to 16 colors and skips 32,
    /// three passes instead of four. A guess too high costs a pass, never
    /// the result: a step that fits is still bisected back to the first.
    static let fastestStep = 0.8

    /// The lossy levels of a GIF step, from `floor` (the asked level) up.
    /// A pass writes only the lowest and the highest: most passes of a
    /// search do not fit even at the highest, and the first often fits at
    /// the lowest. Where the budget falls between them, levels between are
    /// written from the pass's palettized frames, LZW only
    /// (`BudgetSearch.levels`).
    static let budgetLevels = [0, 25, 50, 100, 200]

    /// The step of the ladder to try next, between `fails` (a step that
    /// did not fit) and `fits` (one that did, or one past the last): the
    /// middle, or where `smallest` (the smallest file so far, nil for no
    /// skipping) is too large for the steps before to fit at
    /// `fastestStep` a step, the first step after them (the last at most).
    static func nextStep(fails: Int, fits: Int, smallest: Int?, maxBytes: Int) -> Int {
        var next = (fails + fits) / 2
        if let smallest, smallest > maxBytes {
            let needed = log(Double(maxBytes) / Double(smallest)) / log(fastestStep)
            next = max(next, fails + Int(needed.rounded(.up)))
        }
        return min(next, fits - 1)
    }

    /// The share of the budget a step between two of the ladder aims at.
    static let fillShare = 0.99

    /// The colors between `fewer` colors (a palette whose lowest-level
    /// file has `smaller` bytes) and `more` colors (`larger` bytes) expected
    /// to give `bytes`, along the line between them over the logarithm of
    /// the colors, rounded down; nil where `bytes` does not lie between, or
    /// no count lies strictly between.
    static func colorsBetween(_ more: Int, _ larger: Int, _ fewer: Int, _ smaller: Int, bytes: Double) -> Int? {
        guard more > fewer + 1, larger > smaller, Double(smaller) < bytes, bytes < Double(larger) else { return nil }
        let t = (bytes - Double(smaller)) / Double(larger - smaller)
        let colors = Int(exp2(log2(Double(fewer)) + t * (log2(Double(more)) - log2(Double(fewer)))))
        return colors > fewer && colors < more ? colors : nil
    }

    /// The smallest file expected of a palette of `colors`, between `more`
    /// colors (whose smallest file has `larger` bytes) and `fewer`
    /// (`smaller` bytes): along the line between them over the logarithm
    /// of the colors; nil where `colors` does not lie between. mandelbrot
    /// at a quarter of its size: 64 colors gave 1,263,432 B at lossy 200
    /// and 24 colors a file at 98.8 % of the budget; 32 colors, expected at
    /// 1,146,883 B, gave 1,156,408 B, over the budget of 1,134,092, after a
    /// pass of 1.5 s.
    static func smallestBetween(_ more: Int, _ larger: Int, _ fewer: Int, _ smaller: Int, colors: Int) -> Double? {
        guard more > fewer, colors > fewer, colors < more else { return nil }
        let t = (log2(Double(colors)) - log2(Double(fewer))) / (log2(Double(more)) - log2(Double(fewer)))
        return Double(smaller) + t * Double(larger - smaller)
    }

    /// The steps, best-looking first: the settings as given, then ever
    /// fewer colors at lower quality; from 128 colors on with less
    /// dithering and from 64 with none, as dither noise costs LZW more
    /// than it gains PSNR there (testsrc2 at half its size: gifsicle's
    /// undithered 64 colors beat our dithered ones). 24 colors lie between
    /// 32 and 16: testsrc2's half budget fell between 32 colors at lossy
    /// 200 and 16 at lossy 0, and took 16 at 82 % of the budget.
    func budgetSteps() -> [BudgetStep] {
        let s = settings
        if format == .webp && s.colors == nil {
            // Truecolor WebP: the settings as given, then lossy quality from
            // 100 (or below the quality given) down to 1, sizes falling with
            // it. With --colors, a palette a frame: the ladder below, within
            // those colors.
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
            (80, 256, s.dither), (60, 128, min(s.dither, 0.5)), (40, 64, 0), (20, 32, 0), (15, 24, 0), (10, 16, 0),
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
    /// large to keep for a replay), each left unfinished past `limit`.
    private func encodeLevels(
        _ levels: [Int], _ trial: EncodeSettings, _ source: FrameSource, timeline: Timeline, batch: Int, limit: Int
    ) throws -> [LossyTrials.File] {
        guard !levels.isEmpty else { return [] }
        let outputs = LossyTrials(levels: levels, limit: limit)
        _ = try encodeTrial(trial, source, timeline: timeline, to: outputs, batch: batch)
        return outputs.files
    }

    /// `encodeOnce` into `outputs`, ended early (an empty report) where
    /// every file grew past its limit.
    private func encodeTrial(
        _ trial: EncodeSettings, _ source: FrameSource, timeline: Timeline, to outputs: LossyTrials, batch: Int
    ) throws -> EncodeReport {
        do {
            return try encodeOnce(trial, source, timeline: timeline, to: outputs, batch: batch)
        } catch is LossyTrials.Abandoned {
            return EncodeReport()
        }
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
        var steps = budgetSteps()
        // Passes are named on the progress: the lower bound, the settings
        // as given, and a bisection of the rest of the ladder.
        // GIF and APNG bound the budget before the first step, WebP after it.
        let bounded = format != .webp && steps.count > 1
        let most = (steps.count > 1 ? 1 : 0) + 1 + Int(log2(Double(steps.count)).rounded(.up))
        var passCount = 0
        func announce(_ trying: String) {
            passCount += 1
            passes?(EncodePass(number: passCount, most: most, trying: trying))
        }
        if bounded, let last = steps.last {
            let level = last.lossy.last ?? 0
            announce("lower bound at " + Self.stepText(last, levels: [level], format: format))
            if let over = try smallestPasses(last, level: level, maxBytes: maxBytes, source, timeline, batch: batch) {
                throw boundRefusal(last, level: level, maxBytes: maxBytes, over: over, prefix: false, source, timeline)
            }
        }
        // Per step, the sizes of its files at its lowest and highest lossy
        // level (GIF); the highest is the smallest it makes (estimated
        // where the file stopped over the budget).
        var sizes: [Int: (lowest: Int, highest: Int)] = [:]
        var search = BudgetSearch(maxBytes: maxBytes)
        // The colors of the settings' lossless palette, where it is one
        // exact global palette.
        var exactColors: Int?
        // Per lossy level, how a file of the last pass grew past its
        // checkpoint: later passes stop files expected not to fit there.
        var growth: [Int: Double] = [:]
        /// Step `i` at its lowest and highest lossy level (and between,
        /// where the budget lies between them), or at `level` alone, whole.
        func attempt(_ i: Int, level: Int? = nil) throws -> Bool {
            let step = steps[i]
            announce(
                Self.stepText(
                    step, levels: level.map { [$0] } ?? [step.lossy.first!, step.lossy.last!], format: format))
            var trial = settings
            trial.quality = step.quality
            trial.colors = step.colors
            trial.dither = step.dither
            if format == .gif {
                let ends = level.map { [$0] } ?? Array(Set([step.lossy.first!, step.lossy.last!])).sorted()
                // The last step's smallest file is written whole, to tell
                // how small a file can get if none fits.
                let outputs = LossyTrials(
                    levels: ends, limit: maxBytes, unlimited: level ?? (i == steps.count - 1 ? ends.last : nil))
                outputs.growth = growth
                let report = try encodeTrial(trial, source, timeline: timeline, to: outputs, batch: batch)
                var written = outputs.files
                // Levels stopped because the lowest was expected to fit,
                // where it did not after all: written whole now.
                let below = written.filter(outputs.stoppedBelow).map(\.level)
                if !below.isEmpty, let lowest = written.first, lowest.estimated || lowest.size > maxBytes {
                    let whole =
                        outputs.canReplay
                        ? try outputs.replay(levels: below, jobs: settings.jobs)
                        : try {
                            announce("lossy \(below.map(String.init).joined(separator: ", ")) again")
                            return try encodeLevels(
                                below, trial, source, timeline: timeline, batch: batch, limit: maxBytes)
                        }()
                    written = (written.filter { !below.contains($0.level) } + whole).sorted { $0.level < $1.level }
                }
                for file in written { growth[file.level] = file.growth ?? growth[file.level] }
                if i == 0, case .global(let colors, let transparent)? = outputs.header?.choice {
                    exactColors = colors.count - (transparent == nil ? 0 : 1)
                }
                let files = try BudgetSearch.levels(
                    written, maxBytes: maxBytes,
                    write: { levels in
                        outputs.canReplay
                            ? try outputs.replay(levels: levels, jobs: settings.jobs)
                            : try {
                                announce("lossy \(levels.map(String.init).joined(separator: ", "))")
                                return try encodeLevels(
                                    levels, trial, source, timeline: timeline, batch: batch, limit: maxBytes)
                            }()
                    },
                    look: outputs.canReplay
                        ? { try outputs.replay(levels: $0, jobs: settings.jobs, untilCheckpoint: true) } : nil)
                if level == nil, let lowest = files.first(where: { $0.level == ends.first }),
                    let highest = files.first(where: { $0.level == ends.last })
                {
                    sizes[i] = (lowest.size, highest.size)
                }
                // A level stopped below the budget has no bytes to write.
                return search.add(
                    step, index: i, files: files.filter { !outputs.stoppedBelow($0) }, report: report, format: format)
            }
            let output = MemorySink()
            let report = try encodeOnce(trial, source, timeline: timeline, to: output, batch: batch)
            return search.add(step, index: i, bytes: output.bytes, psnr: nil, report: report, format: format)
        }
        /// Where `next` is the one GIF step left between step `fails`
        /// (failed) and `fits`, which holds the best file: whether that
        /// file fills `BudgetSearch.enough` of the budget, and both steps'
        /// sizes. Nil elsewhere.
        func between(_ fails: Int, _ fits: Int, next: Int) -> (
            full: Bool, failed: (lowest: Int, highest: Int), fitted: (lowest: Int, highest: Int)
        )? {
            guard format == .gif, fits - fails == 2, next == fails + 1, fits < steps.count,
                let best = search.best, best.step == fits, let failed = sizes[fails], let fitted = sizes[fits]
            else { return nil }
            return (Double(best.bytes.count) >= BudgetSearch.enough * Double(maxBytes), failed, fitted)
        }
        /// For a step `between` whose best file does not fill the budget:
        /// the colors expected to fill it, fewer than the step's (testsrc2
        /// at half its size: 24 colors gave 94 % lossless, 32 colors did
        /// not fit even at lossy 200; 27 colors give 97.9 %). If they do
        /// not fit, neither does the step.
        func colorsFilling(between fails: Int, _ fits: Int, next: Int) -> Int? {
            guard let (full, failed, fitted) = between(fails, fits, next: next), !full,
                let colors = Self.colorsBetween(
                    steps[fails].colors ?? 256, failed.lowest, steps[fits].colors ?? 256, fitted.lowest,
                    bytes: Self.fillShare * Double(maxBytes)),
                colors < steps[next].colors ?? 256
            else { return nil }
            return colors
        }
        /// Whether a step `between` is not worth a pass: the best file
        /// already fills the budget, and the step's smallest file
        /// (`smallestBetween`) is expected over it.
        func missesBetween(_ fails: Int, _ fits: Int, next: Int) -> Bool {
            guard let (full, failed, fitted) = between(fails, fits, next: next), full,
                let expected = Self.smallestBetween(
                    steps[fails].colors ?? 256, failed.highest, steps[fits].colors ?? 256, fitted.highest,
                    colors: steps[next].colors ?? 256)
            else { return false }
            return expected > Double(maxBytes)
        }
        // Where the settings' file is lossless with no more colors than
        // every later step allows, those steps cannot drop a color: they
        // only quantize the same ones again, with error and no fewer bytes
        // (a 2-color Game of Life: 474,871 B lossless, 486,219 B at 24
        // colors), and the search ends with the settings' files.
        let fewest = steps.dropFirst().map { $0.colors ?? 256 }.min() ?? 0
        if try !attempt(0), steps.count > 1, (exactColors ?? .max) > fewest {
            if format == .webp, let last = steps.last {
                announce("lower bound at " + Self.stepText(last, levels: [0], format: format))
                if let over = try smallestPrefixes(last, maxBytes: maxBytes, source, timeline, batch: batch) {
                    throw boundRefusal(last, level: 0, maxBytes: maxBytes, over: over, prefix: true, source, timeline)
                }
            }
            // Bisect the ladder for the first step that fits, one past the
            // end standing for "none", never trying a step that the
            // smallest file so far shows cannot fit (`fastestStep`); the
            // last step at the latest, to tell the smallest size reachable.
            // A step that fails without any file smaller than the settings'
            // smallest shows that fewer colors do not help (a few exact
            // colors): the search stops there. (WebP's quality always
            // helps: lossy quality 100 can be larger than lossless.)
            let given = search.smallest?.bytes ?? .max
            var (fails, fits) = (0, steps.count)
            while fits - fails > 1 {
                let next = Self.nextStep(
                    fails: fails, fits: fits, smallest: format == .webp ? nil : search.smallest?.bytes,
                    maxBytes: maxBytes)
                if let colors = colorsFilling(between: fails, fits, next: next) { steps[next].colors = colors }
                if missesBetween(fails, fits, next: next) { break }
                if try attempt(next) {
                    fits = next
                } else if format != .webp, search.smallest?.bytes ?? .max >= given {
                    break
                } else {
                    fails = next
                }
            }
        }
        guard let file = search.best else {
            // The size to tell is one written whole: where every file of
            // the smallest estimate's step was left unfinished over the
            // budget, that file is written whole now.
            if search.smallestWritten == nil, format == .gif, let smallest = search.smallest {
                _ = try attempt(search.smallestStep, level: smallest.lossy)
            }
            let smallest = search.smallestWritten ?? search.smallest
            let reached =
                smallest.map {
                    "the smallest file reached is \($0.estimated ? "about " : "")\($0.bytes) bytes (\($0.description))"
                } ?? "no file was made"
            throw budgetRefusal(maxBytes, reached: reached, estimate: smallest?.bytes, source, timeline)
        }
        var report = file.report
        report.budget?.trials = search.trials
        try sink.put(file.bytes)
        return report
    }
}
