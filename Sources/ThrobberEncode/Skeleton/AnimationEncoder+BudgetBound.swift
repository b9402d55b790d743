import Glibc
import ThrobberCodecs
import ThrobberCore

extension AnimationEncoder {
    /// How far past the budget the smallest settings' file must grow for
    /// the budget to be refused before the search: the ladder's files
    /// shrink along its steps, but not always strictly (a 2-color Game of
    /// Life: 474,871 B lossless as given, 486,219 B at 24 colors, 2.4 %
    /// more). A wider margin costs a refusal only the bytes between.
    static let boundMargin = 1.05

    /// A sink that only counts, refusing writes once `stop` is set: the
    /// encode writing to it then ends with a write error.
    final class CountingSink: ByteSink {
        private(set) var count = 0
        var stop = false
        /// The bytes and entries done when the count was first seen past
        /// the cap, after a batch.
        var over: (bytes: Int, done: Int)?

        func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard !stop else { return false }
            count += bytes.count
            return true
        }
    }

    /// The lower bound of a byte budget, before the search: `last` (the
    /// ladder's smallest step) at lossy `level`, written only to count its
    /// bytes. Where they pass `boundMargin` times `maxBytes`, no step can
    /// fit: returns those bytes and how many of the timeline's entries
    /// were written then (the batch that passed the cap is finished, so
    /// the share is exact). The pass stops without a verdict after the
    /// first batch whose bytes, scaled by the share of the timeline
    /// written, come to no more than the cap; the search then goes on as
    /// before. (Waiting for a quarter of the timeline there cost budgets
    /// that fit 12 % more time on testsrc2, and refused none sooner on
    /// the corpora.) The bound never refuses a budget the search could
    /// meet: bytes written are a prefix of the smallest file.
    func smallestPasses(
        _ last: BudgetStep, level: Int, maxBytes: Int, _ source: FrameSource, _ timeline: Timeline, batch: Int
    ) throws -> (bytes: Int, done: Int, total: Int)? {
        var trial = settings
        trial.quality = last.quality
        trial.colors = last.colors
        trial.dither = last.dither
        trial.lossy = level
        let cap = Double(maxBytes) * Self.boundMargin
        let total = timeline.entries.count
        let sink = CountingSink()
        var sampler = self
        sampler.progress = { [progress] done, total in
            progress?(done, total)
            guard done > 0, !sink.stop else { return }
            let projected = Double(sink.count) * Double(total) / Double(done)
            if Double(sink.count) > cap {
                sink.over = (sink.count, done)
                sink.stop = true
            } else if projected <= cap {
                sink.stop = true
            }
        }
        do {
            _ = try sampler.encodeOnce(trial, source, timeline: timeline, to: sink, batch: batch)
        } catch  where sink.stop {
            return sink.over.map { ($0.bytes, $0.done, total) }
        }
        return Double(sink.count) > cap ? (sink.count, total, total) : nil
    }

    /// The share of the timeline WebP's lower bound encodes first: a
    /// sixteenth costs feasible budgets about a sixteenth of one pass of a
    /// search of eight or so.
    static let webPSampleShare = 16

    /// WebP's lower bound, after the settings as given did not fit: libwebp
    /// writes its file only at the end, so `last` (the ladder's smallest
    /// step, lowest lossy quality) is encoded on a prefix of the timeline,
    /// a sixteenth of it first (`webPSampleShare`), twice as long each
    /// time while its bytes project past `boundMargin` times `maxBytes`.
    /// Returns the bytes and entries of the prefix that passed the cap
    /// alone: no quality of the ladder can fit then. Nil once a prefix
    /// projects to fit (the search goes on) or the whole timeline fits.
    /// The frames of a prefix are coded as the same frames of the whole
    /// (each frame against the ones before it), so its bytes are about a
    /// prefix of the smallest file's; lossless as given may be smaller
    /// than lossy quality 1, which is why this runs after that step.
    func smallestPrefixes(
        _ last: BudgetStep, maxBytes: Int, _ source: FrameSource, _ timeline: Timeline, batch: Int
    ) throws -> (bytes: Int, done: Int, total: Int)? {
        var trial = settings
        trial.quality = last.quality
        trial.colors = last.colors
        trial.dither = last.dither
        let cap = Double(maxBytes) * Self.boundMargin
        let total = timeline.entries.count
        var done = max(1, total / Self.webPSampleShare)
        while true {
            let sink = CountingSink()
            var sampler = self
            sampler.progress = { [progress] entries, _ in progress?(entries, total) }
            _ = try sampler.encodeOnce(trial, source, timeline: timeline.prefix(done), to: sink, batch: batch)
            if Double(sink.count) > cap { return (sink.count, done, total) }
            if done == total || Double(sink.count) * Double(total) / Double(done) <= cap { return nil }
            done = min(total, done * 2)
        }
    }

    /// The refusal of a budget the lower bound showed nothing fits: `last`
    /// at lossy `level` came to `over.bytes` on `over.done` of the
    /// timeline's `over.total` entries, counted while writing the whole
    /// file (`smallestPasses`) or as a `prefix` of its own
    /// (`smallestPrefixes`).
    func boundRefusal(
        _ last: BudgetStep, level: Int, maxBytes: Int, over: (bytes: Int, done: Int, total: Int), prefix: Bool,
        _ source: FrameSource, _ timeline: Timeline
    ) -> ThrobberError {
        let settings = BudgetChoice(
            format: format, quality: last.quality, lossy: level, colors: last.colors, dither: last.dither,
            bytes: over.bytes, trials: 1
        ).description
        let counted =
            prefix
            ? "made \(over.bytes) bytes of the first \(over.done) of \(over.total) frames"
            : "passed \(over.bytes) bytes after \(over.done) of \(over.total) frames"
        return budgetRefusal(
            maxBytes, reached: "the smallest settings (\(settings)) \(counted)",
            estimate: max(over.bytes, over.bytes * over.total / max(1, over.done)), source, timeline)
    }

    /// What a pass of the search tries, for its progress label: "32
    /// colors, quality 20, lossy 0–200", "quality 40" (WebP).
    static func stepText(_ step: BudgetStep, levels: [Int], format: AnimationFormat) -> String {
        if format == .webp { return step.quality.map { "quality \($0)" } ?? "the settings as given" }
        var parts: [String] = []
        switch (format, step.colors) {
        case (.gif, nil): parts.append("256 colors")
        case (_, nil): parts.append("truecolor")
        case (_, let c?): parts.append("\(c) colors")
        }
        parts.append(step.quality.map { "quality \($0)" } ?? "default quality")
        if format == .gif, let low = levels.min(), let high = levels.max() {
            parts.append(low == high ? "lossy \(low)" : "lossy \(low)–\(high)")
        }
        return parts.joined(separator: ", ")
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

    /// The share of the width that `budgetAdvice` takes off beyond the
    /// bytes' ratio: headers and palettes do not shrink with the frames.
    static let widthMargin = 0.9

    /// What would fit a budget of `maxBytes` where the smallest file is
    /// about `estimate` bytes: a width, narrower by the ratio of the two
    /// (less `widthMargin`). At the smallest settings, files shrink at
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
            let narrower = Int(Double(width) * Double(maxBytes) / Double(estimate) * widthMargin)
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
