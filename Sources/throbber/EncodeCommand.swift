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
                completion: .files),
            OptionSpec(
                "fps", value: "n",
                help:
                    "Frames per second, at most 50 for GIF; a fraction like 30000/1001 is exact. Animated inputs and YUV4MPEG2 streams keep their own timing unless --fps or --delay is given.",
                details: "Browsers slow GIF delays under 2 centiseconds to 10.",
                default: "25"),
            OptionSpec(
                "delay", value: "cs",
                help: "Show every frame this many centiseconds (2-65535 for GIF) instead of using --fps."),
            OptionSpec("duplicate", value: "n", help: "Show each frame n times in a row.", default: "1"),
            OptionSpec("bounce", help: "Play forward, then backward (ends not repeated)."),
            .speed,
            OptionSpec(
                "frames", value: "list",
                help:
                    "Use only these input frames, in this order: 1-30, 10-, -20, 1-60:2 (every second), 30-1 (backward), or a comma list.",
                details:
                    "Numbers count from 1 in input order; frames of GIF, APNG and WebP inputs count as shown. Picked before --reverse, --duplicate and --bounce.",
                default: "all"),
            .reverse, .posterFrame,
            OptionSpec(
                "width", value: "px",
                help: "Resize to this width; without --height the height keeps the aspect ratio.",
                default: "the input's"),
            OptionSpec(
                "height", value: "px",
                help: "Resize to this height; without --width the width keeps the aspect ratio.",
                default: "the input's"),
            OptionSpec(
                "scale", value: "factor", help: "Resize by this factor: 0.5 turns @2x frames into @1x.",
                default: "1"),
            OptionSpec(
                "fit", value: "mode",
                help:
                    "With both --width and --height: contain fits inside and pads with transparency, cover fills and cuts the overhang, stretch distorts.",
                default: "contain", completion: .choices(["contain", "cover", "stretch"])),
            OptionSpec(
                "resize-filter", value: "name",
                help: "Resampling: lanczos is sharpest, mitchell softer, nearest keeps hard pixels (pixel art).",
                details: "Filters work on premultiplied alpha, so soft edges get no dark or light fringe.",
                default: "lanczos", completion: .choices(["lanczos", "mitchell", "nearest"])),
            OptionSpec(
                "crop", value: "WxH+X+Y", help: "Keep only this rectangle of every frame, before resizing.",
                default: "none"),
            OptionSpec(
                "loop", value: "n", help: "0 = loop forever, n = play n times.",
                default: "0, or the loop count of a single animated input"),
            OptionSpec(
                "quality", value: "1-100",
                help:
                    "Always quantize with libimagequant, using the fewest colors that reach this quality. WebP: lossy frames at this libwebp quality, or with --colors the palettes' quality.",
                details:
                    "This also shrinks input that has few colors. WebP keeps alpha lossless and may code a frame lossless where that is smaller.",
                default: "lossless when frames fit in 256 colors, else 100"),
            OptionSpec(
                "colors", value: "2-256",
                help:
                    "Most colors per palette. For APNG: write a palette APNG of at most this many colors. For WebP: quantize each frame's changed rectangle to at most this many colors and code it lossless.",
                details:
                    "A palette APNG has one libimagequant palette for all frames. A palette WebP has one a frame, as GIF does, and keeps partial alpha; pixels that did not change stay as shown.",
                default: "256 for GIF, truecolor for APNG and WebP"),
            OptionSpec(
                "dither", value: "0-1",
                help:
                    "Floyd-Steinberg dithering strength when quantizing (WebP: with --colors). GIF and WebP: next to strong edges a close palette color is drawn instead.",
                details:
                    "Within 6 pixels of a strong edge, a pixel that dithering would draw more than about 4 levels off is drawn as its nearest palette color when that one is closer: the edge masks banding there, and speckle would show.",
                default: "1"),
            OptionSpec(
                "lossy", value: "0-200",
                help:
                    "GIF: lossy LZW, as gifsicle --lossy. A pixel may take a palette color up to about 1.3 sqrt(lossy) levels from its own color (100: about 13, 200: about 19) where that makes an LZW string several pixels longer (gifsicle's rule).",
                details:
                    "Each pixel is judged against its own source color, so the error never adds up along a run; pixels left unchanged between frames stay unchanged.",
                default: "0 (off)"),
            OptionSpec(
                "max-bytes", value: "size",
                help:
                    "Write the best-looking file no larger than this (500000, 256k, 2M, 128KiB), searching --quality, --lossy, --colors and --dither (WebP: lossless, then --quality, within --colors if given); pixels, frames and timing stay as asked.",
                details:
                    "k, M and G count in thousands (as upload limits do), KiB, MiB and GiB in 1024s. GIF writes each palette at lossy 0 and 200 in one pass and, where the budget lies between, more lossy levels from the same palettes (LZW only), keeping the fitting file with the highest PSNR. When even the smallest setting does not fit, nothing is written (exit 65) and the message says how small it got: then --width, --frames 1-:2 or a lower --fps help.",
                default: "no limit"),
            OptionSpec(
                "background", value: "color",
                help:
                    "Fill every frame with this color (#RRGGBB or a CSS name) under its pixels; a Lottie animation is drawn on it.",
                default: "transparent"),
            OptionSpec(
                "matte", value: "color",
                help:
                    "GIF: composite partly transparent pixels onto this color (#RRGGBB or a CSS name), making them opaque; only fully transparent pixels stay transparent.",
                details:
                    "Colors are written #RGB, #RRGGBB, #RRGGBBAA or as a CSS name such as white; the page's color makes soft edges look right on that page.",
                default: "none: alpha under 50% is transparent; APNG and WebP keep partial alpha"),
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
