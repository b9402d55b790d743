/// `throbber render CONFIG.json [-o OUT]`
enum RenderCommand: Subcommand {
    static let spec = CommandSpec(
        name: "render",
        summary: "Render a loader from a JSON config as GIF, APNG, WebP, SVG, Lottie or dotLottie.",
        overview: """
            Render a loader described by a JSON config into an animated GIF, APNG or WebP, \
            or export it as a Lottie animation (.json, or .lottie for dotLottie) or an \
            animated SVG (.svg).

            The config (format version 1, see man throbber) either draws a scene of \
            layers (image, circle, arc, rect, path, text, group, lottie) with step and keyframe \
            animations, or reads a frame folder. It is checked completely before \
            anything is drawn; errors name the file and the JSON path.

            The output options are encode's; given on the command line, they \
            override the config's own values (timing.fps, duplicate, bounce, loop, \
            canvas.background and the encode block), and their errors name the option. \
            A Lottie, dotLottie or SVG file takes the options that change the scene (--fps, \
            --speed, --bounce, --loop, --background) and refuses those that only \
            frames have.
            """,
        usage: "throbber render <CONFIG.json> [-o <OUT.gif>] [options]",
        arguments: [ArgumentSpec(name: "<CONFIG.json>", help: "The animation config.", completion: .files)],
        options: [
            OptionSpec(
                "output", short: "o", value: "file",
                help:
                    "Where to write (.gif, .png/.apng for APNG, .webp, .json for Lottie, .lottie for dotLottie, .svg); '-' for standard output.",
                default: "the config's \"output\" list", completion: .files)
        ]
            + OptionSpec.output(except: ["delay"], defaults: configDefaults) + [
                .sceneFormat, .compression,
            ] + OptionSpec.scene + [.jobs, .maxMemory, .sha256, .quiet, .help],
        examples: [
            "throbber render examples/dots.json -o dots.gif",
            "throbber render examples/dots.json -o dots-dark.gif --matte '#1e1e1e' --max-bytes 20k",
            "throbber render examples/dots.json -o dots.svg",
        ])

    /// Where render's output options take their value from when not given.
    static let configDefaults = [
        "fps": "the config's timing.fps", "duplicate": "the config's duplicate",
        "poster-frame": "the frame at the config's timing.start", "loop": "the config's loop",
        "quality": "the config's encode.quality", "colors": "the config's encode.colors",
        "lossy": "the config's encode.lossy", "dither": "the config's encode.dither",
        "matte": "the config's encode.matte", "background": "the config's canvas.background",
    ]

    static func run(_ args: Arguments) throws -> Int32 {
        try RenderRequest(args, base: .working).run()
        return 0
    }
}
