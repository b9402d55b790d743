import FoundationEssentials
import Glibc

/// The plain-text layout of help: paragraphs wrapped to a width, and two
/// columns (a name, then its description) for options, arguments and
/// subcommands.
enum TextLayout {
    static let width = 78
    /// Where the description column starts.
    static let column = 26
    /// A space that wrapping does not break at (a no-break space, printed as a space).
    static let glue = "\u{A0}"

    /// `text` wrapped to `width`, the first line after `firstPrefix` and the
    /// others after `indent` spaces. Words longer than a line stay whole.
    static func wrap(_ text: String, firstPrefix: String = "", indent: Int = 0, width: Int = width) -> [String] {
        var lines: [String] = []
        var line = firstPrefix
        var empty = true
        for word in text.split(separator: " ") {
            if !empty, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines.map { $0.replacing(glue, with: " ") }
    }

    /// `  name                    description…`, the description wrapped in
    /// its column; a name too wide for its column gets a line of its own.
    static func columns(_ name: String, _ description: String) -> [String] {
        let head = "  " + name
        let pad = String(repeating: " ", count: column)
        if head.count + 2 > column {
            return [head] + wrap(description, firstPrefix: pad, indent: column)
        }
        return wrap(description, firstPrefix: head + String(repeating: " ", count: column - head.count), indent: column)
    }
}
