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
            ownDurations: ownDurations, format: format)
        return ThrobberError(.data, "no setting fits in \(maxBytes) bytes: \(reached); \(advice)")
    }

    /// What would fit a budget of `maxBytes` where the smallest file is
    /// about `estimate` bytes: a width, narrower by the ratio of the two
    /// (less `BudgetTuning.widthMargin`). At the smallest settings, files shrink at
    /// least as fast as the width: testsrc2 at 160, 120, 80 and 40 px
    /// wide, 21,325, 17,550, 9,933 and 4,928 bytes (lossy 200 leaves
    /// edges, whose bytes go with the width); noisier frames go with the
    /// area, and a width for them fits with room to spare. And, where
    /// frames are not already at the format's shortest delay
    /// (0 or the minimum: nothing is shown faster, so fewer frames would
    /// change what is seen), every second of the frames picked (`--frames`
    /// as given, with its steps doubled) shown twice as long: `--fps` or
    /// `--delay` halved, or for frames with their own delays
    /// (`ownDurations`, kept unless retimed) `--speed`.
    static func budgetAdvice(
        maxBytes: Int, estimate: Int?, width: Int?, settings: EncodeSettings, timeline: Timeline,
        ownDurations: Bool, format: AnimationFormat
    ) -> String {
        var ways: [String] = []
        if let width, let estimate, estimate > maxBytes {
            let narrower = Int(Double(width) * Double(maxBytes) / Double(estimate) * BudgetTuning.widthMargin)
            if narrower >= 1 && narrower < width { ways.append("--width \(narrower) (from \(width))") }
        }
        let shortest = Rational(Int64(format.limits.delays.lowerBound), 100)
        if timeline.entries.count > 1, shortest < timeline.shortestEntry, let frames = halvedFrames(settings) {
            let timing = settings.timing
            let slower: String
            if let delay = timing.delay, timing.retime || !ownDurations {
                slower = "--delay \(delay * 2)"
            } else if timing.retime || !ownDurations {
                slower = "--fps \(timing.fps / Rational(2))"
            } else {
                slower = "--speed \(timing.speed / Rational(2))"
            }
            ways.append("--frames \(frames) \(slower) (every second frame, each shown twice as long)")
        }
        guard !ways.isEmpty else { return "fewer pixels or frames would, or a larger --max-bytes" }
        return "fewer pixels or frames would: " + ways.joined(separator: ", or ")
    }

    /// `--frames` as given with every range's step doubled ("1-30" →
    /// "1-30:2"), or "1-:2" where none was given; nil where it picks only
    /// single frames.
    static func halvedFrames(_ settings: EncodeSettings) -> String? {
        guard let selection = settings.transform.frames else { return "1-:2" }
        guard selection.parts.contains(where: { $0.first != $0.last || $0.first == nil }) else { return nil }
        return selection.parts.map { part in
            if let first = part.first, part.last == first { return "\(first)" }
            let ends = "\(part.first.map(String.init) ?? "")-\(part.last.map(String.init) ?? "")"
            return "\(ends):\(part.step * 2)"
        }.joined(separator: ",")
    }
}
