import FoundationEssentials
import Glibc
import ThrobberKit

/// What an encode asks for — from `throbber encode` or a manifest's encode
/// entry — with every option checked and every path resolved against the
/// base folder. Nothing is read before `run`.
struct EncodeRequest {
    var inputs: [String]
    var output: String
    var format: AnimationFormat
    var settings: EncodeSettings
    /// How the inputs are listed, composited and sampled.
    var input = InputOptions()
    var quiet: Bool
    var printHash: Bool
    /// `--max-bytes` as given, for the report of what the search chose.
    var maxBytesText: String?

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
        input.background = options.background ?? .transparent
        // --dither also dithers a 10- or 12-bit video's reduction to 8 bits.
        input.videoDither = options.dither ?? 0
        // The library's rules, checked on the settings as given before any
        // input is opened: Lottie and video inputs turn --fps and --delay
        // into frames, and the encoder then sees only the frames' timing.
        try settings.validate(for: format)
        // A Lottie file or a video is resampled to --fps, or to --delay as
        // 100/delay fps; without either it keeps its own times.
        if options.fps != nil { input.fps = settings.timing.fps }
        if let delay = settings.timing.delay { input.fps = Rational(100) / Rational(delay) }

        if let sort = try args.choice("sort", of: FrameSort.self) { input.list.sort = sort }
        input.list.glob = args.string("glob")
        inputs = args.positional.map(base.resolve)
        try input.list.refuseOutput(self.output, among: inputs)
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
        input.from = try Self.clockTime(args, "from")
        input.to = try Self.clockTime(args, "to")
        if let from = input.from, let to = input.to, !(from < to) {
            throw ThrobberError(.usage, "--from \(ClockTime.text(from)) is not before --to \(ClockTime.text(to))")
        }
        input.keepsInputLoop = options.loop == nil
        // An option that retimes, picks, orders or loops frames keeps a
        // layered still's layers as the animation it is stored as.
        input.keepsLayers = options.asksForFrames
        quiet = args.flag("quiet")
        input.looksForNotes = !quiet
        printHash = args.flag("sha256")
    }

    /// Opens the inputs (whatever kind ``InputRegistry`` finds), prints
    /// their notes, and encodes them to the output with the progress bar
    /// and summary.
    func run() throws {
        let opened = try InputRegistry.open(inputs, format: format, settings: settings, options: input)
        if !quiet { for note in opened.notes { StandardError.write("note: \(note)\n") } }
        let encoder = AnimationEncoder(format: format, settings: settings)
        let budgetLabel = maxBytesText.map { "--max-bytes \($0)" }
        var trim: DrawnBox?
        try Output.write(
            to: output, label: "encoding", quiet: quiet, printHash: printHash, budgetLabel: budgetLabel,
            bar: { out, bar in
                var encoder = encoder
                encoder.progress = bar.update
                encoder.passes = bar.pass
                let report = try encoder.encode(opened, options: input, to: out)
                trim = report.trim
                return report
            })
        if !quiet, let trim, trim.isBlank {
            StandardError.write("note: no frame draws anything, so --trim kept the top-left pixel\n")
        }
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
}
