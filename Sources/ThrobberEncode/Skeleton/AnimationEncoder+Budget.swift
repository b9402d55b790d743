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

    /// The lossy levels a GIF step tries, from `floor` (the asked level) up.
    static let budgetLevels = [0, 30, 60, 100, 150, 200]

    /// The steps, best-looking first: the settings as given, then ever
    /// fewer colors at lower quality, the last ones with less dithering.
    func budgetSteps() -> [BudgetStep] {
        let s = settings
        let levels =
            format == .gif ? Array(Set([s.lossy] + Self.budgetLevels.filter { $0 >= s.lossy })).sorted() : [0]
        let colors = s.colors ?? 256
        var steps = [BudgetStep(quality: s.quality, colors: s.colors, dither: s.dither, lossy: levels)]
        let reductions: [(quality: Int, colors: Int, dither: Double)] = [
            (80, 256, s.dither), (60, 128, s.dither), (40, 64, s.dither), (20, 32, min(s.dither, 0.5)), (10, 16, 0),
        ]
        for r in reductions where r.colors < colors || r.quality < (s.quality ?? 101) {
            steps.append(
                BudgetStep(
                    quality: min(r.quality, s.quality ?? 100), colors: min(r.colors, colors),
                    dither: min(r.dither, s.dither), lossy: levels))
        }
        return steps
    }

    /// The best-looking file of at most `maxBytes`: the settings as given
    /// first; if they do not fit, the last (smallest) step, and then a
    /// binary search between them for the first step that fits (sizes fall
    /// along the steps), each step at its lossy levels from the lowest.
    /// The first file that fits is written to `sink`. Throws a data error,
    /// writing nothing, when even the last step's smallest file is too
    /// large.
    func encodeWithin(_ maxBytes: Int, _ source: FrameSource, timeline: Timeline, to sink: ByteSink) throws
        -> EncodeReport
    {
        let steps = budgetSteps()
        var trials = 0
        var smallest: BudgetChoice?
        /// The best file of step `i` that fits, if one does.
        func attempt(_ i: Int) throws -> (bytes: [UInt8], report: EncodeReport)? {
            let step = steps[i]
            var trial = settings
            trial.quality = step.quality
            trial.colors = step.colors
            trial.dither = step.dither
            var files: [(level: Int, bytes: [UInt8])] = []
            var report: EncodeReport
            if format == .gif {
                let outputs = LossyTrials(levels: step.lossy)
                report = try encodeOnce(trial, source, timeline: timeline, to: outputs)
                files = zip(step.lossy, outputs.outputs).map { ($0, $1.bytes) }
            } else {
                let output = MemorySink()
                report = try encodeOnce(trial, source, timeline: timeline, to: output)
                files = [(0, output.bytes)]
            }
            trials += files.count
            for (level, bytes) in files {
                let choice = BudgetChoice(
                    format: format, quality: step.quality, lossy: level, colors: step.colors, dither: step.dither,
                    bytes: bytes.count, trials: trials)
                if bytes.count <= maxBytes {
                    report.budget = choice
                    return (bytes, report)
                }
                if bytes.count < smallest?.bytes ?? .max { smallest = choice }
            }
            return nil
        }
        var found = try attempt(0)
        if found == nil, steps.count > 1, var best = try attempt(steps.count - 1) {
            var (fails, fits) = (0, steps.count - 1)
            while fits - fails > 1 {
                let mid = (fails + fits) / 2
                if let file = try attempt(mid) {
                    best = file
                    fits = mid
                } else {
                    fails = mid
                }
            }
            found = best
        }
        guard let (bytes, fitting) = found else {
            let reached = smallest.map { "\($0.bytes) bytes (\($0.description))" } ?? "nothing"
            throw ThrobberError(
                .data,
                "no setting fits in \(maxBytes) bytes: the smallest file reached is \(reached); fewer pixels or frames would: --width, --frames 1-:2 (with half the --fps), or a lower --fps"
            )
        }
        var report = fitting
        report.budget?.trials = trials
        if let file = sink as? OutputFile {
            try file.write(bytes)
        } else if !bytes.withUnsafeBytes({ sink.write($0) }) {
            throw ThrobberError(.io, "write failed")
        }
        return report
    }
}
