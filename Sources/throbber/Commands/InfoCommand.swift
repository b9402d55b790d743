import FoundationEssentials
import Glibc
import ThrobberKit

/// `throbber info FILE [--json]`: what a GIF, APNG or WebP holds, frame by
/// frame, what a video, an SVG or a Lottie file is, or what a loader
/// config draws.
enum InfoCommand: Subcommand {
    static let spec = CommandSpec(
        name: "info",
        summary:
            "Show what a GIF, APNG, WebP, SVG, Lottie file, video or loader config is: size, frames, delays, timing, what made it.",
        overview: """
            Show what a GIF, APNG or WebP holds: format, size, APNG color type and \
            bit depth or how WebP frames are coded, loop count, total duration, SHA-256, and per frame its rectangle, \
            delay in milliseconds (with the exact fraction where three decimals do not hold an APNG's), disposal, \
            blend, palette size and transparent index.

            It also shows the trim box, the union of what the composited frames draw as WxH+X+Y (what \
            encode --trim keeps, and what encode --crop takes), and says when the file is a still built up in \
            layers: it plays once and every frame but the last has a delay of 0 (GIF89a and gifsicle take \
            that as no wait; browsers wait 100 ms a frame).

            For a video it shows the kind of file (by an MP4's major brand or a WebM's DocType) and \
            FFmpeg's names of the container as ffprobe gives them, the codec, coded and displayed size \
            (the display matrix's rotation as ffprobe reports it, pixel aspect ratio), frame count and rate \
            (an exact fraction, or variable; a constant rate is found within the rounding of the \
            container's timestamps), duration, color tags, whether it has alpha, and what encode makes of it by default.

            For an SVG it shows the width, height and viewBox, the title, its CSS and SMIL animations \
            and their durations (an SVG has no frames or frame rate), and what made it: Throbber when the \
            names in it are the hash of its text as Throbber writes them, else a generator comment. The \
            file is read as text: no entity is expanded and nothing it names is opened. For a Lottie \
            file (.json, .lottie, .tgs) it shows w and h, the frame rate, the frames from ip to op and \
            the loop's length, the Bodymovin version v, the name, and what made it (meta.g, or a \
            dotLottie manifest's generator).

            For a loader config it shows the canvas, the frames of one loop and the font files its text is drawn from.
            """,
        usage: "throbber info <FILE> [--json]",
        arguments: [
            ArgumentSpec(
                name: "<FILE>", help: "The GIF, APNG, WebP, SVG, Lottie file, video or loader config to read.",
                completion: .files)
        ],
        options: [
            OptionSpec(
                "json",
                help: """
                    One JSON object: format, width, height, pixel_type (APNG, such as "palette 2-bit"; WebP, such as "lossless, alpha"), \
                    loop (0 = forever, N = plays N times), frame_count, \
                    duration_ms, sha256, trim_box (WxH+X+Y, the box encode --trim keeps), draws_nothing, \
                    layered_still (true for a still built up in layers of 0 ms), frames (frame: its number, 1 first, \
                    as encode --frames counts; x, y, width, height, delay_ms, delay_num, delay_den, dispose, blend, \
                    colors, transparent).
                    """,
                details:
                    "pixel_type, colors and transparent are null where the format has none; trim_box and draws_nothing where the frames are over Throbber's decoding limits (encode refuses them too). For a video: format \"video\", container and format_name (ffprobe's format_long_name and format_name), file_type (\"MP4\", \"QuickTime\", \"WebM\", \"Matroska\"; null where the container names one kind of file), brand (an ISO file's major brand, else null), codec, decoder, width and height (as shown), coded_width, coded_height, rotation (the display matrix's, as ffprobe reports it: counterclockwise degrees, so -90 is shown turned 90 degrees clockwise), mirrored, sample_aspect, pixel_format, color_matrix, color_range, color_primaries, color_transfer, chroma_location, alpha, frame_rate (\"30000/1001\" or \"variable\"), frame_count, duration_ms and gif_frame_count (the frames encode keeps for a GIF). For an SVG: format \"svg\", width, height and view_box as written, title, generator, css_animations, smil_animations, durations_ms, duration_ms (when every animation is back at its start: the least common multiple of the durations), frame_rate and frame_count (null), script, compressed, sha256. For a Lottie file: format (\"lottie\", \"tgs\" or \"dotlottie\"), width, height, frame_rate, frame_count, in_point, out_point, duration_ms, version, name, generator, manifest_version, sha256. These keys are stable."
            ),
            .help,
        ],
        examples: ["throbber info loader.gif --json", "throbber info clip.mp4", "throbber info ring.svg"])

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.count == 1, let path = args.positional.first else {
            throw ThrobberError(.usage, args.positional.isEmpty ? "no file given" : "give one file")
        }
        // A video is read by its headers and packets, never whole.
        if VideoFile.isVideo(path) {
            try video(path, json: args.flag("json"))
            return 0
        }
        let bytes = try ImageDecoder.readFile(path)
        if let config = try sceneConfig(bytes, path: path) {
            try StandardOutput.write(try describe(config, json: args.flag("json")) + "\n")
            return 0
        }
        if ImageFormat.sniff(bytes) == nil, try vector(bytes, path: path, json: args.flag("json")) { return 0 }
        // Only the frames as stored are shown: a WebP keeps no decoded frame.
        guard let a = try DecodedAnimation.decode(bytes, name: path, keep: { _ in false }) else {
            throw ThrobberError(.data, "\(path): not a file info reads; \(readsText)")
        }
        let sha = SHA256.hex(bytes)
        let total = a.durations.reduce(Rational(0), +)
        // Finding the box decodes every frame; an animation over the
        // decoding limits (which encode refuses too) is shown without it.
        let drawn: DrawnBox?
        do { drawn = try drawnBox(a, path: path) } catch let e as ThrobberError where e.kind == .data { drawn = nil }
        if args.flag("json") {
            try StandardOutput.write(json(a, sha: sha, total: total, drawn: drawn) + "\n")
        } else {
            try StandardOutput.write(table(a, path: path, sha: sha, total: total) + summary(a, drawn: drawn))
        }
        return 0
    }

    /// The loader config `bytes` (read from `path`) are, validated as
    /// `render` validates it; nil when they are not JSON with a `version`.
    private static func sceneConfig(_ bytes: [UInt8], path: String) throws -> SceneConfig? {
        guard bytes.first(where: { ![9, 10, 13, 32].contains($0) }) == UInt8(ascii: "{"),
            let root = try? JSONParser.parse(bytes, file: path), case .object(let members) = root.value,
            members.contains(where: { $0.key == "version" })
        else { return nil }
        return try ConfigDecoder.decode(bytes, file: path, baseDirectory: PathText.parent(path))
    }

    /// A config's canvas, loop and fonts: one line, or a JSON object
    /// (format "config", width, height, scale, frame_count, duration_ms, fonts).
    private static func describe(_ config: SceneConfig, json: Bool) throws -> String {
        var frames: Int?
        var loop: Rational?
        if case .layers(let layers) = config.content {
            let clock = try SceneClock(config: config, layers: layers)
            frames = clock.frameCount
            loop = clock.duration / config.timing.speed
        }
        let w = config.canvas.width.map { "\($0)" } ?? "null"
        let h = config.canvas.height.map { "\($0)" } ?? "null"
        if json {
            let fonts = config.fontFiles.map { f -> String in
                var out: [UInt8] = []
                JSONText.write(.string(f), to: &out)
                return String(decoding: out, as: UTF8.self)
            }.joined(separator: ", ")
            return
                "{\"format\": \"config\", \"width\": \(w), \"height\": \(h), \"scale\": \(config.canvas.scale), \"frame_count\": \(frames.map(String.init) ?? "null"), \"duration_ms\": \(loop.map(milliseconds) ?? "null"), \"fonts\": [\(fonts)]}"
        }
        var line = "\(config.file): Throbber config"
        if case .layers = config.content {
            line += ", \(w)x\(h) pt at \(config.canvas.scale)x"
        } else {
            line += " of a frame folder"
        }
        if let frames, let loop { line += ", \(frames) frames, \(milliseconds(loop)) ms a loop" }
        line += config.fontFiles.isEmpty ? ", no text" : "; font \(config.fontFiles.joined(separator: ", "))"
        return line
    }

    static func milliseconds(_ r: Rational) -> String {
        let ms = r * Rational(1000)
        if ms.denominator == 1 { return "\(ms.numerator)" }
        return cFormat("%.3f", ms.doubleValue)
    }

    /// A frame's delay in milliseconds, as every format shows it: "100 ms",
    /// "15.625 ms"; one that three decimals do not hold exactly (an APNG's
    /// 1/60 s) also as the fraction stored: "16.667 ms (1/60 s)".
    static func delayText(_ seconds: Rational) -> String {
        let ms = milliseconds(seconds) + " ms"
        let exact = (seconds * Rational(1_000_000)).denominator == 1
        return exact ? ms : ms + " (\(seconds.numerator)/\(seconds.denominator) s)"
    }

    /// What `encode --trim` keeps of `a` (read from `path`): the box of
    /// what its composited frames draw (``DrawnBox``).
    static func drawnBox(_ a: DecodedAnimation, path: String) throws -> DrawnBox {
        // A WebP was read without its frames; GIF and APNG keep them all.
        let frames: FrameSource =
            a.frames.count == a.stored.count ? MemoryFrameSource(a.frames) : try FileFrameSource(files: [path])
        return try DrawnBox.find(in: frames, within: { PixelRect(x: 0, y: 0, width: $0, height: $1) }, jobs: 1)
    }

    private static func json(_ a: DecodedAnimation, sha: String, total: Rational, drawn: DrawnBox?) -> String {
        func field(_ k: String, _ v: String) -> String { "\"\(k)\": \(v)" }
        let frames = a.stored.enumerated().map { i, f -> String in
            [
                field("frame", "\(i + 1)"),
                field("x", "\(f.rect.x)"), field("y", "\(f.rect.y)"), field("width", "\(f.rect.width)"),
                field("height", "\(f.rect.height)"),
                field("delay_ms", milliseconds(Rational(Int64(f.delay.numerator), Int64(max(1, f.delay.denominator))))),
                field("delay_num", "\(f.delay.numerator)"), field("delay_den", "\(f.delay.denominator)"),
                field("dispose", "\"\(f.dispose)\""), field("blend", "\"\(f.blend)\""),
                field("colors", f.colors.map(String.init) ?? "null"),
                field("transparent", f.transparent.map(String.init) ?? "null"),
            ]
            .joined(separator: ", ")
        }
        return "{"
            + [
                field("format", "\"\(a.format.rawValue)\""), field("width", "\(a.width)"),
                field("height", "\(a.height)"), field("pixel_type", a.pixelType.map { "\"\($0)\"" } ?? "null"),
                field("loop", "\(a.loop)"), field("frame_count", "\(a.stored.count)"),
                field("duration_ms", milliseconds(total)), field("sha256", "\"\(sha)\""),
                field("trim_box", drawn.map { "\"\($0.rect)\"" } ?? "null"),
                field("draws_nothing", drawn.map { "\($0.isBlank)" } ?? "null"),
                field("layered_still", "\(a.layeredStill != nil)"),
                field("frames", "[\n  " + frames.map { "{\($0)}" }.joined(separator: ",\n  ") + "]"),
            ]
            .joined(separator: ", ") + "}"
    }

    private static func table(_ a: DecodedAnimation, path: String, sha: String, total: Rational) -> String {
        let loop = a.loop == 0 ? "loops forever" : a.loop == 1 ? "plays once" : "plays \(a.loop) times"
        var out =
            "\(path): \(a.format.limits.name) \(a.width)x\(a.height), \(a.pixelType.map { $0 + ", " } ?? "")\(a.stored.count) frames, \(loop), \(milliseconds(total)) ms\n"
        out += "sha256 \(sha)\n"
        func pad(_ s: String, _ n: Int) -> String {
            s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
        }
        out +=
            "  " + pad("#", 5) + pad("rect", 20) + pad("delay", 20) + pad("dispose", 13) + pad("blend", 8)
            + pad("colors", 8) + "transparent\n"
        for (i, f) in a.stored.enumerated() {
            let delay = delayText(Rational(Int64(f.delay.numerator), Int64(max(1, f.delay.denominator))))
            out +=
                "  " + pad("\(i + 1)", 5) + pad(f.rect.description, 20) + pad(delay, 20) + pad(f.dispose, 13)
                + pad(f.blend, 8)
                + pad(f.colors.map(String.init) ?? "-", 8) + (f.transparent.map(String.init) ?? "-") + "\n"
        }
        return out
    }

    /// The lines after the table: the trim box, and whether the file is a
    /// layered still.
    private static func summary(_ a: DecodedAnimation, drawn: DrawnBox?) -> String {
        var out =
            drawn.map {
                "trim box \($0.rect)\($0.isBlank ? " (no frame draws anything)" : "") (what encode --trim keeps)\n"
            } ?? "trim box not measured: the frames are over Throbber's decoding limits\n"
        if let layers = a.layeredStill {
            out +=
                "a still built up in \(layers) layers: every frame but the last has a 0 ms delay and it plays once; encode writes its final picture\n"
        }
        return out
    }
}
