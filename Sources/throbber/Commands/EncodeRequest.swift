import FoundationEssentials
import Glibc
import ThrobberKit

/// What an encode asks for — from `throbber encode` or a manifest's encode
/// entry — with every option checked and every path resolved against the
/// base folder. Nothing is read before `run`.
struct EncodeRequest {
    var inputs: [String]
    var frames: FrameList
    var output: String
    var format: AnimationFormat
    var settings: EncodeSettings
    /// --loop was given, so a single animated input's loop count does not apply.
    var loopGiven: Bool
    var quiet: Bool
    var printHash: Bool
    /// Composited under every frame (`--background`).
    var background = Color.transparent
    /// `--dither` as given, for a 10- or 12-bit video's reduction to 8
    /// bits; 0 (rounded) when not given.
    var videoDither = 0.0
    /// The rate a Lottie file or a video is resampled to (`--fps`, or
    /// `--delay` as 100/delay fps); nil: the input's own times.
    var resampleFPS: Rational?
    /// Where a video is cut (`--from`, `--to`), in seconds from its first
    /// frame; nil: its start, its end.
    var from: Rational?
    /// Where a video ends (`--to`).
    var to: Rational?
    /// `--max-bytes` as given, for the report of what the search chose.
    var maxBytesText: String?
    /// An option that retimes, picks, orders or loops frames was given, so
    /// a layered still is encoded as the animation it is stored as.
    var asksForFrames = false

    init(_ args: Arguments, base: BaseFolder) throws {
        guard !args.positional.isEmpty else { throw ThrobberError(.usage, "no input frames given") }
        guard let output = args.string("output") else {
            let hint = OutputHint.suggestion(args, command: "encode", vector: false)
            throw ThrobberError(.usage, "no output given" + (hint.isEmpty ? "; add -o OUT.gif" : hint))
        }
        self.output = base.resolve(output)
        format = try OutputFormat.resolve(output: self.output, format: args.string("format"))

        // Values are parsed here; their ranges are the library's to check
        // (EncodeSettings.validate), against the format's limits.
        let options = try OutputOptions(args)
        settings = EncodeSettings()
        settings.compression = try OutputFormat.compression(args)
        options.apply(to: &settings)
        settings.jobs = try args.int("jobs") ?? settings.jobs
        settings.memory = try args.memoryBudget()
        maxBytesText = options.maxBytesText
        background = options.background ?? .transparent
        videoDither = options.dither ?? 0
        // The library's rules, checked on the settings as given before any
        // input is opened: Lottie and video inputs turn --fps and --delay
        // into frames, and the encoder then sees only the frames' timing.
        try settings.validate(for: format)
        if options.fps != nil { resampleFPS = settings.timing.fps }
        if let delay = settings.timing.delay { resampleFPS = Rational(100) / Rational(delay) }

        frames = FrameList()
        if let sort = try args.choice("sort", of: FrameSort.self) { frames.sort = sort }
        frames.glob = args.string("glob")
        inputs = args.positional.map(base.resolve)
        try frames.refuseOutput(self.output, among: inputs)
        if inputs.contains("-") {
            guard inputs == ["-"] else {
                throw ThrobberError(.usage, "'-' (frames on standard input) must be the only input")
            }
            guard isatty(0) == 0 else {
                throw ThrobberError(
                    .usage,
                    "'-' reads frames from standard input, which is a terminal; pipe frames into it: ffmpeg -i clip.mp4 -f image2pipe -c:v png - | throbber encode - -o out.gif"
                )
            }
        }
        from = try Self.clockTime(args, "from")
        to = try Self.clockTime(args, "to")
        if let from, let to, !(from < to) {
            throw ThrobberError(.usage, "--from \(ClockTime.text(from)) is not before --to \(ClockTime.text(to))")
        }
        loopGiven = options.loop != nil
        asksForFrames = options.asksForFrames
        quiet = args.flag("quiet")
        printHash = args.flag("sha256")
    }

    /// Reads the inputs (a stream, a video, a Lottie file, or frames and
    /// animations) and encodes them to the output.
    func run() throws {
        var settings = self.settings
        let source: FrameSource
        var fpsResamples = false
        if inputs == ["-"] || (inputs.count == 1 && StreamFrameSource.isStream(inputs[0])) {
            source = try streamSource(settings: &settings)
        } else if inputs.count == 1, VideoFile.isVideo(inputs[0]) {
            let file = try VideoFile(
                path: inputs[0], from: from, to: to, budget: settings.memory ?? .machineDefault,
                threads: settings.jobs)
            source = try VideoInput.frames(
                of: file, format: format, settings: &settings, fps: resampleFPS, background: background,
                dither: videoDither)
            fpsResamples = true
        } else {
            try refuseClipTimes()
            let paths = try frames.files(for: inputs)
            source = try fileSource(paths, settings: &settings)
            fpsResamples = source is LottieFrameSource
        }
        try encode(source, settings: settings, fpsResamples: fpsResamples)
    }

