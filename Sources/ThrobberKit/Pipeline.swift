import Foundation

/// The animated formats Throbber writes.
public enum AnimationFormat: String, Sendable, CaseIterable {
    case gif, apng
}

/// Everything that decides how frames become a GIF, apart from the frames.
public struct EncodeSettings: Equatable, Sendable {
    public var timing = Timeline.Settings()
    /// 0 = forever, N = play N times.
    public var loop = 0
    /// nil: lossless when every frame fits in 256 colors, else `defaultQuality`.
    public var quality: Int? = nil
    public var dither = 1.0
    /// Most colors per palette, 2–256. GIF: nil means 256. APNG: a palette
    /// APNG of at most this many colors; nil means lossless truecolor.
    public var colors: Int? = nil
    public var alpha = AlphaPolicy()
    /// Worker threads; output bytes never depend on it.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount

    /// libimagequant quality used when frames have too many colors. 100
    /// rather than 90: on testsrc2 quality 90 is 1.5 dB below ffmpeg's
    /// per-frame palettes, 100 is 2.7 dB above it and no larger
    /// (docs/benchmarks.md).
    public static let defaultQuality = 100
    /// Browsers show GIF delays under 2 cs as 10 cs, so faster is refused.
    public static let maxGIFFPS = 50

    public init() {}

    /// Refuses settings that cannot make a correct GIF, with the reason.
    public func validate() throws { try validate(for: .gif) }

    /// Refuses settings that cannot make a correct file of `format`.
    public func validate(for format: AnimationFormat) throws {
        func bad(_ s: String) -> ThrobberError { ThrobberError(.usage, s) }
        if let delay = timing.delay {
            guard (format == .gif ? 2...65535 : 1...65535).contains(delay) else {
                throw bad("--delay must be 2…65535 centiseconds for GIF (browsers show 0–1 cs as 10 cs), got \(delay)")
            }
        } else {
            guard timing.fps > Rational(0) else { throw bad("fps must be greater than 0, got \(timing.fps)") }
            // Bounded so that exact time arithmetic cannot overflow.
            guard timing.fps.numerator <= 1_000_000_000, timing.fps.denominator <= 1_000_000 else {
                throw bad("fps \(timing.fps) is too large or too finely divided (up to 1e9, denominators up to 1e6)")
            }
            guard format != .gif || timing.fps <= Rational(Int64(EncodeSettings.maxGIFFPS)) else {
                throw bad("fps \(timing.fps) is too fast for GIF: delays under 2 cs (over \(EncodeSettings.maxGIFFPS) fps) are slowed to 10 cs by browsers; use --fps 50 or less")
            }
        }
        guard timing.duplicate >= 1 else { throw bad("--duplicate must be 1 or more, got \(timing.duplicate)") }
        let maxLoop = format == .gif ? 65536 : Int(Int32.max)
        guard (0...maxLoop).contains(loop) else { throw bad("--loop must be 0 (forever) … \(maxLoop), got \(loop)") }
        if let quality, !(1...100).contains(quality) { throw bad("--quality must be 1…100, got \(quality)") }
        guard (0...1).contains(dither) else { throw bad("--dither must be 0…1, got \(dither)") }
        if let colors, !(2...256).contains(colors) { throw bad("--colors must be 2…256, got \(colors)") }
        guard jobs >= 1 else { throw bad("--jobs must be 1 or more, got \(jobs)") }
    }
}

/// What an encode produced.
public struct EncodeReport: Sendable {
    public var width = 0, height = 0
    /// Frames in the file (after identical neighbours were merged).
    public var frames = 0
    public var durationCentiseconds: Int64 = 0
    public var palette = ""
}

/// Frames → GIF: the stages of ARCHITECTURE.md wired together. Frames are
/// processed in ordered batches: decoding and palette work run in parallel,
/// planning and writing run in order, so memory stays flat and the bytes are
/// the same for any number of threads.
public struct GIFPipeline {
    public var settings: EncodeSettings
    /// Called after each written frame with (timeline entries done, total).
    public var progress: ((Int, Int) -> Void)?

    public init(settings: EncodeSettings, progress: ((Int, Int) -> Void)? = nil) {
        self.settings = settings
        self.progress = progress
    }

    /// Prepared frames kept from the color census, up to this many bytes, so
    /// small animations are decoded only once.
    static let cacheBudget = 48 << 20

