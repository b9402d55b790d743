/// `throbber encode DIR|FILE...|- -o OUT`
enum EncodeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "encode",
        summary:
            "Encode frame images (PNG, Apple CgBI PNG, JPEG, WebP), animations (GIF, APNG, WebP), a video or a Lottie file into a GIF, APNG or WebP.",
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

            A video (MP4, MOV, MKV, WebM, AVI … in any codec FFmpeg decodes) is \
            recognised by its content and must be the only input. Its frames keep \
            their own times, variable frame rates included (GIF: a frame closer than \
            20 ms to the one before is skipped, so 60 fps shows every 2nd frame); \
            --fps resamples by time as ffmpeg's fps filter does. The picture is shown \
            as players show it: the stream's color matrix and range, its display \
            rotation and pixel aspect ratio are applied, and alpha (ProRes 4444, VP9 \
            WebM with alpha) is kept. --from and --to cut it by time, seeking to the \
            nearest key frame; audio is ignored.
            """,
        usage: "throbber encode <DIR|FILE...|-> -o <OUT.gif|OUT.png|OUT.webp> [options]",
        arguments: [
            ArgumentSpec(
                name: "<DIR|FILE>",
                help:
                    "A folder of frames, or frame files, in order; one video or Lottie .json, .tgs or .lottie file; "
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
                "from", value: "time",
                help: "Start a video here: seconds (12.5), M:SS.mmm or H:MM:SS.mmm from its first frame.",
                details:
                    "The frame on screen at that time is the first, shown from then; decoding starts at the key frame before, so a cut near the end of a long clip costs what one near the start does."
            ),
            OptionSpec(
                "to", value: "time",
                help: "End a video here (same forms as --from); the end of the clip when not given."
            ),
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
            "throbber encode clip.mp4 -o clip.gif --width 240 --fps 15",
            "throbber encode clip.mp4 -o part.webp --from 0:00.5 --to 0:01.5   # one second of the clip",
            "throbber encode a.png b.png c.png -o - --delay 50 > abc.gif",
            "ffmpeg -i clip.mp4 -vf fps=15,scale=480:-2 -f image2pipe -c:v png - | throbber encode - -o clip.gif --fps 15",
            "ffmpeg -i clip.mp4 -vf fps=25 -f yuv4mpegpipe - | throbber encode - -o clip.png",
        ])

    static func run(_ args: Arguments) throws -> Int32 {
        try EncodeRequest(args, base: .working).run()
        return 0
    }
}
