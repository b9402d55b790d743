import FoundationEssentials
import Glibc

/// `--help`, generated from the declarations: OVERVIEW, USAGE, ARGUMENTS,
/// OPTIONS (with each default), notes such as EXIT STATUS, and EXAMPLES.
enum HelpText {
    /// `throbber <subcommand> --help`.
    static func page(_ spec: CommandSpec) -> String {
        var sections: [[String]] = []
        for (i, paragraph) in spec.overview.split(separator: "\n\n", omittingEmptySubsequences: false).enumerated() {
            sections.append(TextLayout.wrap(String(paragraph), firstPrefix: i == 0 ? "OVERVIEW: " : ""))
        }
        sections.append(TextLayout.wrap(spec.usage, firstPrefix: "USAGE: ", indent: 2))
        if !spec.arguments.isEmpty {
            sections.append(["ARGUMENTS:"] + spec.arguments.flatMap { TextLayout.columns($0.name, $0.help) })
        }
        sections.append(["OPTIONS:"] + spec.options.flatMap(optionLines))
        for note in spec.notes {
            sections.append(TextLayout.wrap(note.text, firstPrefix: note.title + ": "))
        }
        if !spec.examples.isEmpty {
            sections.append(["EXAMPLES:"] + spec.examples.map { "  " + $0 })
        }
        return text(sections)
    }

    /// `throbber --help`: the subcommands with their summaries, the notes
    /// (the formats read and written), and the root options.
    static func root(_ commands: [CommandSpec]) -> String {
        let spec = RootCommand.spec
        let head = [
            TextLayout.wrap(spec.overview, firstPrefix: "OVERVIEW: "),
            TextLayout.wrap(spec.usage, firstPrefix: "USAGE: ", indent: 2),
            ["SUBCOMMANDS:"] + commands.flatMap { TextLayout.columns($0.name, $0.summary) },
        ]
        let notes = spec.notes.map { TextLayout.wrap($0.text, firstPrefix: $0.title + ": ") }
        return text(
            head + notes + [
                ["OPTIONS:"] + spec.options.flatMap(optionLines),
                ["  See 'throbber <subcommand> --help' for details, and man throbber(1)."],
            ])
    }

    /// An option and its help; `(default: …)` ends the help, on one line
    /// when it fits on one.
    static func optionLines(_ option: OptionSpec) -> [String] {
        guard let d = option.defaultText else { return TextLayout.columns(option.synopsis, option.help) }
        var clause = "(default: \(d))"
        if clause.count <= TextLayout.width - TextLayout.column {
            clause = clause.replacing(" ", with: TextLayout.glue)
        }
        return TextLayout.columns(option.synopsis, option.help + " " + clause)
    }

    private static func text(_ sections: [[String]]) -> String {
        sections.map { $0.joined(separator: "\n") + "\n" }.joined(separator: "\n")
    }
}
