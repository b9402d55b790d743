import FoundationEssentials
import Glibc
import ThrobberKit

/// `throbber info FILE [--json]`: what a GIF, APNG or WebP holds, frame by frame.
enum InfoCommand: Subcommand {
    static let spec = CommandSpec(
        name: "info",
        summary: "Show a GIF's, APNG's or WebP's frames, delays, loop, palettes, disposal and SHA-256.",
        overview: """
            Show what a GIF, APNG or WebP holds: format, size, APNG color type and \
            bit depth or how WebP frames are coded, loop count, total duration, SHA-256, and per frame its rectangle, delay, disposal, blend, \
            palette size and transparent index.
            """,
        usage: "throbber info <FILE> [--json]",
        arguments: [ArgumentSpec(name: "<FILE>", help: "The GIF, APNG or WebP to read.", completion: .files)],
        options: [
            OptionSpec(
                "json",
                help: """
                    One JSON object: format, width, height, pixel_type (APNG, such as "palette 2-bit"; WebP, such as "lossless, alpha"), \
                    loop (0 = forever, N = plays N times), frame_count, \
                    duration_ms, sha256, frames (frame: its number, 1 first, as --frames counts; x, y, width, height, delay_ms, delay_num, delay_den, dispose, blend, \
                    colors, transparent).
                    """,
                details: "pixel_type, colors and transparent are null where the format has none. These keys are stable."
            ),
            .help,
        ],
        examples: ["throbber info loader.gif --json"])

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.count == 1, let path = args.positional.first else {
            throw ThrobberError(.usage, args.positional.isEmpty ? "no file given" : "give one file")
        }
        let bytes = try ImageDecoder.readFile(path)
        // Only the frames as stored are shown: a WebP keeps no decoded frame.
        guard let a = try DecodedAnimation.decode(bytes, name: path, keep: { _ in false }) else {
            throw ThrobberError(.data, "\(path): not a GIF, an animated PNG or a WebP")
        }
        let sha = SHA256.hex(bytes)
        let total = a.durations.reduce(Rational(0), +)
        if args.flag("json") {
            try StandardOutput.write(json(a, sha: sha, total: total) + "\n")
        } else {
            try StandardOutput.write(table(a, path: path, sha: sha, total: total))
        }
        return 0
    }

    static func milliseconds(_ r: Rational) -> String {
        let ms = r * Rational(1000)
        if ms.denominator == 1 { return "\(ms.numerator)" }
        return cFormat("%.3f", ms.doubleValue)
    }

    private static func json(_ a: DecodedAnimation, sha: String, total: Rational) -> String {
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
            "  " + pad("#", 5) + pad("rect", 20) + pad("delay", 16) + pad("dispose", 13) + pad("blend", 8)
            + pad("colors", 8) + "transparent\n"
        for (i, f) in a.stored.enumerated() {
            let delay =
                switch a.format {
                case .gif: "\(f.delay.numerator * 10) ms"
                case .webp: "\(f.delay.numerator) ms"
                case .apng: "\(f.delay.numerator)/\(f.delay.denominator) s"
                }
            out +=
                "  " + pad("\(i + 1)", 5) + pad(f.rect.description, 20) + pad(delay, 16) + pad(f.dispose, 13)
                + pad(f.blend, 8)
                + pad(f.colors.map(String.init) ?? "-", 8) + (f.transparent.map(String.init) ?? "-") + "\n"
        }
        return out
    }
}