    /// The frames of the stream input (standard input or a named pipe);
    /// its frame rate becomes `settings`' unless the timing is retimed.
    private func streamSource(settings: inout EncodeSettings) throws -> FrameSource {
        // A named pipe (`<(…)`, a FIFO) is read exactly as standard input is.
        // The frame size in a header is checked against the memory budget
        // before any frame is spooled.
        try refuseClipTimes()
        let planner = AnimationEncoder(format: format, settings: settings)
        let check: StreamFrameSource.SizeCheck = { try planner.checkMemory(frameSize: $0, for: $1) }
        var stream =
            try inputs == ["-"]
            ? StreamFrameSource(fd: 0, check: check) : StreamFrameSource(path: inputs[0], check: check)
        stream.background = background
        if !settings.timing.retime, let rate = stream.frameRate {
            try Self.checkStreamRate(rate, format: format, name: stream.name)
            settings.timing.fps = rate
        }
        return stream
    }

    /// The frames of the input files `paths` (a Lottie file, or frames and
    /// animations); an animation's loop count becomes `settings`' unless
    /// --loop is given.
    private func fileSource(_ paths: [String], settings: inout EncodeSettings) throws -> FrameSource {
        // Only a lone input is sniffed: a folder's frames are not opened twice.
        if let lottie = paths.first(where: { LottieFile.isCandidate($0, sniff: paths.count == 1) }) {
            guard paths.count == 1 else {
                throw ThrobberError(.usage, "\(lottie): a Lottie file must be the only input")
            }
            let frames = try LottieInput.frames(
                of: try LottieFile.read(lottie, budget: settings.memory ?? .machineDefault), format: format,
                settings: &settings, fps: resampleFPS,
                background: background)
            if !quiet && background.a > 0 && !settings.transform.trim,
                try LottieInput.drawsOwnBackground(frames)
            {
                StandardError.write(
                    "note: \(lottie) draws its own opaque background, so --background has no visible effect; --trim crops to the drawing\n"
                )
            }
            return frames
        } else {
            // An animated WebP keeps only the frames --frames picks.
            let files = try FileFrameSource(
                files: paths, background: background, budget: settings.memory ?? .machineDefault,
                selection: settings.transform.frames)
            if !loopGiven, let loop = files.inputLoop {
                settings.loop = min(loop, format.limits.maxLoop)
            }
            if let layers = files.inputLayers, !asksForFrames {
                // The picture meant is the last composited frame.
                let source = SelectedFrames(files, indices: [files.count - 1])
                if !quiet {
                    StandardError.write(
                        "note: \(paths[0]) is a still built up in \(layers) layers (0 ms delays, plays once): writing its final picture as one frame; add --frames 1- to keep the layers as frames\n"
                    )
                }
                return source
            }
            return files
        }
    }

    /// Encodes `source` to the output, with the progress bar and summary.
    private func encode(_ source: FrameSource, settings: EncodeSettings, fpsResamples: Bool) throws {
        var encoder = AnimationEncoder(format: format, settings: settings)
        encoder.fpsResamples = fpsResamples
        let budgetLabel = maxBytesText.map { "--max-bytes \($0)" }
        var trim: DrawnBox?
        try Output.write(
            to: output, label: "encoding", quiet: quiet, printHash: printHash, budgetLabel: budgetLabel,
            bar: { out, bar in
                var encoder = encoder
                encoder.progress = bar.update
                encoder.passes = bar.pass
                let report = try encoder.encode(source, to: out)
                trim = report.trim
                return report
            })
        if !quiet, let trim, trim.isBlank {
            StandardError.write("note: no frame draws anything, so --trim kept the top-left pixel\n")
        }
    }

    /// `--from` and `--to` cut videos only.
    private func refuseClipTimes() throws {
        guard from != nil || to != nil else { return }
        let what = inputs == ["-"] ? "standard input" : inputs.joined(separator: " ")
        throw ThrobberError(
            .usage,
            "--from and --to cut a video by time, and \(what) \(inputs.count == 1 ? "is" : "are") no video file; --frames picks frames by number"
        )
    }

    /// The time option `name` (seconds, M:SS.mmm or H:MM:SS.mmm), if given.
    static func clockTime(_ args: Arguments, _ name: String) throws -> Rational? {
        guard let text = args.string(name) else { return nil }
        guard let time = ClockTime.parse(text) else {
            throw ThrobberError(
                .usage, "--\(name): '\(text)' is no time; give seconds (90, 1.5) or M:SS.mmm (1:30.250) or H:MM:SS")
        }
        return time
    }

    /// A YUV4MPEG2 stream's own frame rate must be one the format can show;
    /// otherwise say how to thin the frames out.
    static func checkStreamRate(_ rate: Rational, format: AnimationFormat, name: String) throws {
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
