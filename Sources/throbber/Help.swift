/// The help texts. Keep in step with man/throbber.1 and README.md.
enum Help {
    static let version = "0.1.0"

    static let root = """
    OVERVIEW: Make small, exact animated GIF and APNG loaders and animations.

    USAGE: throbber <subcommand> [options]

    SUBCOMMANDS:
      encode                  Encode frame images (PNG, Apple CgBI PNG, JPEG) or
                              animations (GIF, APNG) into a GIF or APNG.
      render                  Render a loader from a JSON config.
      preset                  Render a built-in loader, or print its config.
      presets                 List the built-in loaders.
      gallery                 Write every preset as GIF and APNG, with an
                              index.html.
      info                    Show a GIF's or APNG's frames, delays, loop,
                              palettes, disposal and SHA-256.
      check                   Re-make the entries of a regression manifest and
                              compare their SHA-256.

    OPTIONS:
      -h, --help              Show help for throbber or a subcommand.
      --version               Show the version.

      See 'throbber <subcommand> --help' for details, and man throbber(1).

    """

    static let render = """
    OVERVIEW: Render a loader described by a JSON config into an animated GIF.

    The config (format version 1, see man throbber) either draws a scene of
    layers (image, circle, arc, rect, group) with step and keyframe
    animations, or reads a frame folder. It is checked completely before
    anything is drawn; errors name the file and the JSON path.

    USAGE: throbber render <CONFIG.json> [-o <OUT.gif>] [options]

    ARGUMENTS:
      <CONFIG.json>           The animation config.

    OPTIONS:
      -o, --output <file>     Where to write (.gif, or .png/.apng for APNG); '-'
                              for standard output. (default: the config's
                              "output" list)
      --format <gif|apng>     Output format. (default: from the extension)
      --compression <effort>  APNG deflate effort: fast or best. (default: best)
      --jobs <n>              Worker threads; the output is the same for any n.
                              (default: number of cores)
      --sha256                Print the output's SHA-256 and name when done.
      -q, --quiet             No progress bar or summary.
      -h, --help              Show this help.

    EXAMPLES:
      throbber render examples/dots.json -o dots.gif

    """

    static let preset = """
    OVERVIEW: Render a built-in loader (see 'throbber presets').

    Every preset is a config in the same format as 'render' takes;
    --print-config shows it with the options applied, and rendering that JSON
    gives the same bytes.

    USAGE: throbber preset <NAME> [-o <OUT.gif>] [options]

    ARGUMENTS:
      <NAME>                  A preset name, e.g. spinner, dots, ease.

    OPTIONS:
      -o, --output <file>     Where to write; '-' for standard output.
      --size <px>             The larger side in pixels. (default: the preset's,
                              64 for most)
      --color <color>         The loader's color (#RRGGBB or a CSS name).
      --background <color>    Canvas color. (default: transparent, with edges
                              blended for a white page)
      --speed <x>             Play x times as fast. (default: 1)
      --fps <n>               Frames per second, at most 50 for GIF.
                              (default: the preset's)
      --scale <n>             Pixels per point. (default: the preset's)
      --format <gif|apng>     Output format. (default: from the extension)
      --compression <effort>  APNG deflate effort: fast or best. (default: best)
      --ring <image>          ease only: your ring image (it turns).
      --icon <image>          ease only: your icon image (it fades).
      --print-config          Print the config JSON instead of rendering.
      --jobs <n>              Worker threads. (default: number of cores)
      --sha256                Print the output's SHA-256 and name when done.
      -q, --quiet             No progress bar or summary.
      -h, --help              Show this help.

    EXAMPLES:
      throbber preset spinner -o spinner.gif --size 128 --color '#0A84FF'
      throbber preset ease --ring loading_loop@2x.png --icon loading_monkey@2x.png -o ease.gif
      throbber preset dots --print-config > dots.json

    """

    static let gallery = """
    OVERVIEW: Write every preset as GIF and APNG, and an index.html showing them.

    USAGE: throbber gallery <DIR> [--size PX]

    ARGUMENTS:
      <DIR>                   The folder to write (created if missing).

    OPTIONS:
      --size <px>             The larger side of every loader. (default: each
                              preset's own)
      --jobs <n>              Worker threads. (default: number of cores)
      -q, --quiet             No summary line.
      -h, --help              Show this help.

    """

