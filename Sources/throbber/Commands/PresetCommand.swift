/// `throbber preset NAME [...]`
enum PresetCommand: Subcommand {
    static let spec = CommandSpec(
        name: "preset",
        summary: "Render a built-in loader as GIF, APNG, WebP, SVG, Lottie or dotLottie, or print its config.",
        overview: """
            Render a built-in loader (see 'throbber presets').

            Every preset is a config in the same format as 'render' takes; \
            --print-config shows it with the options applied, and rendering that JSON \
            gives the same bytes.

            --size, --color, --background, --speed, --fps and --scale redesign the \
            loader: it is drawn anew, sharp at any size. The other output options are \
            encode's and work on the frames drawn (--width and --height resample them); \
            --scale here is pixels per point, not a resize factor. A GIF's soft edges \
            are blended for a light page: for a dark page give --matte its color. \
            Named .json, .lottie or .svg, the loader is written as a Lottie animation, \
            a dotLottie archive of it or an animated SVG, vectors sharp at any size, \
            with the same timing.
            """,
        usage: "throbber preset <NAME> [-o <OUT.gif>] [options]",
        arguments: [
            ArgumentSpec(name: "<NAME>", help: "A preset name, e.g. spinner, dots, ease.", completion: .presets)
        ],
        options: [
            OptionSpec(
                "output", short: "o", value: "file", help: "Where to write; '-' for standard output.",
                details:
                    "The format comes from the extension: .gif, .png and .apng for APNG, .webp for WebP, .json for Lottie, .lottie for dotLottie, .svg for SVG.",
                completion: .files),
            OptionSpec("size", value: "px", help: "The larger side in pixels.", default: "the preset's, 64 for most"),
            OptionSpec(
                "color", value: "color", help: "The loader's color (#RRGGBB or a CSS name): the theme's accent.",
                default: "the preset's"),
            OptionSpec(
                "dark-color", value: "color",
                help: "The accent on dark pages (an SVG's prefers-color-scheme: dark, --theme dark).",
                default: "--color if given, else the preset's own color made light"),
            OptionSpec(
                "background", value: "color", help: "Canvas color; an opaque one is also the GIF's --matte.",
                default: "transparent"),
            OptionSpec(
                "speed", value: "x", help: "Play x times as fast: the loader's timing is redesigned, not resampled.",
                default: "1"),
            OptionSpec("fps", value: "n", help: "Frames per second, at most 50 for GIF.", default: "the preset's"),
            OptionSpec(
                "scale", value: "n", help: "Pixels per point (2 draws @2x); not a resize factor.",
                default: "the preset's"),
        ]
            + OptionSpec.output(except: own.union(["delay"]), defaults: presetDefaults) + [
                .sceneFormat, .compression,
                OptionSpec(
                    "ring", value: "image", help: "ease only: your ring image (it turns).",
                    details: "With --icon it rebuilds the EaseLoadingView from your own two images.",
                    completion: .files),
                OptionSpec("icon", value: "image", help: "ease only: your icon image (it fades).", completion: .files),
                OptionSpec("print-config", help: "Print the config JSON instead of rendering."),
            ] + OptionSpec.scene + [.jobs, .maxMemory, .sha256, .quiet, .help],
        examples: [
            "throbber preset spinner -o spinner.gif --size 128 --color '#0A84FF'",
            "throbber preset ease --ring loading_loop@2x.png --icon loading_monkey@2x.png -o ease.gif",
            "throbber preset spinner -o spinner-dark.gif --size 48 --matte '#1e1e1e' --colors 16",
            "throbber preset spinner -o spinner.json --size 48",
            "throbber preset dots --print-config > dots.json",
        ])

    /// The options that redesign the loader here, where the other commands
    /// have output options of the same names.
    static let own: Set<String> = ["background", "speed", "fps", "scale"]

    /// Where preset's output options take their value from when not given.
    static let presetDefaults = [
        "duplicate": "1", "loop": "0 (forever)",
        "matte": "white, or the --background color when it is opaque",
        "quality": "lossless when the frames fit in 256 colors",
    ]

    static func run(_ args: Arguments) throws -> Int32 {
        try PresetRequest(args, base: .working).run()
        return 0
    }
}
