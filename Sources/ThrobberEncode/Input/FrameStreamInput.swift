import ThrobberCodecs
import ThrobberCore

/// Frames on standard input (`-`) or a named pipe: a PNG stream or a
/// YUV4MPEG2 stream, spooled to a temporary file as it is read.
public enum FrameStreamInput: InputKind {
    public static var name: String { "frame stream" }

    /// `-` alone, or a single named pipe.
    public static func claims(_ inputs: InputPaths) throws -> Bool {
        inputs.given == ["-"] || (inputs.given.count == 1 && StreamFrameSource.isStream(inputs.given[0]))
    }

    /// Reads the stream to its end. Each frame size a header gives is
    /// checked against the encode's memory plan before the frame is
    /// spooled. A YUV4MPEG2 stream's frame rate times the frames unless
    /// the settings retime them; a rate the format cannot show is a usage
    /// error that says how to thin the frames.
    public static func open(_ request: InputRequest) throws -> OpenedInput {
        let planner = AnimationEncoder(format: request.format, settings: request.settings)
        let check: StreamFrameSource.SizeCheck = { try planner.checkMemory(frameSize: $0, for: $1) }
        let given = request.paths.given
        var stream =
            try given == ["-"]
            ? StreamFrameSource(fd: 0, check: check) : StreamFrameSource(path: given[0], check: check)
        stream.background = request.options.background
        var timing = InputTiming.settings
        if !request.settings.timing.retime, let rate = stream.frameRate {
            try checkRate(rate, format: request.format, name: stream.name)
            timing = .rate(rate)
        }
        return OpenedInput(source: stream, kind: self, timing: timing)
    }

    /// A stream's own frame rate must be one `format` can show; otherwise
    /// says how to thin the frames out.
    static func checkRate(_ rate: Rational, format: AnimationFormat, name: String) throws {
        guard let maxFPS = format.limits.maxFPS, Rational(Int64(maxFPS)) < rate else { return }
        var step = 2
        while Rational(Int64(maxFPS)) < rate / Rational(step) { step += 1 }
        let thinned = rate / Rational(step)
        throw ThrobberError(
            .usage,
            "\(name): the stream is \(rate) fps, faster than \(format.limits.name) can show (\(maxFPS) fps); keep every \(step == 2 ? "second" : "\(step)th") frame with --frames 1-:\(step) --fps \(thinned), or ask ffmpeg for fewer (-vf fps=\(thinned))"
        )
    }
}