    static let info = """
    OVERVIEW: Show what a GIF or APNG holds: format, size, loop count, total
    duration, SHA-256, and per frame its rectangle, delay, disposal, blend,
    palette size and transparent index.

    USAGE: throbber info <FILE> [--json]

    OPTIONS:
      --json                  One JSON object: format, width, height, loop (0 =
                              forever, N = plays N times), frame_count,
                              duration_ms, sha256, frames (x, y, width, height,
                              delay_ms, delay_num, delay_den, dispose, blend,
                              colors, transparent).
      -h, --help              Show this help.

    """

    static let check = """
    OVERVIEW: Pin the SHA-256 of the files Throbber makes, for your CI.

    A manifest lists entries to make — {"render": CONFIG}, {"preset": NAME},
    or {"encode": [INPUTS]}, each with "args", an "output" name and its
    "sha256" — with paths relative to the manifest. check makes every entry
    in a temporary folder (your files are not touched) and compares. On a
    mismatch it decodes the expected file (the "output" path, if it exists)
    and the new one and tells the first frame that differs.

    USAGE: throbber check <MANIFEST.json> [--update] [--diff-dir DIR]

    OPTIONS:
      --update                Record every entry's current SHA-256 and the
                              library versions that made them.
      --diff-dir <dir>        Write expected, actual and difference PNGs of the
                              first differing frame of each mismatch.
      --jobs <n>              Worker threads. (default: number of cores)
      -h, --help              Show this help.

    EXIT STATUS: 0 all match, 1 a mismatch, 65/66 a broken or missing manifest.

    """

    static let presets = """
    OVERVIEW: List the built-in loaders, one per line: name, then description.

    USAGE: throbber presets

    """

    static let encode = """
    OVERVIEW: Encode frame images into an animated GIF or APNG.

    A folder is read in natural order (frame2 before frame10); files named on
    the command line keep their order. An animated GIF or APNG among the
    inputs gives all its frames, composited as a viewer shows them, with
    their own delays. When every frame fits in 256 colors the GIF is
    lossless; otherwise libimagequant reduces each frame's colors. APNG is
    lossless truecolor unless --colors asks for a palette.

    USAGE: throbber encode <DIR|FILE>... -o <OUT.gif|OUT.png> [options]

    ARGUMENTS:
      <DIR|FILE>              A folder of frames, or frame files, in order.

    OPTIONS:
      -o, --output <file>     Where to write; '-' for standard output. The
                              format comes from the extension: .gif, or .png
                              and .apng for APNG.
      --fps <n>               Frames per second, at most 50 for GIF; a fraction
                              like 30000/1001 is exact. Frames of animated
                              inputs keep their delays unless --fps or --delay
                              is given. (default: 25)
      --delay <cs>            Show every frame this many centiseconds (2-65535
                              for GIF) instead of using --fps.
      --duplicate <n>         Show each frame n times in a row. (default: 1)
      --bounce                Play forward, then backward (ends not repeated).
      --loop <n>              0 = loop forever, n = play n times. (default: 0, or
                              the loop count of a single animated input)
      --quality <1-100>       Always quantize with libimagequant, using the
                              fewest colors that reach this quality. (default:
                              lossless when frames fit in 256 colors, else 100)
      --colors <2-256>        Most colors per palette. For APNG: write a palette
                              APNG of at most this many colors. (default: 256
                              for GIF, truecolor for APNG)
      --dither <0-1>          Floyd-Steinberg dithering strength when
                              quantizing. GIF: next to strong edges a close
                              palette color is drawn instead. (default: 1)
      --matte <color>         GIF: composite partly transparent pixels onto this
                              color (#RRGGBB or a CSS name), making them opaque;
                              only fully transparent pixels stay transparent.
                              (default: none: alpha under 50% is transparent;
                              APNG keeps partial alpha)
      --sort <natural|name>   Order of files in a folder. (default: natural)
      --glob <pattern>        Take only folder files matching this shell pattern.
                              (default: *.png, *.apng, *.jpg, *.jpeg, *.gif)
      --jobs <n>              Worker threads; the output is the same for any n.
                              (default: number of cores)
      --format <gif|apng>     Output format. (default: from the extension)
      --compression <effort>  APNG deflate effort: fast or best. (default: best)
      --sha256                Print the output's SHA-256 and name when done.
      -q, --quiet             No progress bar or summary.
      -h, --help              Show this help.

    EXAMPLES:
      throbber encode frames/ -o loader.gif --fps 10 --duplicate 2
      throbber encode loader.gif -o loader.png
      throbber encode a.png b.png c.png -o - --delay 50 > abc.gif

    """
}
