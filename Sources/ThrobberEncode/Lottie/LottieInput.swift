import ThrobberCodecs
import ThrobberCore

/// A Lottie file as the frames of an encode: drawn by rlottie at the size
/// the transform asks for, timed at the file's rate (or the sub-rate the
/// format can show, or a requested rate).
public enum LottieInput: InputKind {
    public static var name: String { "Lottie file" }

    /// A Lottie file (`.json`, `.tgs`, `.lottie`, or JSON, gzip or zip
    /// data when it is the only input) among the listed inputs.
    public static func claims(_ inputs: InputPaths) throws -> Bool {
        let files = try inputs.listed()
        return files.contains { LottieFile.isCandidate($0, sniff: files.count == 1) }
    }

    /// Reads the Lottie file, which must be the only input, and opens it
    /// as ``frames(of:request:)`` does.
    public static func open(_ request: InputRequest) throws -> OpenedInput {
        let files = try request.paths.listed()
        let lottie = files.first { LottieFile.isCandidate($0, sniff: files.count == 1) } ?? files[0]
        guard files.count == 1 else { throw ThrobberError(.usage, "\(lottie): a Lottie file must be the only input") }
        let file = try LottieFile.read(lottie, budget: request.settings.memory ?? .machineDefault)
        return try frames(of: file, request: request)
    }

    /// The frames of `file`, drawn directly at the size the transform asks
    /// for when it is a plain resize (`--width`, `--height`, `--scale`, and
    /// both sides with `--fit contain`: ``OpenedInput/resizedOnLoad``); a
    /// crop, a trim, or both sides with `cover` or `stretch` resample the
    /// file-size drawing. The file brings its own clock
    /// (``InputTiming/own``): ``InputOptions/fps`` (nil: the file's rate)
    /// resamples it by time. With ``InputOptions/looksForNotes`` and an
    /// opaque background, notes a file that paints its own.
    ///
    /// Throws a usage error naming the field when the size is out of range,
    /// and ``ThrobberError/Kind/data`` naming the file when `fps` makes more
    /// than ``LottieFile/maxFrames`` frames of its loop.
    public static func frames(of file: LottieFile, request: InputRequest) throws -> OpenedInput {
        let (t, options) = (request.settings.transform, request.options)
        var render = (w: file.width, h: file.height)
        var canvas = render
        let bothSides = t.width != nil && t.height != nil
        let resizedOnLoad = t.crop == nil && !t.trim && !(bothSides && t.fit != .contain)
        if resizedOnLoad {
            let layout = try t.layout(inputWidth: file.width, inputHeight: file.height)
            render = (layout.scaledWidth, layout.scaledHeight)
            canvas = (layout.canvasWidth, layout.canvasHeight)
        }
        if let fps = options.fps {
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
        let timing = LottieTiming(
            frameCount: file.frameCount, frameRate: file.frameRate, maxFPS: request.format.limits.maxFPS,
            fps: options.fps)
        let source = LottieFrameSource(
            file: file, timing: timing, renderWidth: render.w, renderHeight: render.h, canvasWidth: canvas.w,
            canvasHeight: canvas.h, background: options.background, workers: request.settings.jobs)
        var input = OpenedInput(source: source, kind: self, timing: .own)
        input.resizedOnLoad = resizedOnLoad
        if options.looksForNotes && options.background.a > 0 && !t.trim, try drawsOwnBackground(source) {
            input.notes.append(
                "\(file.name) draws its own opaque background, so --background has no visible effect; --trim crops to the drawing"
            )
        }
        return input
    }
}
