/// The output options of every command that writes an animation (`encode`,
/// `render`, `preset`), worded once and grouped: size and quality, alpha,
/// transforms and timing. ``OutputOptions`` parses them, once, for all.
extension OptionSpec {
    /// `--quality`, `--colors`, `--dither`, `--lossy`, `--max-bytes`.
    static let sizeAndQuality: [OptionSpec] = [.quality, .colors, .palette, .dither, .lossy, .maxBytes, .allowReduce]
    /// `--background`, `--matte`.
    static let alpha: [OptionSpec] = [.background, .matte]
    /// Pixels and frames picked before anything else.
    static let transforms: [OptionSpec] = [
        .width, .height, .scale, .fit, .resizeFilter, .crop, .trim, .trimMargin, .frames, .reverse,
    ]
    /// When and how often frames show.
    static let timing: [OptionSpec] = [.fps, .delay, .duplicate, .bounce, .speed, .posterFrame, .loop]

    /// The four groups in help's order (timing, transforms, size and
    /// quality, alpha), without the options named in `except` and with the
    /// default texts in `defaults` (long name → text) put in.
    static func output(except: Set<String> = [], defaults: [String: String] = [:]) -> [OptionSpec] {
        (timing + transforms + sizeAndQuality + alpha).filter { !except.contains($0.long) }.map { option in
            defaults[option.long].map { option.defaulting($0) } ?? option
        }
    }

    /// This option with another default text (a config's value, a preset's).
    func defaulting(_ text: String) -> OptionSpec {
        var copy = self
        copy.defaultText = text
        return copy
    }

    static let quality = OptionSpec(
        "quality", value: "1-100",
        help:
            "Always quantize with libimagequant, using the fewest colors that reach this quality. WebP: lossy frames at this libwebp quality, or with --colors the palettes' quality.",
        details:
            "This also shrinks input that has few colors. WebP keeps alpha lossless and may code a frame lossless where that is smaller.",
        default: "lossless when frames fit in 256 colors, else 100")

    static let colors = OptionSpec(
        "colors", value: "2-256",
        help:
            "Most colors per palette. For APNG: write a palette APNG of at most this many colors. For WebP: quantize each frame's changed rectangle to at most this many colors and code it lossless.",
        details:
            "A palette APNG has one libimagequant palette for all frames. A palette WebP has one a frame, as GIF does, and keeps partial alpha; pixels that did not change stay as shown.",
        default: "256 for GIF, truecolor for APNG and WebP")

    static let palette = OptionSpec(
        "palette", value: "frame|shared",
        help:
            "GIF, when colors are reduced: frame gives each frame its own libimagequant palette (truest colors); shared gives all frames one, chosen from them all as ffmpeg's palettegen recipe does (less CPU, and smaller files where colors hold still).",
        details:
            "Frames that fit in 256 colors stay lossless either way. A shared palette is chosen from 120 frames spread over a longer animation. It suits a clip whose colors hold still (a screen recording, a product shot); a clip whose colors change (a scene cut, a sunset) keeps truer colors with frame.",
        default: "frame", completion: .choices(["frame", "shared"]))

    static let dither = OptionSpec(
        "dither", value: "0-1",
        help:
            "Floyd-Steinberg dithering strength when quantizing (WebP: with --colors). GIF and WebP: next to strong edges a close palette color is drawn instead. A 10- or 12-bit video is rounded to 8 bits unless --dither is given; then that reduction is dithered too.",
        details:
            "Within 6 pixels of a strong edge, a pixel that dithering would draw more than about 4 levels off is drawn as its nearest palette color when that one is closer: the edge masks banding there, and speckle would show. A video of more than 8 bits a sample is dithered to 8 bits with an ordered 8x8 pattern fixed in place (still areas stay still), at the size it is decoded, before --width; rounding, the default, is closer to the source pixel by pixel and makes smaller files (dithering made lossless APNGs 14-32 % larger), while dithering is closer in a slow gradient's average, where 8-bit bands would show.",
        default: "1")

    static let lossy = OptionSpec(
        "lossy", value: "0-200",
        help:
            "GIF: lossy LZW, as gifsicle --lossy. A pixel may take a palette color up to about 1.3 sqrt(lossy) levels from its own color (100: about 13, 200: about 19) where that makes an LZW string several pixels longer (gifsicle's rule).",
        details:
            "Each pixel is judged against its own source color, so the error never adds up along a run; pixels left unchanged between frames stay unchanged.",
        default: "0 (off)")

    static let maxBytes = OptionSpec(
        "max-bytes", value: "size",
        help:
            "Write the best-looking file no larger than this (500000, 256k, 2M, 128KiB), searching --quality, --lossy, --colors and --dither (WebP: lossless, then --quality, within --colors if given); pixels, frames and timing stay as asked unless --allow-reduce gives leave.",
        details:
            "k, M and G count in thousands (as upload limits do), KiB, MiB and GiB in 1024s. GIF writes each palette at lossy 0 and 200 in one pass and, where the budget lies between, more lossy levels from the same palettes (LZW only), keeping the fitting file with the highest PSNR. When even the smallest setting does not fit, nothing is written (exit 65) and the message says how small it got: then --width, --frames 1-:2 or a lower --fps help, and --allow-reduce lets the search try them itself.",
        default: "no limit")

