import ThrobberCodecs
import ThrobberCore

/// Frames → an animated file, for every format: the stages of
/// ARCHITECTURE.md in one place.
///
/// 1. validate the settings against the format's limits;
/// 2. lay the frames out in time (the timeline);
/// 3. survey the frames when the format needs a look at all of them first;
/// 4. walk the distinct frames in ordered batches: plan each in order, then
///    process the batch on worker threads while the batch before it is
///    written in order.
///
/// Memory stays flat in the number of frames, and the bytes are the same for
/// any number of threads. What differs between formats is behind
/// `FormatEncoder`.
public struct AnimationEncoder {
    /// The format written.
    public var format: AnimationFormat
    /// How frames are timed, colored and compressed; checked against
    /// `format` by each `encode` call before any frame is read.
    public var settings: EncodeSettings
    /// Called after each written batch with (timeline entries done, total).
    public var progress: ((Int, Int) -> Void)?

    /// An encoder for `format`. Nothing is checked until `encode`.
    public init(format: AnimationFormat, settings: EncodeSettings, progress: ((Int, Int) -> Void)? = nil) {
        self.format = format
        self.settings = settings
        self.progress = progress
    }

    /// Encodes `source` with the timing of `settings.timing` (frames of
    /// animated inputs keep their own durations unless retimed).
    ///
    /// Throws ``ThrobberError/Kind/usage`` with a ``ThrobberError/field``
    /// for a setting out of range, ``ThrobberError/Kind/noInput`` when
    /// `source` has no frames, ``ThrobberError/Kind/data`` when frames
    /// differ in size, the source's own errors, and `sink`'s write errors.
    /// The sink is not committed: call ``OutputFile/commit()`` after.
    public func encode(_ source: FrameSource, to sink: OutputFile) throws -> EncodeReport {
        try settings.validate(for: format)
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        return try encode(source, timeline: Timeline(source: source, settings: settings.timing), to: sink)
    }

    /// Encodes `source` shown as `timeline` says (scenes and frame configs
    /// bring their own timing). Throws as ``encode(_:to:)`` does; every
    /// entry's ``Timeline/Entry/source`` must be an index into `source`.
    public func encode(_ source: FrameSource, timeline: Timeline, to sink: OutputFile) throws -> EncodeReport {
        try settings.validate(for: format)
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        var encoder = format.encoder.init(settings: settings, timeline: timeline, sink: sink)
        return try run(&encoder, source, timeline)
    }

    /// Prepared frames kept from the survey, up to this many bytes, so small
    /// animations are decoded only once.
    static let cacheBudget = 48 << 20

    private func run<Format: FormatEncoder>(
        _ format: inout Format, _ source: FrameSource,
        _ timeline: Timeline
    ) throws -> EncodeReport {
        let jobs = settings.jobs
        var loader = FrameLoader(source: source, alpha: format.alpha, jobs: jobs, cacheBudget: Self.cacheBudget)
        try format.survey(&loader)

        var frames = DistinctFrames(timeline, jobs: jobs)
        var report = EncodeReport()
        var inFlight: (work: Pending<[Format.Ready]>, entriesDone: Int)?
        func write(_ batch: (work: Pending<[Format.Ready]>, entriesDone: Int)?) throws {
            guard let batch else { return }
            let ready = try batch.work.wait()
            try format.write(ready)
            report.frames += ready.count
            progress?(batch.entriesDone, timeline.entries.count)
        }

        while let batch = try frames.next(from: &loader) {
            var planned: [Format.Planned] = []
            for frame in batch {
                if report.width == 0 {
                    report.width = frame.image.width
                    report.height = frame.image.height
                    try format.begin(first: frame.image)
                }
                planned += try format.plan(frame)
            }
            // (A batch of frames identical to the one before plans nothing.)
            let work =
                planned.isEmpty
                ? nil
                : Pending { [planned, stage = format.stage] in
                    try Format.process(planned, stage: stage, jobs: jobs)
                }
            try write(inFlight)
            inFlight = work.map { ($0, batch.last?.endEntry ?? 0) }
        }
        try write(inFlight)
        report.palette = try format.finish()
        report.durationCentiseconds = timeline.startCentiseconds(timeline.entries.count)
        return report
    }
}
