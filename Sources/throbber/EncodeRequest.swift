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
    /// The rate a Lottie input is resampled to (`--fps`, or `--delay` as
    /// 100/delay fps); nil: the file's own rate.
    var lottieFPS: Rational?
    /// `--max-bytes` as given, for the report of what the search chose.
    var maxBytesText: String?

    init(_ args: Arguments, base: BaseFolder) throws {
        guard !args.positional.isEmpty else { throw ThrobberError(.usage, "no input frames given") }
        guard let output = args.string("output") else { throw ThrobberError(.usage, "no output given; add -o OUT.gif") }
        self.output = base.resolve(output)
        format = try OutputFormat.resolve(output: self.output, format: args.string("format"))

        // Values are parsed here; their ranges are the library's to check
        // (EncodeSettings.validate), against the format's limits.
        settings = EncodeSettings()
        settings.compression = try OutputFormat.compression(args)
        if let fps = try args.rational("fps") { settings.timing.fps = fps }
        settings.timing.delay = try args.int("delay")
        settings.timing.duplicate = try args.int("duplicate") ?? 1
        settings.timing.bounce = args.flag("bounce")
        if let speed = try args.rational("speed") { settings.timing.speed = speed }
        settings.transform = try Self.transform(args)
        settings.loop = try args.int("loop") ?? 0
        settings.posterFrame = try args.int("poster-frame")
        settings.quality = try args.int("quality")
        settings.colors = try args.int("colors")
        settings.lossy = try args.int("lossy") ?? 0
        if let text = args.string("max-bytes") {
            guard let bytes = ByteSize.parse(text) else {
                throw ThrobberError(
                    .usage,
                    "--max-bytes expects a size above 0 like 500000, 256k, 2M (1000-based) or 128KiB, 2MiB (1024-based), got '\(text)'"
                )
            }
            settings.maxBytes = bytes
            maxBytesText = text
        }
        // Frames of animated inputs keep their own delays unless retimed.
        settings.timing.retime = args.string("fps") != nil || args.string("delay") != nil
        settings.dither = try args.double("dither") ?? 1
        settings.jobs = try args.int("jobs") ?? settings.jobs
        settings.memory = try args.memoryBudget()
        if let matte = args.string("matte") {
            guard let color = Color(parsing: matte) else {
                throw ThrobberError(.usage, "--matte expects \(Color.syntaxHelp), got '\(matte)'")
            }
            settings.alpha.matte = color
        }
        if let text = args.string("background") {
            guard let color = Color(parsing: text) else {
                throw ThrobberError(.usage, "--background expects \(Color.syntaxHelp), got '\(text)'")
            }
            background = color
        }
        try settings.validate(for: format)
        if format == .apng && settings.lossy > 0 {
            throw ThrobberError(
                .usage, "--lossy is for GIF (LZW); APNG is made smaller with --colors and --quality")
        }
        if format == .webp {
            // WebP has no LZW, and dithering needs a palette: these would silently do nothing.
            if args.string("lossy") != nil {
                throw ThrobberError(
                    .usage,
                    "--lossy is for GIF (LZW); WebP is made smaller with --quality (lossy VP8), --colors (a palette a frame) or --max-bytes"
                )
            }
            if args.string("dither") != nil && settings.colors == nil {
                throw ThrobberError(
                    .usage, "--dither is for palettes: with WebP it needs --colors (without, --quality gives lossy VP8)"
                )
            }
        }
        if args.string("fps") != nil { lottieFPS = settings.timing.fps }
        if let delay = settings.timing.delay { lottieFPS = Rational(100) / Rational(delay) }

        frames = FrameList()
        if let sort = args.string("sort") {
            guard let s = FrameSort(rawValue: sort) else {
                throw ThrobberError(.usage, "--sort must be 'natural' or 'name', got '\(sort)'")
            }
            frames.sort = s
        }
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
        loopGiven = args.string("loop") != nil
        quiet = args.flag("quiet")
        printHash = args.flag("sha256")
    }

    /// --frames, --reverse, --crop, --width, --height, --scale, --fit and
    /// --resize-filter, parsed (ranges are checked by the library).
    static func transform(_ args: Arguments) throws -> FrameTransform {
        var t = FrameTransform()
        if let text = args.string("frames") {
            guard let selection = FrameSelection(parsing: text) else {
                throw ThrobberError(
                    .usage,
                    "--frames expects ranges like 1-30, 10-, -20, 1-60:2 or 1,5,9 (counting from 1), got '\(text)'")
            }
            t.frames = selection
        }
        t.reverse = args.flag("reverse")
        if let text = args.string("crop") {
            guard let rect = FrameTransform.parseCrop(text) else {
                throw ThrobberError(.usage, "--crop expects WxH+X+Y in pixels, like 640x360+0+120, got '\(text)'")
            }
            t.crop = rect
        }
        t.width = try args.int("width")
        t.height = try args.int("height")
        t.scale = try args.double("scale")
        if let fit = args.string("fit") {
            guard let f = ResizeFit(rawValue: fit) else {
                throw ThrobberError(.usage, "--fit must be contain, cover or stretch, got '\(fit)'")
            }
            t.fit = f
        }
        if let filter = args.string("resize-filter") {
            guard let f = ResizeFilter(rawValue: filter) else {
                throw ThrobberError(.usage, "--resize-filter must be lanczos, mitchell or nearest, got '\(filter)'")
            }
            t.filter = f
        }
        return t
    }

    func run() throws {
        var settings = self.settings
        let source: FrameSource
        if inputs == ["-"] || (inputs.count == 1 && StreamFrameSource.isStream(inputs[0])) {
            // A named pipe (`<(…)`, a FIFO) is read exactly as standard input is.
            // The frame size in a header is checked against the memory budget
            // before any frame is spooled.
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
            source = stream
        } else {
            let paths = try frames.files(for: inputs)
            // Only a lone input is sniffed: a folder's frames are not opened twice.
            if let lottie = paths.first(where: { LottieFile.isCandidate($0, sniff: paths.count == 1) }) {
                guard paths.count == 1 else {
                    throw ThrobberError(.usage, "\(lottie): a Lottie file must be the only input")
                }
                source = try LottieInput.frames(
                    of: try LottieFile.read(lottie, budget: settings.memory ?? .machineDefault), format: format,
                    settings: &settings, fps: lottieFPS,
                    background: background)
            } else {
                // An animated WebP keeps only the frames --frames picks.
                let files = try FileFrameSource(
                    files: paths, background: background, budget: settings.memory ?? .machineDefault,
                    selection: settings.transform.frames)
                if !loopGiven, let loop = files.inputLoop {
                    settings.loop = min(loop, format.limits.maxLoop)
                }
                source = files
            }
        }
        let encoder = AnimationEncoder(format: format, settings: settings)
        let budgetLabel = maxBytesText.map { "--max-bytes \($0)" }
        try Output.write(
            to: output, label: "encoding", quiet: quiet, printHash: printHash, budgetLabel: budgetLabel,
            bar: { out, bar in
                var encoder = encoder
                encoder.progress = bar.update
                encoder.passes = bar.pass
                return try encoder.encode(source, to: out)
            })
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
