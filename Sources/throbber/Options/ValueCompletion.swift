/// What a shell may offer for an option's value or a positional argument.
enum ValueCompletion: Equatable, Sendable {
    /// Nothing to offer: a number, a color, a pattern.
    case none
    /// File names (folders included, to descend into).
    case files
    /// Folder names only.
    case folders
    /// One of a fixed set of words.
    case choices([String])
    /// The names of the built-in presets.
    case presets
}
