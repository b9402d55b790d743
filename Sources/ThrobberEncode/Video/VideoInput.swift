import ThrobberCodecs
import ThrobberCore

/// How a video becomes the frames of an encode: its timestamps thinned
/// to what the format shows, or resampled to a requested rate
/// (``VideoTiming``), before the transforms of `settings` apply as for
/// any frames.
public enum VideoInput {
    /// Most frames a video may give an encode, after thinning or
    /// resampling: as many as a frame stream may hold (``StreamLimits``).
    public static let maxFrames = StreamLimits.maxFrames
    /// Longest part of a video an encode takes: 24 hours. A clip whose
    /// timestamps claim more (frames days apart) would otherwise make
    /// GIF's 655.35 s longest delay split each frame into thousands.
    public static let maxLength = Rational(24 * 3600)

    /// The frames of `file` for encoding to `format` with `settings`. The
    /// clip brings its own durations: `fps` (nil: the clip's own times)
    /// resamples by time, so `settings.timing.delay` and `retime` are
    /// cleared; `--speed` still divides every duration, so the fastest
    /// rate a format shows is checked in played time. `background` is
    /// composited under every frame. `dither` (0…1, `--dither` when given)
    /// dithers the reduction of 10- and 12-bit frames to 8 bits; 0 rounds.
    ///
    /// Throws ``ThrobberError/Kind/data`` naming the file when the clip
    /// would give more than ``maxFrames`` frames or lasts over ``maxLength``.
    public static func frames(
        of file: VideoFile, format: AnimationFormat, settings: inout EncodeSettings, fps: Rational?,
        background: Color, dither: Double = 0
    ) throws -> VideoFrameSource {
        guard file.windowLength <= maxLength else {
            throw ThrobberError(
                .data,
                "\(file.path): it lasts \(ClockTime.text(file.windowLength)), over Throbber's limit of 24 hours a video; cut a part with --from and --to"
            )
        }
        let speed = settings.timing.speed
        let shortest = format.limits.maxFPS.map { speed / Rational(Int64($0)) }
        let rough = fps.map { file.windowLength.doubleValue * $0.doubleValue } ?? Double(file.frameStarts.count)
        if rough > Double(maxFrames) * 4 { throw tooMany(file, count: rough, fps: fps) }
        let timing = VideoTiming(starts: file.frameStarts, length: file.windowLength, shortest: shortest, fps: fps)
        guard timing.frames.count <= maxFrames else {
            throw tooMany(file, count: Double(timing.frames.count), fps: fps)
        }
        settings.timing.delay = nil
        settings.timing.retime = false
        var source = VideoFrameSource(
            file: file, frames: timing.frames, durations: timing.durations, background: background,
            jobs: settings.jobs)
        source.dither = dither
        return source
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
