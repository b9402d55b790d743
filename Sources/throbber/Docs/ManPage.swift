import FoundationEssentials
import Glibc

/// The manual page, in mdoc: the hand-written prose of `ManPageProse` and
/// `ManPageReference`, and SYNOPSIS and OPTIONS generated from the
/// declarations, so that the page and `--help` cannot drift apart.
enum ManPage {
    /// The page's date (.Dd): change it when the page changes.
    static let date = "November 30, 2026"

    static func text(root: CommandSpec, commands: [CommandSpec]) -> String {
        var lines = [
            ".Dd \(date)", ".Dt THROBBER 1", ".Os", ".Sh NAME", ".Nm throbber",
            ".Nd \(root.summary.lowercasedFirst.dropLast())",
        ]
        lines += [".Sh SYNOPSIS"] + commands.flatMap(synopsis)
        lines += [".Nm"] + root.options.map { ".Op Fl " + ($0.short.map { "\($0) | -" } ?? "-") + $0.long }
        lines += [ManPageProse.description, ManPageProse.pinning, ManPageReference.configFormat]
        lines += options(root: root, commands: commands)
        lines += [ManPageReference.exitStatus, ManPageReference.examplesAndSeeAlso]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `.Nm`, `.Cm encode` and the usage line's words as macros:
    /// `[-o <OUT.gif>]` becomes `.Op Fl o Ar OUT.gif`.
    static func synopsis(_ spec: CommandSpec) -> [String] {
        var lines = [".Nm", ".Cm \(spec.name)"]
        var group: [String]? = nil
        for var word in spec.usage.split(separator: " ").dropFirst(2).map(String.init) {
            if word.hasPrefix("[") {
                group = []
                word.removeFirst()
            }
            let closes = word.hasSuffix("]")
            if closes { word.removeLast() }
            let macro = usageMacro(word)
            if group != nil { group!.append(macro) } else { lines.append("." + macro) }
            if closes, let g = group {
                lines.append(".Op " + g.joined(separator: " "))
                group = nil
            }
        }
        return lines
    }

    private static func usageMacro(_ word: String) -> String {
        if word.hasPrefix("-") { return "Fl " + word.dropFirst() }
        var name = word
        let repeats = name.hasSuffix("...")
        if repeats { name.removeLast(3) }
        if name.hasPrefix("<") && name.hasSuffix(">") { name = String(name.dropFirst().dropLast()) }
        return "Ar " + name + (repeats ? " ..." : "")
    }

    /// OPTIONS: the root options, then one list per subcommand — its
    /// arguments, then its options with their defaults.
    static func options(root: CommandSpec, commands: [CommandSpec]) -> [String] {
        var lines = [
            ".Sh OPTIONS",
            "Each subcommand takes the options listed under its name.",
            "A value follows its option as the next argument or after an equals sign,",
            "as in",
            ".Fl -fps Ns =30 ;",
            ".Fl -",
            "ends the options.",
            ".Bl -tag -width Ds",
        ]
        lines += root.options.flatMap(item)
        lines.append(".El")
        for spec in commands {
            lines += [".Ss \(spec.name)", ".Bl -tag -width Ds"]
            for argument in spec.arguments {
                lines.append(".It " + usageMacro(argument.name + (argument.repeats ? "..." : "")))
                lines += sentences(argument.help)
            }
            lines += spec.options.flatMap(item)
            lines.append(".El")
        }
        return lines
    }

    /// `.It Fl o , -output Ar file`, the help and details one sentence a
    /// line, then `Default: …`.
    static func item(_ option: OptionSpec) -> [String] {
        var head = ".It Fl " + (option.short.map { "\($0) , -" } ?? "-") + option.long
        if case .choices(let words) = option.completion {
            head += " Cm " + words.joined(separator: " | ")
        } else if let value = option.value {
            head += " Ar " + value
        }
        var lines = [head] + sentences(option.help)
        if let details = option.details { lines += sentences(details) }
        if let d = option.defaultText { lines.append(escape("Default: \(d).")) }
        return lines
    }

    /// Text as mdoc wants it: one sentence a line (mandoc -Tlint asks for
    /// that), backslashes escaped, no line that starts like a macro.
    static func sentences(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ").map(String.init) {
            line += (line.isEmpty ? "" : " ") + word
            if let last = word.last, ".!?".contains(last), !["e.g.", "i.e."].contains(word) {
                lines.append(line)
                line = ""
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.flatMap(fit).map(escape)
    }

    /// A sentence in lines of at most 80 bytes (mandoc -Tlint's limit).
    private static func fit(_ sentence: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in sentence.split(separator: " ") {
            if !line.isEmpty, line.utf8.count + 1 + word.utf8.count > 80 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }

    static func escape(_ line: String) -> String {
        let text = line.replacing("\\", with: "\\e")
        return text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text
    }
}

extension String {
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
