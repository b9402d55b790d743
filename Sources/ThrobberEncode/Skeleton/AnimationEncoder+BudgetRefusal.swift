import Glibc
import ThrobberCodecs
import ThrobberCore

extension AnimationEncoder {
    /// The refusal of a budget the lower bound showed nothing fits: `last`
    /// at lossy `level` came to `over.bytes` on `over.done` of the
    /// timeline's `over.total` entries, counted while writing the whole
    /// file or as a prefix of its own (`BudgetRun.Overrun.prefix`).
    func boundRefusal(_ last: BudgetStep, level: Int, over: BudgetRun.Overrun, run: BudgetRun) -> ThrobberError {
        let settings = BudgetChoice(
            format: format, quality: last.quality, lossy: level, colors: last.colors, dither: last.dither,
            bytes: over.bytes, trials: 1
        ).description
        let counted =
            over.prefix
            ? "made \(over.bytes) bytes of the first \(over.done) of \(over.total) frames"
            : "passed \(over.bytes) bytes after \(over.done) of \(over.total) frames"
        return budgetRefusal(
            run.maxBytes, reached: "the smallest settings (\(settings)) \(counted)",
            estimate: max(over.bytes, over.bytes * over.total / max(1, over.done)), run.source, run.timeline)
    }

    /// The data error of a budget nothing fits: `reached` says how small
    /// the search got, and the advice what would fit, respecting the
    /// options given and the input's timing (`budgetAdvice`).
    func budgetRefusal(
        _ maxBytes: Int, reached: String, estimate: Int?, _ source: FrameSource, _ timeline: Timeline
    ) -> ThrobberError {
        let width = timeline.entries.first.flatMap { try? source.frame(at: $0.source).width }
        let ownDurations = (0..<source.count).contains { source.duration(at: $0) != nil }
        let advice = Self.budgetAdvice(
            maxBytes: maxBytes, estimate: estimate, width: width, settings: settings, timeline: timeline,
            ownDurations: ownDurations, format: format, fpsResamples: fpsResamples)
        return ThrobberError(.data, "no setting fits in \(maxBytes) bytes: \(reached); \(advice)")
    }

    /// What would fit a budget of `maxBytes` where the smallest file is
    /// about `estimate` bytes: a width, narrower by the ratio of the two
    /// (less `BudgetTuning.widthMargin`). At the smallest settings, files shrink at
    /// least as fast as the width: testsrc2 at 160, 120, 80 and 40 px
    /// wide, 21,325, 17,550, 9,933 and 4,928 bytes (lossy 200 leaves
    /// edges, whose bytes go with the width); noisier frames go with the
    /// area, and a width for them fits with room to spare. And half the
    /// frames, each shown twice as long (`fewerFrames`).
    static func budgetAdvice(
        maxBytes: Int, estimate: Int?, width: Int?, settings: EncodeSettings, timeline: Timeline,
        ownDurations: Bool, format: AnimationFormat, fpsResamples: Bool = false
    ) -> String {
        var ways: [String] = []
        if let width, let estimate, estimate > maxBytes {
            let narrower = Int(Double(width) * Double(maxBytes) / Double(estimate) * BudgetTuning.widthMargin)
            if narrower >= 1 && narrower < width { ways.append("--width \(narrower) (from \(width))") }
        }
        if let fewer = fewerFrames(
            keeping: 0.5, settings: settings, timeline: timeline, ownDurations: ownDurations, format: format,
            fpsResamples: fpsResamples)
        {
            ways.append(
                fpsResamples
                    ? "\(fewer) (half the frame rate)" : "\(fewer) (every second frame, each shown twice as long)")
        }
        guard !ways.isEmpty else { return "fewer pixels or frames would, or a larger --max-bytes" }
        return "fewer pixels or frames would: " + ways.joined(separator: ", or ")
    }

