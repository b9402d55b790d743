/// `throbber` itself: what its own help and the man page say before any
/// subcommand.
enum RootCommand {
    static let version = "0.1.0"

    static let spec = CommandSpec(
        name: "throbber",
        summary: "Make small, exact animated GIF, APNG and WebP loaders and animations.",
        overview: "Make small, exact animated GIF, APNG and WebP loaders and animations.",
        usage: "throbber <subcommand> [options]",
        options: [
            OptionSpec("help", short: "h", help: "Show help for throbber or a subcommand."),
            OptionSpec("version", help: "Show the version."),
        ])
}