    /// The longest delay one GIF frame can have, in centiseconds.
    static let maxDelay: Int64 = 65535

    /// Encodes `source` with the timing of `settings.timing`.
    public func encode(_ source: FrameSource, to sink: OutputFile) throws -> EncodeReport {
        try settings.validate()
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        return try encode(source, timeline: Timeline(source: source, settings: settings.timing), to: sink)
    }

    /// Encodes `source` shown as `timeline` says (scenes and frame configs
    /// bring their own timing).
    public func encode(_ source: FrameSource, timeline: Timeline, to sink: OutputFile) throws -> EncodeReport {
        try settings.validate()
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        var loader = FrameLoader(source: source, alpha: settings.alpha, jobs: settings.jobs)

        let choice: PaletteChoice
        let fallback = Quantizer(quality: settings.quality ?? EncodeSettings.defaultQuality,
                                 colors: settings.colors ?? 256, dither: settings.dither)
        if settings.quality == nil {
            choice = try loader.census(cacheBudget: GIFPipeline.cacheBudget, maxColors: settings.colors ?? 256, fallback: fallback)
                ?? .quantized(fallback)
        } else {
            choice = .quantized(fallback)
        }


        var writer: FrameWriter? = nil
        var planner = FramePlanner()
        var first: RGBAImage? = nil
        var planned: [PlannedFrame] = []
        var report = EncodeReport()
        report.palette = choice.summary

        func plan(_ frame: (image: RGBAImage, entry: Int), next: RGBAImage, nextEntry: Int) {
            let delay = timeline.startCentiseconds(nextEntry) - timeline.startCentiseconds(frame.entry)
            // A GIF delay is at most 65535 cs: show a longer frame as several
            // equal parts (the later ones redraw a single unchanged pixel).
            // (At least one part: a 0 cs frame of an input GIF stays a frame.)
            let parts = max(1, Int((delay + GIFPipeline.maxDelay - 1) / GIFPipeline.maxDelay))
            for part in 0..<parts {
                let last = part == parts - 1
                let share = Int(delay) / parts + (part < Int(delay) % parts ? 1 : 0)
                let geometry = planner.plan(frame.image, next: last ? next : frame.image)
                planned.append(PlannedFrame(target: frame.image, geometry: geometry, delay: share,
                                            index: planned.count + report.frames, endEntry: last ? nextEntry : frame.entry))
            }
        }

        var inFlight: Pending<[FrameWriter.Paletted]>? = nil
        func write(_ pending: Pending<[FrameWriter.Paletted]>?) throws {
            // (A batch of frames identical to the one before plans nothing.)
            guard let frames = try pending?.wait(), !frames.isEmpty else { return }
            try writer!.write(frames)
            if let last = frames.last { progress?(last.frame.endEntry, timeline.entries.count) }
        }

        // A frame is planned once the next one is known (for its disposal);
        // the last one looks ahead to the first, which a looping viewer shows next.
        try loader.walk(timeline, frame: { image, entry, next, endEntry in
            if first == nil { first = image }
            plan((image, entry), next: next ?? first!, nextEntry: endEntry)
        }, batchDone: {
            if writer == nil, let f = first {
                writer = try FrameWriter(sink: sink, width: f.width, height: f.height, choice: choice,
                                         loop: settings.loop, jobs: settings.jobs)
            }
            // Palettes for this batch are found while the previous batch is written.
            let batchFrames = planned
            let next = Pending { [choice, jobs = settings.jobs] in
                try FrameWriter.palettize(batchFrames, choice: choice, jobs: jobs)
            }
            report.frames += planned.count
            planned.removeAll()
            try write(inFlight)
            inFlight = next
        })
        try write(inFlight)
        try writer!.finish()
        if case .local = choice, writer!.quantizedFrames > 0 {
            // A frame's redrawn rectangle outgrew 256 colors after all.
            report.palette += ", \(writer!.quantizedFrames) of \(report.frames) frames quantized"
        }
        report.width = first!.width
        report.height = first!.height
        report.durationCentiseconds = timeline.startCentiseconds(timeline.entries.count)
        return report
    }
}

/// A frame whose geometry and delay are decided, waiting for its palette.
struct PlannedFrame {
    var target: RGBAImage
    var geometry: FrameGeometry
    var delay: Int
    var index: Int
    var endEntry: Int
}

