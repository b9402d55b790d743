import FoundationEssentials
import Glibc

/// Text as completion scripts quote and show it.
enum ShellText {
    /// `'…'` for bash and zsh: a quote inside becomes `'\''`.
    static func quoted(_ s: String) -> String {
        "'" + s.replacing("'", with: "'\\''") + "'"
    }

    /// `'…'` for fish, which escapes `\` and `'` inside single quotes.
    static func fishQuoted(_ s: String) -> String {
        "'" + s.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    /// A help text's first sentence, without its full stop: the short
    /// description a shell shows beside a completion.
    static func firstSentence(_ text: String) -> String {
        let end = text.firstRange(of: ". ")?.lowerBound ?? text.endIndex
        var s = String(text[..<end])
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
}
