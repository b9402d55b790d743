import ThrobberKit

/// The output options (OptionSpec+Output.swift) as given on the command
/// line, parsed once for `encode`, `render` and `preset`: nil or false when
/// not given, so that a config's own values stay unless overridden. Values
/// are parsed here; their ranges are the library's to check
/// (`EncodeSettings.validate`), against the format's limits.
struct OutputOptions {
    var quality: Int?
    var colors: Int?
    var palette: EncodeSettings.PaletteScope?
    var lossy: Int?
    var dither: Double?
    var maxBytes: Int?
    /// `--max-bytes` as given, for the report of what the search chose.
    var maxBytesText: String?
    /// `--allow-reduce`: what the budget may give up beyond settings.
    var budgetMayReduce: BudgetReductions = []
    var background: Color?
    var matte: Color?
    /// Frames picked and reversed, pixels cropped and resized.
    var transform = FrameTransform()
    var fps: Rational?
    var delay: Int?
    var duplicate: Int?
    var bounce = false
    var speed: Rational?
    var posterFrame: Int?
    var loop: Int?

    /// Reads the shared options from `args`, except the names in `own`: a
    /// command that gives one of these names its own meaning (`preset
    /// --scale` is pixels per point) parses it itself.
    init(_ args: Arguments, except own: Set<String> = []) throws {
        let args = args.removing(own)
        quality = try args.int("quality")
        colors = try args.int("colors")
        palette = try args.choice("palette", of: EncodeSettings.PaletteScope.self)
        lossy = try args.int("lossy")
        dither = try args.double("dither")
        if let text = args.string("max-bytes") {
            guard let bytes = ByteSize.parse(text) else {
                throw ThrobberError(
                    .usage,
                    "--max-bytes expects a size above 0 like 500000, 256k, 2M (1000-based) or 128KiB, 2MiB (1024-based), got '\(text)'"
                )
            }
            maxBytes = bytes
            maxBytesText = text
        }
        if let text = args.string("allow-reduce") {
            guard let set = BudgetReductions.parse(text) else {
                throw ThrobberError(.usage, "--allow-reduce expects fps, size or fps,size, got '\(text)'")
            }
            guard maxBytes != nil else {
                throw ThrobberError(
                    .usage, "--allow-reduce lets --max-bytes lower the frame rate or size: give --max-bytes too")
            }
            budgetMayReduce = set
        }
        background = try Self.color(args, "background")
        matte = try Self.color(args, "matte")
        transform = try Self.transform(args)
        fps = try args.rational("fps")
        delay = try args.int("delay")
        duplicate = try args.int("duplicate")
        bounce = args.flag("bounce")
        speed = try args.rational("speed")
        posterFrame = try args.int("poster-frame")
        loop = try args.int("loop")
    }

    /// True when an option retimes, picks, orders, repeats or loops frames:
    /// the frames are then what is asked for, even of a layered still.
    var asksForFrames: Bool {
        fps != nil || delay != nil || transform.selectsFrames || loop != nil || duplicate != nil || bounce
            || speed != nil || posterFrame != nil
    }

    /// The settings these options set, for naming an error by the option
    /// rather than by a config's JSON path.
    var fields: Set<SettingField> {
        var f: Set<SettingField> = []
        let given: [(Bool, SettingField)] = [
            (quality != nil, .quality), (colors != nil, .colors), (palette != nil, .palette), (lossy != nil, .lossy),
            (dither != nil, .dither),
            (maxBytes != nil, .maxBytes), (fps != nil, .fps), (delay != nil, .delay), (duplicate != nil, .duplicate),
            (speed != nil, .speed), (posterFrame != nil, .posterFrame), (loop != nil, .loop),
        ]
        for (isGiven, field) in given where isGiven { f.insert(field) }
        return f
    }

    /// Sets in `settings` every option given. For a `scene`, only what its
    /// config cannot say (the byte budget, crop and resize, the poster
    /// frame, the palette's scope):
    /// the rest goes to the config (``apply(to:)-(SceneConfig)``) and the
    /// frame picking, reversing and speed to `SceneJob`, which builds the
    /// timeline.
    func apply(to settings: inout EncodeSettings, scene: Bool = false) {
        if let maxBytes { settings.maxBytes = maxBytes }
        if !budgetMayReduce.isEmpty { settings.budgetMayReduce = budgetMayReduce }
        if let posterFrame { settings.posterFrame = posterFrame }
        if let palette { settings.palette = palette }
        var transform = transform
        if scene {
            transform.frames = nil
            transform.reverse = false
            settings.transform = transform
            return
        }
        settings.transform = transform
        if let quality { settings.quality = quality }
        if let colors { settings.colors = colors }
        if let lossy { settings.lossy = lossy }
        if let dither { settings.dither = dither }
        if let matte { settings.alpha.matte = matte }
        if let fps { settings.timing.fps = fps }
        settings.timing.delay = delay
        // Frames of animated inputs keep their own delays unless retimed.
        settings.timing.retime = fps != nil || delay != nil
        if let duplicate { settings.timing.duplicate = duplicate }
        if bounce { settings.timing.bounce = true }
        if let speed { settings.timing.speed = speed }
        if let loop { settings.loop = loop }
    }

    /// Sets the config's own values that these options override: the
    /// background, the frame rate (a frames config's `frames.delays` and
    /// `timing.duration` then give way, as an animated input's delays do
    /// to `encode --fps`), `duplicate`, `bounce`, `loop` and the `encode`
    /// block. A value out of a config's range is refused naming the option.
    func apply(to config: inout SceneConfig) throws {
        if let background { config.canvas.background = background }
        if let fps {
            guard Rational(0) < fps, fps <= Rational(1000) else {
                throw ThrobberError(.usage, field: .fps, "must be above 0 and at most 1000, got \(fps)")
            }
            config.timing.fps = fps
            config.timing.duration = nil
            if case .frames(var frames) = config.content {
                frames.delays = nil
                config.content = .frames(frames)
            }
        }
        if let duplicate {
            guard (1...1000).contains(duplicate) else {
                throw ThrobberError(.usage, field: .duplicate, "must be 1…1000, got \(duplicate)")
            }
            config.duplicate = .every(duplicate)
        }
        if bounce { config.bounce = true }
        if let loop { config.loop = loop }
        if let quality { config.encode.quality = quality }
        if let colors { config.encode.colors = colors }
        if let lossy { config.encode.lossy = lossy }
        if let dither { config.encode.dither = dither }
        if let matte { config.encode.matte = matte }
    }

    private static func color(_ args: Arguments, _ name: String) throws -> Color? {
        guard let text = args.string(name) else { return nil }
        guard let color = Color(parsing: text) else { throw Arguments.badColor(name, text) }
        return color
    }

    /// --frames, --reverse, --crop, --trim, --trim-margin, --width,
    /// --height, --scale, --fit and --resize-filter, parsed (ranges are
    /// checked by the library).
    private static func transform(_ args: Arguments) throws -> FrameTransform {
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
        try OptionSpec.parseTrim(args, into: &t)
        t.width = try args.int("width")
        t.height = try args.int("height")
        t.scale = try args.double("scale")
        if let fit = try args.choice("fit", of: ResizeFit.self) { t.fit = fit }
        if let filter = try args.choice("resize-filter", of: ResizeFilter.self) { t.filter = filter }
        return t
    }
}
