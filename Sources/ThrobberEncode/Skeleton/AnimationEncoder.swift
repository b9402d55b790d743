import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore

/// Frames → an animated file, for every format: the stages of
/// docs/architecture.md in one place.
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
    /// Called as each pass over the frames of multi-pass work (a byte
    /// budget's search) begins, before its `progress` calls, with what the
    /// pass tries; never called for a single pass.
    public var passes: ((EncodePass) -> Void)?
    /// Whether `--fps` picks this input's frames by time (a video, a
    /// Lottie file), so a byte budget's advice names a lower `--fps`
    /// rather than a step through the frames.
    public var fpsResamples = false

    /// An encoder for `format`. Nothing is checked until `encode`.
    public init(format: AnimationFormat, settings: EncodeSettings, progress: ((Int, Int) -> Void)? = nil) {
        self.format = format
        self.settings = settings
        self.progress = progress
    }

    /// Encodes `source` with the timing of `settings.timing` (frames of
    /// animated inputs keep their own durations unless retimed), after
    /// picking, reversing, cropping and resizing frames as
    /// `settings.transform` says.
    ///
    /// Throws ``ThrobberError/Kind/usage`` with a ``ThrobberError/field``
    /// for a setting out of range (or, for the crop, outside the frames),
    /// ``ThrobberError/Kind/noInput`` when `source` has no frames,
    /// ``ThrobberError/Kind/data`` when frames differ in size, the source's
    /// own errors, and `sink`'s write errors. The sink is not committed:
    /// call ``OutputFile/commit()`` after.
    public func encode(_ source: FrameSource, to sink: OutputFile) throws -> EncodeReport {
        try settings.validate(for: format)
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        var picked = source
        let transform = settings.transform
        if transform.selectsFrames {
            var indices = try transform.frames?.indices(count: source.count) ?? Array(0..<source.count)
            if transform.reverse { indices.reverse() }
            picked = SelectedFrames(source, indices: indices)
        }
        return try encodeTransformed(picked, timeline: Timeline(source: picked, settings: settings.timing), to: sink)
    }

    /// Encodes `source` shown as `timeline` says (scenes and frame configs
    /// bring their own timing, already sped up; `settings.timing.speed`
    /// then only tells how fast the timeline is, for messages). Crops and
    /// resizes as `settings.transform` says; picking frames is the
    /// timeline's job, so `transform.frames` and `reverse` must be unset.
    /// Throws as ``encode(_:to:)`` does; every entry's
    /// ``Timeline/Entry/source`` must be an index into `source`.
    public func encode(_ source: FrameSource, timeline: Timeline, to sink: OutputFile) throws -> EncodeReport {
        try settings.validate(for: format)
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        guard !settings.transform.selectsFrames else {
            throw ThrobberError(.usage, field: .frames, "cannot pick frames when the timeline is given")
        }
        return try encodeTransformed(source, timeline: timeline, to: sink)
    }

    /// The checks ``encode(_:to:)`` makes before it reads a frame, without
    /// encoding: the settings against the format, the timeline, and the
    /// memory plan for `source`'s frame sizes and what it keeps decoded.
    /// Throws what `encode` would for them (`info` says so for a video).
    public func check(_ source: FrameSource) throws {
        try settings.validate(for: format)
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        let timeline = try Timeline(source: source, settings: settings.timing)
        try checkSpeed(timeline)
        let (coder, settings, entries) = (format.encoder, settings, timeline.entries.count)
        let plan = try MemoryPlan(
            source: source, transform: settings.transform.changesPixels ? settings.transform : nil,
            jobs: settings.jobs, budget: settings.memory ?? .machineDefault,
            held: { coder.heldFrames(settings, frames: entries, size: $0) })
        if let size = plan.output { try format.limits.check(size) }
    }

    /// The pixel transforms and the format's run, once frames and timing
    /// are settled.
    private func encodeTransformed(_ source: FrameSource, timeline: Timeline, to sink: OutputFile) throws
        -> EncodeReport
    {
        if settings.transform.trim {
            // A first pass finds what the frames draw; the trim becomes a crop.
            try checkSpeed(timeline)
            var trimmed = self
            let (transform, box) = try settings.transform.trimmed(over: source, jobs: settings.jobs)
            trimmed.settings.transform = transform
            var report = try trimmed.encodeTransformed(source, timeline: timeline, to: sink)
            report.trim = box
            return report
        }
        let timeline = try settings.posterFrame.map { try timeline.rotated(posterFrame: $0) } ?? timeline
        try checkSpeed(timeline)
        let transformed =
            settings.transform.changesPixels
            ? TransformedFrames(
                source, transform: settings.transform, resamplesInSource: settings.compression == .fast)
            : nil
        let (coder, settings, entries) = (format.encoder, settings, timeline.entries.count)
        let plan = try MemoryPlan(
            source: source, transform: transformed?.transform, jobs: settings.jobs,
            budget: settings.memory ?? .machineDefault,
            held: { coder.heldFrames(settings, frames: entries, size: $0) })
        if let size = plan.output { try format.limits.check(size) }
        var report: EncodeReport
        if let maxBytes = settings.maxBytes {
            report = try encodeWithinReducing(
                maxBytes, source, transformed: transformed, timeline: timeline, to: sink, batch: plan.batch)
        } else {
            report = try encodeOnce(settings, transformed ?? source, timeline: timeline, to: sink, batch: plan.batch)
        }
        report.format = format
        if report.inputWidth > 0 {
            // Set by a budget that reduced the size.
        } else if let size = transformed?.inputSize {
            (report.inputWidth, report.inputHeight) = size
        } else {
            (report.inputWidth, report.inputHeight) = (report.width, report.height)
        }
        return report
    }

    /// One encode with `settings` (a trial of the byte budget, or the only one).
    func encodeOnce(
        _ settings: EncodeSettings, _ source: FrameSource, timeline: Timeline, to sink: ByteSink, batch: Int
    ) throws -> EncodeReport {
        var encoder = AnimationEncoder(format: format, settings: settings, progress: progress)
        encoder.settings.maxBytes = nil
        var formatEncoder = format.encoder.init(settings: encoder.settings, timeline: timeline, sink: sink)
        return try encoder.run(&formatEncoder, source, timeline, batch: batch)
    }

    /// A speed-up must not make frames shorter than the format can show.
    private func checkSpeed(_ timeline: Timeline) throws {
        let speed = settings.timing.speed
        guard speed != Rational(1) else { return }
        let limits = format.limits
        let shortest = timeline.shortestEntry
        let minimum = Rational(Int64(limits.delays.lowerBound), 100)
        guard shortest < minimum else { return }
        // The fastest speed that keeps every frame at least `minimum` long,
        // rounded down to hundredths.
        let hundredths = speed * shortest / minimum * Rational(100)
        let fastestText = Rational(hundredths.numerator / hundredths.denominator, 100).description
        throw ThrobberError(
            .usage, field: .speed,
            "\(speed) makes frames \(cFormat("%.2f", (shortest * Rational(100)).doubleValue)) cs long, but \(limits.name) needs at least \(limits.delays.lowerBound) cs\(limits.delayReason.map { " (\($0))" } ?? ""); use \(fastestText) or less"
        )
    }

    /// Prepared frames kept from the survey, up to this many bytes, so small
    /// animations are decoded only once.
    static let cacheBudget = 48 << 20

    /// Runs `format`, made for this encoder's settings, over `source`
    /// shown as `timeline`: the survey, then ordered batches planned here,
    /// processed on worker threads and written in order. Ends early, with
    /// the frames written so far, when the format is `stopped`.
    func run<Format: FormatEncoder>(
        _ format: inout Format, _ source: FrameSource,
        _ timeline: Timeline, batch: Int
    ) throws -> EncodeReport {
        let jobs = settings.jobs
        var loader = FrameLoader(
            source: source, alpha: format.alpha, jobs: jobs, batch: batch, cacheBudget: Self.cacheBudget)
        try format.survey(&loader)

        var frames = DistinctFrames(timeline, batch: batch)
        var report = EncodeReport()
        report.lossy = settings.lossy
        var inFlight: (work: Pending<[Format.Ready]>, entriesDone: Int)?
        func write(_ batch: (work: Pending<[Format.Ready]>, entriesDone: Int)?) throws {
            guard let batch else { return }
            let ready = try batch.work.wait()
            try format.write(ready)
            // A stopped run does not count the batch that stopped it as done.
            guard !format.stopped else { return }
            report.frames += ready.count
            progress?(batch.entriesDone, timeline.entries.count)
        }

        while let batch = try frames.next(from: &loader) {
            var planned: [Format.Planned] = []
            for frame in batch {
                if report.width == 0 {
                    report.width = frame.image.width
                    report.height = frame.image.height
                    // Sizes no header gave are checked against the format here.
                    try Format.limits.check(FrameSize(width: frame.image.width, height: frame.image.height))
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
            if format.stopped { return report }
            inFlight = work.map { ($0, batch.last?.endEntry ?? 0) }
        }
        try write(inFlight)
        if format.stopped { return report }
        report.palette = try format.finish()
        report.durationCentiseconds = timeline.startCentiseconds(timeline.entries.count)
        return report
    }
}
