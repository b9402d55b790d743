import Foundation

/// Text as completion scripts quote and show it.
enum ShellText {
    /// `'…'` for bash and zsh: a quote inside becomes `'\''`.
    static func quoted(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `'…'` for fish, which escapes `\` and `'` inside single quotes.
    static func fishQuoted(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// A help text's first sentence, without its full stop: the short
    /// description a shell shows beside a completion.
    static func firstSentence(_ text: String) -> String {
        let end = text.range(of: ". ")?.lowerBound ?? text.endIndex
        var s = String(text[..<end])
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
}
