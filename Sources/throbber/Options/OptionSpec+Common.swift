/// Options that several subcommands share, worded once.
extension OptionSpec {
    static let help = OptionSpec("help", short: "h", help: "Show this help.")

    static let quiet = OptionSpec(
        "quiet", short: "q", help: "No progress bar or summary.",
        details: "The progress bar is drawn only when standard error is a terminal.")

    static let sha256 = OptionSpec(
        "sha256", help: "Print the output's SHA-256 and name when done.",
        details: "It goes to standard error when the output goes to standard output.")

    static let jobs = OptionSpec(
        "jobs", value: "n", help: "Worker threads; the output is the same for any n.",
        default: "number of cores")

    static let maxMemory = OptionSpec(
        "max-memory", value: "size",
        help: "Refuse, before decoding, a run that would need more memory than this (2G, 512M, 1.5GiB).",
        details:
            "The need is estimated from the frame sizes in the files' headers: the animations decoded whole, "
            + "plus a few frames in flight. Big frames go through one at a time so memory stays flat.",
        default: "half the machine's memory, less under ulimit -v or a cgroup limit")

    static let format = OptionSpec(
        "format", value: "gif|apng|webp", help: "Output format.",
        details: "Files named .gif are GIF, .png and .apng APNG, .webp WebP; standard output gets GIF.",
        default: "from the extension", completion: .choices(["gif", "apng", "webp"]))

    /// `--format` of `render` and `preset`, which also write vector files.
    static let sceneFormat = OptionSpec(
        "format", value: "gif|apng|webp|lottie|dotlottie|svg", help: "Output format.",
        details:
            "Files named .gif are GIF, .png and .apng APNG, .webp WebP, .json Lottie, .lottie dotLottie (a zip of "
            + "the same Lottie JSON and a manifest), .svg SVG; standard output gets GIF. Lottie, dotLottie and SVG "
            + "draw the scene itself, as vectors; the options that only frames have "
            + "(size and quality, --matte, the transforms, --duplicate, --poster-frame, --compression) are refused "
            + "for them.",
        default: "from the extension", completion: .choices(["gif", "apng", "webp", "lottie", "dotlottie", "svg"]))

    static let compression = OptionSpec(
        "compression", value: "effort",
        help:
            "How hard to work: fast, best or max. APNG and WebP: compression effort. GIF: fast quantizes at "
            + "libimagequant's quickest speed and codes each frame once. A video resized with fast is resampled "
            + "in its Y'CbCr planes, before the conversion to RGB.",
        details:
            "GIF: fast sets libimagequant's speed to 10 (best and max: 4), codes each frame once (no rewrite "
            + "trials, LZW clears where giflib does), and with --palette shared maps frames to the palette by "
            + "Floyd-Steinberg (the palette itself is chosen as with best). "
            + "Video: fast resamples the Y'CbCr planes (Lanczos-3; the chroma through swscale's bicubic step) "
            + "and converts only the output's pixels, so colors outside RGB are clipped after resizing rather "
            + "than before: a little softer at saturated edges, the same elsewhere. "
            + "APNG: fast is one filter heuristic and libdeflate level 6; best tries five filter strategies on "
            + "each way of coding a frame (blend SOURCE, OVER with unchanged pixels transparent, OVER with short "
            + "runs of them drawn again) and keeps the smallest at libdeflate level 11; max tries all eight "
            + "strategies and adds zopfli (far slower). "
            + "WebP lossless: fast is libwebp method 1; best races methods 3 and 5 (and "
            + "the exhaustive method 6 at effort 100 on small ones where a sample of the first two frames "
            + "says it pays; on long animations of larger frames, method 4 at effort 100 in place of the larger "
            + "of the two where it codes the first 4 frames at least 1 % smaller) and keeps the smallest file; "
            + "max always adds method 6. WebP lossy: method 2, 4 or 6.",
        default: "best", completion: .choices(["fast", "best", "max"]))
}

extension OptionSpec {
    /// `render` and `preset`: the scene's look and motion, as a page would ask for them.
    static let scene: [OptionSpec] = [.theme, .reducedMotion]

    static let theme = OptionSpec(
        "theme", value: "light|dark", help: "Draw with the theme's light or dark colors.",
        details:
            "Colors the config names from its \"theme\" take their dark values with --theme dark, as an SVG does "
            + "on a page under prefers-color-scheme: dark; a Lottie or SVG file made with it has only the dark "
            + "values. Soft edges of a GIF are still blended onto --matte: give it the dark page's color.",
        default: "light", completion: .choices(["light", "dark"]))

    static let reducedMotion = OptionSpec(
        "reduced-motion",
        help: "Play what the config's motion.reduced says: the loop slowed down, or one still frame.",
        details:
            "The frames an SVG of the config shows under prefers-reduced-motion: reduce. A config without "
            + "motion.reduced plays as it is; presets hold their first frame, and pulses play at a quarter "
            + "of their speed. Lottie and SVG files take it when it slows the loop; a still is a GIF, APNG or WebP.")
}
