/// `throbber` itself: what its own help and the man page say before any
/// subcommand.
enum RootCommand {
    static let version = "0.1.0"

    static let spec = CommandSpec(
        name: "throbber",
        summary: "Make small, exact animated GIF, APNG and WebP files, and SVG and Lottie loaders.",
        overview: "Make small, exact animated GIF, APNG and WebP files, and SVG and Lottie loaders.",
        usage: "throbber <subcommand> [options]",
        options: [
            OptionSpec("help", short: "h", help: "Show help for throbber or a subcommand."),
            OptionSpec("version", help: "Show the version."),
        ],
        notes: [
            CommandSpec.Note(
                title: "FORMATS",
                text:
                    "encode, render and preset write GIF (.gif), APNG (.png, .apng) and WebP (.webp); render and preset also write an animated SVG (.svg), Lottie JSON (.json) and dotLottie (.lottie). encode reads frame images (PNG, JPEG, WebP), GIF, APNG and WebP animations, videos (MP4, MOV, WebM, Matroska and more), Lottie files (.json, .lottie, .tgs) and frame streams; info reads all of these, SVG files and loader configs."
            )
        ])
}
