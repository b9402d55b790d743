/// One subcommand, declared once: its help page, its man page entry, its
/// completions and the options its parser accepts all come from here.
struct CommandSpec: Sendable {
    /// A section of help after OPTIONS, e.g. `EXIT STATUS: 0 all match, …`.
    struct Note: Sendable {
        var title: String
        var text: String
    }

    var name: String
    /// One line for the root help's SUBCOMMANDS list.
    var summary: String
    /// The help's OVERVIEW: a first line, then paragraphs separated by blank lines.
    var overview: String
    /// `throbber encode <DIR|FILE>... -o <OUT.gif|OUT.png> [options]`
    var usage: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec]
    var notes: [Note] = []
    var examples: [String] = []
    /// Left out of help, the man page and completions (`_man`).
    var hidden = false
}
