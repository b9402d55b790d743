import ThrobberCodecs
import ThrobberCore

/// A Lottie file as the frames of an encode: drawn by rlottie at the size
/// the transform asks for, timed at the file's rate (or the sub-rate the
/// format can show, or a requested rate).
public enum LottieInput {
    /// The frames of `file` for encoding to `format` with `settings`, which
    /// are adjusted to match: a resize rlottie draws directly (`--width`,
    /// `--height`, `--scale`, and both sides with `--fit contain`) is taken
    /// out of `settings.transform`; a crop, a trim, or both sides with
    /// `cover` or `stretch`, is left there and resamples the file-size
    /// drawing. The
    /// source brings its own durations: `fps` (nil: the file's rate)
    /// resamples by time, so `settings.timing.delay` and `retime` are
    /// cleared. `background` is composited under every frame.
    ///
    /// Throws a usage error naming the field when the size is out of range,
    /// and ``ThrobberError/Kind/data`` naming the file when `fps` makes more
    /// than ``LottieFile/maxFrames`` frames of its loop.
    public static func frames(
        of file: LottieFile, format: AnimationFormat, settings: inout EncodeSettings, fps: Rational?,
        background: Color
    ) throws -> LottieFrameSource {
        var t = settings.transform
        var render = (w: file.width, h: file.height)
        var canvas = render
        let bothSides = t.width != nil && t.height != nil
        if t.crop == nil && !t.trim && !(bothSides && t.fit != .contain) {
            let layout = try t.layout(inputWidth: file.width, inputHeight: file.height)
            render = (layout.scaledWidth, layout.scaledHeight)
            canvas = (layout.canvasWidth, layout.canvasHeight)
            (t.width, t.height, t.scale) = (nil, nil, nil)
            settings.transform = t
        }
        if let fps {
            // Resampling makes loop × fps frames: a slow file's long loop at a
            // usual rate would be millions.
            let frames = file.loopDuration.doubleValue * fps.doubleValue
            guard frames <= Double(LottieFile.maxFrames) else {
                throw ThrobberError(
                    .data,
                    "\(file.name): its loop lasts \(cFormat("%.0f", file.loopDuration.doubleValue)) s, so \(cFormat("%g", fps.doubleValue)) fps is more than \(LottieFile.maxFrames) frames, the most Throbber renders; ask for a lower --fps or --delay"
                )
            }
        }
        settings.timing.delay = nil
        settings.timing.retime = false
        let timing = LottieTiming(
            frameCount: file.frameCount, frameRate: file.frameRate, maxFPS: format.limits.maxFPS, fps: fps)
        return LottieFrameSource(
            file: file, timing: timing, renderWidth: render.w, renderHeight: render.h, canvasWidth: canvas.w,
            canvasHeight: canvas.h, background: background, workers: settings.jobs)
    }
}
