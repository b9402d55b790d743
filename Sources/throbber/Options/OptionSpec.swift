/// One option of a subcommand, declared once: the parser, `--help`, the man
/// page and the shell completions all read it.
struct OptionSpec: Sendable {
    /// The long name, without dashes.
    var long: String
    /// A one-letter alias (`-o`), if any.
    var short: Character?
    /// What the value is called in help (`<file>`, `<n>`); nil for a flag.
    var value: String?
    /// What it does: one or a few sentences, for --help and the man page.
    var help: String
    /// More sentences that only the man page shows.
    var details: String?
    /// What applies when the option is not given, as words ("25", "best").
    var defaultText: String?
    /// What a shell offers for the value.
    var completion: ValueCompletion

    init(
        _ long: String, short: Character? = nil, value: String? = nil, help: String, details: String? = nil,
        default defaultText: String? = nil, completion: ValueCompletion = .none
    ) {
        self.long = long
        self.short = short
        self.value = value
        self.help = help
        self.details = details
        self.defaultText = defaultText
        self.completion = completion
    }

    var takesValue: Bool { value != nil }

    /// `-o, --output <file>` or `--bounce`, as help lists it.
    var synopsis: String {
        var s = short.map { "-\($0), " } ?? ""
        s += "--" + long
        if let value { s += " <\(value)>" }
        return s
    }
}
