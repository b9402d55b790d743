/// `throbber render CONFIG.json [-o OUT]`
enum RenderCommand: Subcommand {
    static let spec = CommandSpec(
        name: "render",
        summary: "Render a loader from a JSON config.",
        overview: """
            Render a loader described by a JSON config into an animated GIF.

            The config (format version 1, see man throbber) either draws a scene of \
            layers (image, circle, arc, rect, group) with step and keyframe \
            animations, or reads a frame folder. It is checked completely before \
            anything is drawn; errors name the file and the JSON path.
            """,
        usage: "throbber render <CONFIG.json> [-o <OUT.gif>] [options]",
        arguments: [ArgumentSpec(name: "<CONFIG.json>", help: "The animation config.", completion: .files)],
        options: [
            OptionSpec(
                "output", short: "o", value: "file",
                help: "Where to write (.gif, .png/.apng for APNG, .webp); '-' for standard output.",
                default: "the config's \"output\" list", completion: .files),
            .speed, .reverse, .posterFrame, .format, .compression, .jobs, .maxMemory, .sha256, .quiet, .help,
        ],
        examples: ["throbber render examples/dots.json -o dots.gif"])

    static func run(_ args: Arguments) throws -> Int32 {
        try RenderRequest(args, base: .working).run()
        return 0
    }
}
