import ThrobberCodecs
import ThrobberCore

/// Whether the exhaustive setting races: a sample of the first frames
/// coded both ways decides (measured in docs/tuning.md, "WebP: which
/// lossless settings race", the exhaustive table).
extension WebPRace {
    /// Whether the exhaustive setting codes a sample at least
    /// `exhaustiveGainPercent` smaller than method 5 does. The sample
    /// (`ExhaustiveSample`) is the part of `first` that is drawn and, where
    /// it shows something else or the drawing alone does not settle it, the
    /// rectangle in which `next`, the first frame that differs, changes it.
    /// On the 18 presets, truecolor and with `--colors` 8 to 256, it agrees
    /// with the whole animation on whether the exhaustive setting gains.
    static func exhaustivePays(_ first: RGBAImage, next: RGBAImage?, frames: Int) throws -> Bool {
        let method5 = WebPTuning.method5
        let exhaustive = WebPTuning.exhaustive
        let sample = ExhaustiveSample(first, next: next)
        // The drawing, or where the first frame is blank the rectangle.
        guard let lead = sample.drawn ?? sample.changed else { return false }
        var base = [try WebPAnimWriter.stillSize(lead, settings: method5)]
        // At method 5 times the frames: about the file.
        let (predicted, overflow) = base[0].multipliedReportingOverflow(by: frames)
        guard !overflow && predicted <= WebPTuning.exhaustiveBytes else { return false }
        var tried = [try WebPAnimWriter.stillSize(lead, settings: exhaustive)]
        if sample.drawn != nil, let changed = sample.changed,
            !sample.coincide || (tried[0] < base[0] && !gains(tried[0], over: base[0]))
        {
            base.append(try WebPAnimWriter.stillSize(changed, settings: method5))
            tried.append(try WebPAnimWriter.stillSize(changed, settings: exhaustive))
        }
        return gains(tried.reduce(0, +), over: base.reduce(0, +))
    }

    /// Whether `bytes` is at least `exhaustiveGainPercent` under `base`.
    private static func gains(_ bytes: Int, over base: Int) -> Bool {
        bytes * 100 <= base * (100 - WebPTuning.exhaustiveGainPercent)
    }

    /// What `exhaustivePays` codes both ways.
    ///
    /// `drawn` is the part of the first frame that is drawn
    /// (`FrameDiff.contentBox`; the margin of plain or transparent
    /// background around it costs next to nothing either way). `changed`
    /// is the rectangle in which the next frame that differs changes it;
    /// it `coincide`s with the drawing when their overlap is at least half
    /// the larger of the two: the same drawing, turned or grown. Then the
    /// drawing speaks for it where the exhaustive setting codes the drawing
    /// no smaller or clearly smaller; where it gains less, the rectangle is
    /// coded too (a drawing can gain under 1 % where each frame's own
    /// palette on its rectangle gains 7 %). A rectangle that shows
    /// something else is always coded: a first frame can gain nothing where
    /// the one part that moves gains a third.
    ///
    /// The exhaustive coder takes about 15 times method 5's time a pixel,
    /// and the sample runs beside the racers: coding the whole first frame
    /// and rectangle instead of the drawing cost small loaders up to twice
    /// the time of their whole animation at method 5.
    struct ExhaustiveSample {
        /// The box of the first frame's pixels that differ from its
        /// background; nil where the frame is blank.
        var drawn: RGBAImage?
        /// The rectangle the next frame that differs changes, from that
        /// frame; nil where there is none.
        var changed: RGBAImage?
        /// Whether `drawn` and `changed` overlap by at least half the
        /// larger.
        var coincide: Bool

        /// The sample of `first` and `next`, the first frame that differs
        /// from it (nil: none).
        init(_ first: RGBAImage, next: RGBAImage?) {
            let box = FrameDiff.contentBox(first)
            let rect = next.map { FrameDiff.changedRect(first, $0) } ?? .empty
            drawn = box.isEmpty ? nil : FrameDiff.crop(first, box)
            changed = rect.isEmpty ? nil : next.map { FrameDiff.crop($0, rect) }
            coincide = !box.isEmpty && !rect.isEmpty && rect.intersection(box).area * 2 >= max(rect.area, box.area)
        }
    }
}