    static let allowReduce = OptionSpec(
        "allow-reduce", value: "fps,size",
        help:
            "Give --max-bytes leave to keep fewer frames (fps), fewer pixels (size) or both, where at the frames and size asked for the best file that fits would be posterized (under 64 colors) or heavily lossy (above lossy 100; WebP under quality 30), or none fits. The summary says what was given up.",
        details:
            "Fewer frames: every 2nd, 3rd, 4th, 6th or 8th frame, each shown until the next, so the loop lasts as long. Fewer pixels: 75, 50, 37.5 or 25 % of each side, down to 16 pixels. The search starts at the reduction the bytes point to and tries up to 4 reductions, and takes the least reduced one tried whose file is neither posterized nor heavily lossy; with both, fewer frames go before fewer pixels at the same share of pixels a second.",
        default: "neither: pixels, frames and timing stay as asked")

    static let background = OptionSpec(
        "background", value: "color",
        help:
            "Fill every frame with this color (#RRGGBB or a CSS name) under its pixels; a Lottie animation or a scene is drawn on it.",
        default: "transparent")

    static let matte = OptionSpec(
        "matte", value: "color",
        help:
            "GIF: composite partly transparent pixels onto this color (#RRGGBB or a CSS name), making them opaque; only fully transparent pixels stay transparent.",
        details:
            "Colors are written #RGB, #RRGGBB, #RRGGBBAA or as a CSS name such as white; the page's color makes soft edges look right on that page (a dark page's color for a dark page, or soft edges show light halos).",
        default: "none: alpha under 50% is transparent; APNG and WebP keep partial alpha")

    static let width = OptionSpec(
        "width", value: "px", help: "Resize to this width; without --height the height keeps the aspect ratio.",
        default: "the input's")

    static let height = OptionSpec(
        "height", value: "px", help: "Resize to this height; without --width the width keeps the aspect ratio.",
        default: "the input's")

    static let scale = OptionSpec(
        "scale", value: "factor", help: "Resize by this factor: 0.5 turns @2x frames into @1x.", default: "1")

    static let fit = OptionSpec(
        "fit", value: "mode",
        help:
            "With both --width and --height: contain fits inside and pads with transparency, cover fills and cuts the overhang, stretch distorts.",
        default: "contain", completion: .choices(["contain", "cover", "stretch"]))

    static let resizeFilter = OptionSpec(
        "resize-filter", value: "name",
        help: "Resampling: lanczos is sharpest, mitchell softer, nearest keeps hard pixels (pixel art).",
        details: "Filters work on premultiplied alpha, so soft edges get no dark or light fringe.",
        default: "lanczos", completion: .choices(["lanczos", "mitchell", "nearest"]))

    static let crop = OptionSpec(
        "crop", value: "WxH+X+Y", help: "Keep only this rectangle of every frame, before resizing.", default: "none")

    static let frames = OptionSpec(
        "frames", value: "list",
        help:
            "Use only these frames, in this order: 1-30, 10-, -20, 1-60:2 (every second), 30-1 (backward), or a comma list.",
        details:
            "Numbers count from 1 in input order: frames of GIF, APNG and WebP inputs as shown, a scene's frames as drawn in one cycle. Picked before --reverse, --duplicate and --bounce.",
        default: "all")

    static let reverse = OptionSpec(
        "reverse", help: "Play the frames last to first (after --frames, before --duplicate and --bounce).")

    static let fps = OptionSpec(
        "fps", value: "n",
        help:
            "Frames per second, at most 50 for GIF; a fraction like 30000/1001 is exact. Videos, Lottie files, animated GIF, APNG and WebP inputs, YUV4MPEG2 streams and a config's frames.delays keep their own timing unless --fps is given.",
        details:
            "A video or a Lottie file is resampled by time to this rate (a GIF shows at most 50 fps, so without --fps a 60 fps one keeps every second frame); a scene is drawn at it. Browsers slow GIF delays under 2 centiseconds to 10.",
        default: "the input's own rate; 25 for still images, folders and PNG streams")

    static let delay = OptionSpec(
        "delay", value: "cs",
        help: "Show every frame this many centiseconds (2-65535 for GIF) instead of using --fps.")

    static let duplicate = OptionSpec("duplicate", value: "n", help: "Show each frame n times in a row.", default: "1")

    static let bounce = OptionSpec("bounce", help: "Play forward, then backward (ends not repeated).")

    static let speed = OptionSpec(
        "speed", value: "x", help: "Play x times as fast: every delay divided by x, exactly (0.5 is half speed).",
        default: "1")

    static let posterFrame = OptionSpec(
        "poster-frame", value: "n",
        help:
            "Start the loop at its n-th frame, for viewers that show only the first frame (Outlook, reduced motion, previews).",
        details:
            "The loop is rotated, not changed: the same frames in the same order with the same delays. n counts frames as the loop plays, from 1, after --frames, --reverse, --duplicate and --bounce.",
        default: "1")

    static let loop = OptionSpec(
        "loop", value: "n", help: "0 = loop forever, n = play n times.",
        default: "0, or the loop count of a single animated input")
}
