/// `throbber encode DIR|FILE...|- -o OUT`
enum EncodeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "encode",
        summary:
            "Encode frame images (PNG, Apple CgBI PNG, JPEG, WebP), animations (GIF, APNG, WebP) or a Lottie file into a GIF, APNG or WebP.",
        overview: """
            Encode frame images into an animated GIF, APNG or WebP.

            A folder is read in natural order (frame2 before frame10); files named on \
            the command line keep their order. An animated GIF, APNG or WebP among the \
            inputs gives all its frames, composited as a viewer shows them, with \
            their own delays. '-' reads frames piped on standard input: PNG files \
            (ffmpeg -f image2pipe -c:v png -) or a YUV4MPEG2 stream (ffmpeg -f \
            yuv4mpegpipe -), told apart by their first bytes; a YUV4MPEG2 stream \
            brings its frame rate, PNG files have none: give ffmpeg's fps filter and \
            --fps the same rate (-vf fps=15 ... --fps 15), or the clip plays at the \
            wrong speed. A pipe named as the only input (a FIFO, or the \
            shell's <(...)) is read the same way. When every frame fits in 256 colors the GIF is \
            lossless; otherwise libimagequant reduces each frame's colors. APNG is \
            lossless truecolor unless --colors asks for a palette. WebP is lossless unless \
            --quality asks for lossy frames (libwebp's quality; alpha stays lossless) or \
            --colors for a palette a frame (coded lossless, partial alpha kept).

            A Lottie file (.json, a .tgs sticker or a .lottie archive) is recognised by its content and \
            drawn by rlottie at the output size, at its own frame rate (GIF: every \
            k-th frame, the smallest step that stays within 50 fps); --fps resamples \
            it by time. It must be the only input.
            """,
        usage: "throbber encode <DIR|FILE...|-> -o <OUT.gif|OUT.png|OUT.webp> [options]",
        arguments: [
            ArgumentSpec(
                name: "<DIR|FILE>",
                help:
                    "A folder of frames, or frame files, in order; one Lottie .json, .tgs or .lottie file; "
                    + "or '-' or a pipe alone: frames piped on standard input or the pipe.",
                completion: .files, repeats: true)
        ],
        options: [
            OptionSpec(
                "output", short: "o", value: "file",
                help:
                    "Where to write; '-' for standard output. The format comes from the extension: .gif, .png and .apng for APNG, .webp.",
                details:
                    "A symbolic link's target is replaced; a device or FIFO (/dev/null, /dev/stdout) is written straight through, as a GIF unless --format says otherwise.",
                completion: .files)
        ] + OptionSpec.output() + [
            OptionSpec(
                "sort", value: "natural|name", help: "Order of files in a folder.",
                details: "natural compares runs of digits as numbers; name is plain byte order.",
                default: "natural", completion: .choices(["natural", "name"])),
            OptionSpec(
                "glob", value: "pattern", help: "Take only folder files matching this shell pattern.",
                default: "*.png, *.apng, *.jpg, *.jpeg, *.gif, *.webp"),
            .jobs, .maxMemory, .format, .compression, .sha256, .quiet, .help,
        ],
        notes: [
            .init(
                title: "MAKE IT SMALLER",
                text:
                    "--scale 0.5 turns @2x frames into @1x; --width 480 shrinks a screen capture to 480 pixels wide (1280x720 becomes 480x270); --frames 1-:2 keeps every second frame (with half the --fps, the same speed); --quality 60 trades colors for bytes."
            )
        ],
        examples: [
            "throbber encode frames/ -o loader.gif --fps 10 --duplicate 2",
            "throbber encode capture/ -o demo.gif --width 480 --frames 1-:2 --fps 15   # a 30 fps capture",
            "throbber encode icons@2x/ -o loader.gif --scale 0.5",
            "throbber encode loader.gif -o loader.png",
            "throbber encode spinner.json -o spinner.gif --width 64 --background white",
            "throbber encode a.png b.png c.png -o - --delay 50 > abc.gif",
            "ffmpeg -i clip.mp4 -vf fps=15,scale=480:-2 -f image2pipe -c:v png - | throbber encode - -o clip.gif --fps 15",
            "ffmpeg -i clip.mp4 -vf fps=25 -f yuv4mpegpipe - | throbber encode - -o clip.png",
        ])

    static func run(_ args: Arguments) throws -> Int32 {
        try EncodeRequest(args, base: .working).run()
        return 0
    }
}
