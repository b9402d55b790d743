import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// A validated config turned into what the encode pipeline takes: frames,
/// their timeline, and encode settings.
public struct SceneJob {
    /// The config the job was made from.
    public let config: SceneConfig
    /// The frames: drawn at their times for a scene, read from the folder
    /// for a frames config.
    public let source: FrameSource
    /// When each frame is shown, duplicates and bounce included.
    public private(set) var timeline: Timeline
    /// Loop, quality, dither, colors, matte and jobs from the config; the
    /// timing comes from ``timeline``. A caller may change them before
    /// encoding (a command line's options override the config's), and add a
    /// pixel transform (crop, trim, resize) that
    /// ``encode(to:format:compression:posterFrame:progress:passes:)`` applies to
    /// the drawn frames.
    public var settings: EncodeSettings
    /// The settings that did not come from the config (a command line's):
    /// an error about one of these keeps its field for the caller to name,
    /// instead of naming the config's JSON path.
    public var overridden: Set<SettingField> = []

    /// Frames of a scene, drawn on demand (from any thread).
    struct SceneFrames: FrameSource {
        let renderer: SceneRenderer
        let clock: SceneClock
        var count: Int { clock.frameCount }
        func name(at index: Int) -> String { "frame \(index + 1) (t = \(clock.time(ofFrame: index)) s)" }
        func frame(at index: Int) throws -> RGBAImage { try renderer.render(at: clock.time(ofFrame: index)) }
        func knownSize(at index: Int) -> FrameSize? {
            FrameSize(width: renderer.widthPixels, height: renderer.heightPixels)
        }
        /// The rlottie objects drawing Lottie layers: one per worker at most.
        let residentBytes: Int

        init(renderer: SceneRenderer, clock: SceneClock, jobs: Int) {
            self.renderer = renderer
            self.clock = clock
            func largest(_ layers: [Layer]) -> Int {
                layers.reduce(0) { most, layer in
                    switch layer.kind {
                    case .lottie(let l): return max(most, l.file.modelBytes)
                    case .group(let children): return max(most, largest(children))
                    default: return most
                    }
                }
            }
            residentBytes = FrameSize.product(largest(renderer.layers), max(1, jobs))
        }
    }

    /// Prepares `config` for encoding with `jobs` worker threads (1…256),
    /// played `speed` times as fast (every frame shown for 1/speed of its
    /// time), only the frames `frames` picks (counting the frames of one
    /// cycle, before anything else) and, with `reverse`, last frame first
    /// (before duplication and bounce), in at most `memory` (nil: ``MemoryBudget/machineDefault``).
    /// A frames config's folder is listed and its animations read now;
    /// a scene is drawn only when encoded.
    ///
    /// Throws ``ThrobberError/Kind/data`` naming the config when a scene's
    /// cycle is too long (see ``SceneClock/init(config:layers:)``), when
    /// `frames.delays` or a `duplicate` list does not have one entry per
    /// frame, or when both `timing.duration` and `frames.delays` are given;
    /// ``ThrobberError/Kind/noInput`` when the frames folder is missing or
    /// has no frames; ``ThrobberError/Kind/usage`` (field
    /// ``SettingField/frames``) when `frames` picks none of the frames; and
    /// the errors of ``FileFrameSource/init(files:background:budget:selection:)``.
    public init(
        config: SceneConfig, jobs: Int, speed: Rational = Rational(1), frames: FrameSelection? = nil,
        reverse: Bool = false, memory: MemoryBudget? = nil
    ) throws {
        self.config = config
        let file = config.file
        let settings = Self.settings(config, jobs: jobs, speed: speed, memory: memory)

        var durations: [Rational]
        var source: FrameSource
        switch config.content {
        case .layers(let layers):
            let clock = try SceneClock(config: config, layers: layers)
            source = SceneFrames(renderer: SceneRenderer(config: config, layers: layers), clock: clock, jobs: jobs)
            durations = Array(repeating: clock.frameDuration, count: clock.frameCount)
        case .frames(let frames):
            (source, durations) = try Self.folder(frames, config: config, memory: memory)
        }
        var duplicates: [Int]
        switch config.duplicate {
        case .every(let n): duplicates = Array(repeating: n, count: durations.count)
        case .perFrame(let list):
            guard list.count == durations.count else {
                throw ThrobberError(
                    .data, "\(file): duplicate: has \(list.count) counts but there are \(durations.count) frames")
            }
            duplicates = list
        }
        // timing.start: the source frame shown at that time of the cycle
        // (a time of the config's own, so played at timing.speed).
        var poster = config.timing.start.map { Self.frame(at: $0 / config.timing.speed, durations: durations) }
        if let frames {
            let indices = try frames.indices(count: durations.count)
            // The poster stays where it was picked, else the loop starts at the first frame picked.
            poster = poster.flatMap { indices.firstIndex(of: $0) }
            source = SelectedFrames(source, indices: indices)
            durations = indices.map { durations[$0] }
            duplicates = indices.map { duplicates[$0] }
        }
        if reverse {
            poster = poster.map { durations.count - 1 - $0 }
            source = SelectedFrames(source, indices: Array((0..<source.count).reversed()))
            durations.reverse()
            duplicates.reverse()
        }
        try EncodeSettings.check(speed: speed)
        durations = durations.map { $0 / speed }
        self.source = source
        let cycle = Timeline(durations: durations, duplicates: duplicates, bounce: config.bounce)
        timeline = poster.flatMap { cycle.firstEntry(showing: $0) }.map { cycle.rotated(toStartAt: $0) } ?? cycle
        self.settings = settings
    }

