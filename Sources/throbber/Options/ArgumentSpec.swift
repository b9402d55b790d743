/// A positional argument of a subcommand, as help and completions show it.
struct ArgumentSpec: Sendable {
    /// As the usage line writes it: `<CONFIG.json>`.
    var name: String
    var help: String
    var completion: ValueCompletion
    /// Whether more than one may be given (`<DIR|FILE>...`).
    var repeats = false
}