    /// Options that keep about `share` of the frames, each shown longer so
    /// the loop lasts as long: for an input `--fps` resamples (a video, a
    /// Lottie file), `--fps` at that share of its mean rate; otherwise every
    /// kth frame (`--frames` as given with its steps k times longer), with
    /// `--delay`, `--fps` or, for frames with their own delays
    /// (`ownDurations`, kept unless retimed), `--speed` k times slower.
    /// Nil where frames are at the format's shortest delay already (0 or
    /// the minimum: nothing is shown faster, so fewer frames would change
    /// what is seen) or `--frames` picks single frames.
    static func fewerFrames(
        keeping share: Double, settings: EncodeSettings, timeline: Timeline, ownDurations: Bool,
        format: AnimationFormat, fpsResamples: Bool
    ) -> String? {
        let shortest = Rational(Int64(format.limits.delays.lowerBound), 100)
        guard timeline.entries.count > 1, shortest < timeline.shortestEntry, share > 0, share < 1 else { return nil }
        if fpsResamples, timeline.duration > Rational(0) {
            let rate = Double(timeline.entries.count) / timeline.duration.doubleValue
            let lower = (rate * share * 10).rounded(.down) / 10
            return lower >= 0.1 ? "--fps \(cFormat("%g", lower))" : nil
        }
        let k = Int((1 / share).rounded(.up))
        guard let frames = thinnedFrames(settings, step: k) else { return nil }
        let timing = settings.timing
        let n = Rational(Int64(k))
        if let delay = timing.delay, timing.retime || !ownDurations { return "--frames \(frames) --delay \(delay * k)" }
        if timing.retime || !ownDurations { return "--frames \(frames) --fps \(timing.fps / n)" }
        return "--frames \(frames) --speed \(timing.speed / n)"
    }

    /// The note on a budget's file that is posterized or heavily lossy
    /// (`BudgetChoice.isDegraded`): what it gave up, and the frame rate and
    /// width (of `width` now) at which `good` (the smallest file tried
    /// short of that) would fit: frames and width in proportion to the
    /// ratio of the budget to its size, less `BudgetTuning.adviceMargin`.
    /// The width only where palettes are a small part of the budget
    /// (`BudgetTuning.notedWidthPaletteShare`), and not with `--scale`.
    func budgetNote(
        _ choice: BudgetChoice, good: BudgetChoice?, width: Int, _ source: FrameSource, _ timeline: Timeline
    ) -> String {
        let gave = choice.degradation ?? ""
        guard let good, good.bytes > choice.maxBytes else { return gave }
        let share = Double(choice.maxBytes) / Double(good.bytes) * BudgetTuning.adviceMargin
        var ways: [String] = []
        let ownDurations = (0..<source.count).contains { source.duration(at: $0) != nil }
        if let fewer = Self.fewerFrames(
            keeping: share, settings: settings, timeline: timeline, ownDurations: ownDurations, format: format,
            fpsResamples: fpsResamples)
        {
            ways.append(fewer)
        }
        // Bytes follow the width (at least) only where the palettes, which do
        // not shrink with it, are a small part of the budget.
        let narrower = Int(Double(width) * share)
        if timeline.entries.count * 3 * (good.colors ?? 256)
            <= Int(Double(choice.maxBytes) * BudgetTuning.notedWidthPaletteShare),
            narrower >= BudgetTuning.reducedSideMinimum, narrower < width, settings.transform.scale == nil
        {
            ways.append("--width \(narrower) (from \(width))")
        }
        guard !ways.isEmpty else { return gave }
        return "\(gave); at \(good.description) it would fit with about " + ways.joined(separator: ", or ")
    }

    /// `--frames` as given with every range's step `k` times longer
    /// ("1-30" → "1-30:2" for 2), or "1-:k" where none was given; nil
    /// where it picks only single frames.
    static func thinnedFrames(_ settings: EncodeSettings, step k: Int) -> String? {
        guard let selection = settings.transform.frames else { return "1-:\(k)" }
        guard selection.parts.contains(where: { $0.first != $0.last || $0.first == nil }) else { return nil }
        return selection.parts.map { part in
            if let first = part.first, part.last == first { return "\(first)" }
            let ends = "\(part.first.map(String.init) ?? "")-\(part.last.map(String.init) ?? "")"
            return "\(ends):\(part.step * k)"
        }.joined(separator: ",")
    }
}