    /// Shows only the frame shown `t` seconds into the loop: a still.
    public mutating func hold(at t: Rational) { timeline = timeline.still(at: t) }

    /// The encode settings of `config`, with `jobs` threads, played
    /// `speed` times as fast, in at most `memory`.
    private static func settings(_ config: SceneConfig, jobs: Int, speed: Rational, memory: MemoryBudget?)
        -> EncodeSettings
    {
        var settings = EncodeSettings()
        settings.loop = config.loop
        settings.quality = config.encode.quality
        settings.dither = config.encode.dither
        settings.colors = config.encode.colors
        settings.lossy = config.encode.lossy
        settings.alpha = AlphaPolicy(matte: config.encode.matte)
        settings.jobs = jobs
        settings.memory = memory
        settings.timing.speed = speed
        return settings
    }

    /// The frames of the folder `frames` names in `config` (in at most
    /// `memory`), and how long each is shown at `timing.speed`.
    private static func folder(_ frames: SceneConfig.Frames, config: SceneConfig, memory: MemoryBudget?) throws -> (
        FrameSource, [Rational]
    ) {
        let file = config.file
        let files: [String]
        do {
            files = try FrameList(sort: frames.sort, glob: frames.glob).files(for: [frames.dir])
        } catch let e as ThrobberError {
            throw ThrobberError(e.kind, "\(file): frames.dir: \(e.message)")
        }
        let fileFrames = try FileFrameSource(
            files: files, background: config.canvas.background, budget: memory ?? .machineDefault)
        var durations: [Rational]
        if let duration = config.timing.duration {
            guard frames.delays == nil else {
                throw ThrobberError(
                    .data, "\(file): timing.duration: give either timing.duration or frames.delays, not both")
            }
            // The cycle's length, shared equally by the frames.
            durations = Array(repeating: duration / Rational(Int64(fileFrames.count)), count: fileFrames.count)
        } else if let delays = frames.delays {
            guard delays.count == fileFrames.count else {
                throw ThrobberError(
                    .data,
                    "\(file): frames.delays: has \(delays.count) entries but \(frames.dir) has \(fileFrames.count) frames"
                )
            }
            durations = delays.map { Rational(Int64($0), 100) }
        } else {
            let step = Rational(1) / config.timing.fps
            durations = (0..<fileFrames.count).map { fileFrames.duration(at: $0) ?? step }
        }
        return (fileFrames, durations.map { $0 / config.timing.speed })
    }

