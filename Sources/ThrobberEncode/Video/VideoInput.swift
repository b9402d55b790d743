import ThrobberCodecs
import ThrobberCore

/// How a video becomes the frames of an encode: its timestamps thinned
/// to what the format shows, or resampled to a requested rate
/// (``VideoTiming``), before the transforms of `settings` apply as for
/// any frames.
public enum VideoInput: InputKind {
    public static var name: String { "video" }
    public static var cutsByTime: Bool { true }
    /// Most frames a video may give an encode, after thinning or
    /// resampling: as many as a frame stream may hold (``StreamLimits``).
    public static let maxFrames = StreamLimits.maxFrames
    /// Longest part of a video an encode takes: 24 hours. A clip whose
    /// timestamps claim more (frames days apart) would otherwise make
    /// GIF's 655.35 s longest delay split each frame into thousands.
    public static let maxLength = Rational(24 * 3600)

    /// A single file FFmpeg reads as video (not an image Throbber reads
    /// itself, nor a Lottie file).
    public static func claims(_ inputs: InputPaths) throws -> Bool {
        inputs.given.count == 1 && VideoFile.isVideo(inputs.given[0])
    }

    /// Opens the video, cut at ``InputOptions/from`` and ``InputOptions/to``,
    /// and reads its timestamps; frames are decoded as the encoder asks.
    public static func open(_ request: InputRequest) throws -> OpenedInput {
        let (settings, options) = (request.settings, request.options)
        let file = try VideoFile(
            path: request.paths.given[0], from: options.from, to: options.to,
            budget: settings.memory ?? .machineDefault, threads: settings.jobs)
        return try frames(of: file, request: request)
    }

    /// The frames of `file` for encoding to `request`'s format. The clip
    /// brings its own clock (``InputTiming/own``): ``InputOptions/fps`` (nil:
    /// the clip's own times) resamples it by time; `--speed` still divides
    /// every duration, so the fastest rate a format shows is checked in
    /// played time. ``InputOptions/videoDither`` dithers the reduction of
    /// 10- and 12-bit frames to 8 bits; 0 rounds.
    ///
    /// Throws ``ThrobberError/Kind/data`` naming the file when the clip
    /// would give more than ``maxFrames`` frames or lasts over ``maxLength``.
    public static func frames(of file: VideoFile, request: InputRequest) throws -> OpenedInput {
        guard file.windowLength <= maxLength else {
            throw ThrobberError(
                .data,
                "\(file.path): it lasts \(ClockTime.text(file.windowLength)), over Throbber's limit of 24 hours a video; cut a part with --from and --to"
            )
        }
        let fps = request.options.fps
        let speed = request.settings.timing.speed
        let shortest = request.format.limits.maxFPS.map { speed / Rational(Int64($0)) }
        let rough = fps.map { file.windowLength.doubleValue * $0.doubleValue } ?? Double(file.frameStarts.count)
        if rough > Double(maxFrames) * 4 { throw tooMany(file, count: rough, fps: fps) }
        let timing = VideoTiming(starts: file.frameStarts, length: file.windowLength, shortest: shortest, fps: fps)
        guard timing.frames.count <= maxFrames else {
            throw tooMany(file, count: Double(timing.frames.count), fps: fps)
        }
        var source = VideoFrameSource(
            file: file, frames: timing.frames, durations: timing.durations, background: request.options.background,
            jobs: request.settings.jobs)
        source.dither = request.options.videoDither
        return OpenedInput(source: source, kind: self, timing: .own)
    }

    private static func tooMany(_ file: VideoFile, count: Double, fps: Rational?) -> ThrobberError {
        let length = ClockTime.text(file.windowLength)
        let rate = fps.map { " at \(cFormat("%g", $0.doubleValue)) fps" } ?? ""
        return ThrobberError(
            .data,
            "\(file.path): \(length) of video\(rate) is \(cFormat("%.0f", count)) frames, over Throbber's limit of \(maxFrames); ask for fewer with --fps (e.g. --fps 10) or a shorter part with --from and --to"
        )
    }
}
