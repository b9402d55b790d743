import ThrobberCodecs
import ThrobberCore

extension AnimationEncoder {
    /// One GIF byte-budget trial: `source` encoded with `settings` into
    /// `trials`, one file per lossy level from the same palettized frames,
    /// each stopped once it cannot fit (`LossyTrials`). Ends early where
    /// every file is over (`trials.abandoned`).
    func encodeTrials(
        _ settings: EncodeSettings, _ source: FrameSource, timeline: Timeline, into trials: LossyTrials, batch: Int
    ) throws -> EncodeReport {
        var encoder = AnimationEncoder(format: .gif, settings: settings, progress: progress)
        encoder.settings.maxBytes = nil
        var gif = GIFEncoder(settings: encoder.settings, timeline: timeline, trials: trials)
        return try encoder.run(&gif, source, timeline, batch: batch)
    }
}
