import Foundation
import ThrobberKit

/// `throbber info FILE [--json]`: what a GIF or APNG holds, frame by frame.
enum InfoCommand {
    static let options: [Arguments.Option] = [
        .init(name: "json", takesValue: false), .init(name: "help", short: "h", takesValue: false),
    ]
    static let usage = "throbber info <FILE> [--json]"

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: options)
        if args.flag("help") { print(Help.info, terminator: ""); return }
        guard args.positional.count == 1, let path = args.positional.first else {
            throw ThrobberError(.usage, args.positional.isEmpty ? "no file given" : "give one file")
        }
        let bytes = try ImageDecoder.readFile(path)
        guard let a = try DecodedAnimation.decode(bytes, name: path) else {
            throw ThrobberError(.data, "\(path): not a GIF or an animated PNG")
        }
        let sha = SHA256.hex(bytes)
        let total = a.durations.reduce(Rational(0), +)
        if args.flag("json") {
            print(json(a, sha: sha, total: total))
        } else {
            print(table(a, path: path, sha: sha, total: total), terminator: "")
        }
    }

    static func milliseconds(_ r: Rational) -> String {
        let ms = r * Rational(1000)
        if ms.denominator == 1 { return "\(ms.numerator)" }
        return String(format: "%.3f", ms.doubleValue)
    }

    private static func json(_ a: DecodedAnimation, sha: String, total: Rational) -> String {
        func field(_ k: String, _ v: String) -> String { "\"\(k)\": \(v)" }
        let frames = a.stored.map { f -> String in
            [field("x", "\(f.rect.x)"), field("y", "\(f.rect.y)"), field("width", "\(f.rect.width)"),
             field("height", "\(f.rect.height)"),
             field("delay_ms", milliseconds(Rational(Int64(f.delay.numerator), Int64(max(1, f.delay.denominator))))),
             field("delay_num", "\(f.delay.numerator)"), field("delay_den", "\(f.delay.denominator)"),
             field("dispose", "\"\(f.dispose)\""), field("blend", "\"\(f.blend)\""),
             field("colors", f.colors.map(String.init) ?? "null"), field("transparent", f.transparent.map(String.init) ?? "null")]
                .joined(separator: ", ")
        }
        return "{" + [field("format", "\"\(a.format.rawValue)\""), field("width", "\(a.width)"), field("height", "\(a.height)"),
                      field("loop", "\(a.loop)"), field("frame_count", "\(a.stored.count)"),
                      field("duration_ms", milliseconds(total)), field("sha256", "\"\(sha)\""),
                      field("frames", "[\n  " + frames.map { "{\($0)}" }.joined(separator: ",\n  ") + "]")]
            .joined(separator: ", ") + "}"
    }

    private static func table(_ a: DecodedAnimation, path: String, sha: String, total: Rational) -> String {
        let loop = a.loop == 0 ? "loops forever" : a.loop == 1 ? "plays once" : "plays \(a.loop) times"
        var out = "\(path): \(a.format == .gif ? "GIF" : "APNG") \(a.width)x\(a.height), \(a.stored.count) frames, \(loop), \(milliseconds(total)) ms\n"
        out += "sha256 \(sha)\n"
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
        out += "  " + pad("#", 5) + pad("rect", 20) + pad("delay", 16) + pad("dispose", 13) + pad("blend", 8) + pad("colors", 8) + "transparent\n"
        for (i, f) in a.stored.enumerated() {
            let delay = a.format == .gif
                ? "\(f.delay.numerator * 10) ms"
                : "\(f.delay.numerator)/\(f.delay.denominator) s"
            out += "  " + pad("\(i)", 5) + pad(f.rect.description, 20) + pad(delay, 16) + pad(f.dispose, 13) + pad(f.blend, 8)
                + pad(f.colors.map(String.init) ?? "-", 8) + (f.transparent.map(String.init) ?? "-") + "\n"
        }
        return out
    }
}