    /// Renders and encodes to `sink` as `format`, with the compressor
    /// effort `compression` (nil: the settings' default), the loop started
    /// at its `posterFrame`-th frame (1-based; nil: ``settings``' own, or
    /// as the config has it), reporting frames done to `progress` and each
    /// pass of a multi-pass search to `passes`.
    public func encode(
        to sink: OutputFile, format: AnimationFormat = .gif,
        compression: EncodeSettings.Compression? = nil, posterFrame: Int? = nil,
        progress: ((Int, Int) -> Void)? = nil, passes: ((EncodePass) -> Void)? = nil
    ) throws -> EncodeReport {
        let settings = settings(for: format, compression: compression, posterFrame: posterFrame)
        return try namingConfigPaths {
            var encoder = AnimationEncoder(format: format, settings: settings, progress: progress)
            encoder.passes = passes
            return try encoder.encode(source, timeline: timeline, to: sink)
        }
    }

    /// Checks the settings against `format` as ``encode(to:format:compression:posterFrame:progress:passes:)``
    /// would, without rendering: for a config with several outputs, so
    /// that a setting one of them cannot use leaves nothing written. Throws
    /// as `encode` does for a setting.
    public func validate(for format: AnimationFormat) throws {
        try namingConfigPaths { try settings(for: format, compression: nil, posterFrame: nil).validate(for: format) }
    }

    /// The settings an encode to `format` uses.
    private func settings(for format: AnimationFormat, compression: EncodeSettings.Compression?, posterFrame: Int?)
        -> EncodeSettings
    {
        var settings = settings
        if let posterFrame { settings.posterFrame = posterFrame }
        // A config's encode block serves every output it lists: its lossy
        // LZW applies to the formats that have it, its dithering to those
        // that dither without a palette size. Given as options, they are
        // the format's to refuse.
        let limits = format.limits
        if limits.maxLossy == 0 && !overridden.contains(.lossy) { settings.lossy = 0 }
        if !limits.dithersTruecolor && settings.colors == nil && !overridden.contains(.dither) { settings.dither = 1 }
        if let compression { settings.compression = compression }
        // Scenes and frames without their own delays step at timing.fps,
        // which the format's limits then apply to.
        var stepsAtFPS = true
        if case .frames(let f) = config.content, f.delays != nil || config.timing.duration != nil { stepsAtFPS = false }
        if stepsAtFPS {
            // A scene samples fps frames a second played; a frames config
            // steps at fps of its own time, played timing.speed times as fast.
            settings.timing.fps = config.timing.fps
            if case .frames = config.content { settings.timing.fps = config.timing.fps * config.timing.speed }
        }
        return settings
    }

    /// `body`, with a setting's error that the config gave named by its
    /// JSON path.
    private func namingConfigPaths<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as ThrobberError {
            guard let field = e.field, !overridden.contains(field), let path = SceneJob.path(of: field) else { throw e }
            throw ThrobberError(.data, "\(config.file): \(path): \(e.message)")
        }
    }

    /// The frame nearest to `time` seconds into the cycle of frames lasting
    /// `durations` (the time taken modulo the cycle).
    static func frame(at time: Rational, durations: [Rational]) -> Int {
        let total = durations.reduce(Rational(0), +)
        let t = time.modulo(total)
        var start = Rational(0)
        for (i, d) in durations.enumerated() {
            // Nearest start: past the middle of frame i, frame i + 1 is nearer.
            if t < start + d / Rational(2) { return i }
            start = start + d
        }
        return 0
    }

    /// Where a config sets each encode setting (nil: not in configs).
    static func path(of field: EncodeSettings.Field) -> String? {
        switch field {
        case .fps: "timing.fps"
        case .delay: "frames.delays"
        case .duplicate: "duplicate"
        case .loop: "loop"
        case .quality: "encode.quality"
        case .dither: "encode.dither"
        case .colors: "encode.colors"
        case .lossy: "encode.lossy"
        case .maxBytes, .palette: nil
        case .jobs, .speed, .frames, .crop, .width, .height, .scale, .posterFrame, .trimMargin: nil
        }
    }
}
