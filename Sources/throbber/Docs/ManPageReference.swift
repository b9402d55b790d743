/// The hand-written reference sections of the man page, in mdoc: the config
/// format before OPTIONS, exit status, examples and see also after it.
enum ManPageReference {
    /// CONFIG FORMAT: the JSON that `render` reads.
    static let configFormat = #"""
        .Sh CONFIG FORMAT
        A config is one JSON object (version 1); unknown keys are errors.
        Relative paths are relative to the config file.
        Numbers that must be exact may be written as fraction strings such as
        .Qq 1/3 .
        .Bl -tag -width Ds
        .It Li version
        Always 1.
        .It Li canvas
        .Li width , height
        in points (required for layers),
        .Li scale
        pixels per point (default 1, like iOS @2x),
        .Li background
        color (default
        .Li transparent ) .
        .It Li timing
        .Li fps
        (default 25, at most 50 for GIF),
        .Li step
        seconds per step of a step animation (default 0.25),
        .Li duration
        seconds per cycle (default: the least common multiple of all animation
        periods),
        .Li start
        seconds into the cycle of the frame shown first (default 0; the frame
        nearest that time): the loop is rotated, not changed, so viewers that
        show only the first frame show a visible loader,
        .Li speed
        how many times as fast to play (default 1, above 0, at most 100, at most
        3 decimals): every period, key time, delay, step, duration and start is
        divided by it exactly, while
        .Li fps
        still counts frames per second played; it multiplies with
        .Fl -speed .
        .It Li loop , bounce , duplicate
        As the
        .Cm encode
        options;
        .Li duplicate
        may be an array with a count per frame.
        .It Li layers
        Drawn first = bottom.
        Each layer has one kind key:
        .Li image
        (a PNG, CgBI PNG or JPEG path; a name ending in @2x or @3x has that many
        pixels per point),
        .Li circle
        .Pq Li radius ,
        .Li arc
        .Pq Li radius , start , end , width , cap ;
        0\(de at 12 o'clock, clockwise, stroked with
        .Li stroke ) ,
        .Li rect
        .Pq Li width , height , corner ,
        filled with
        .Li fill ) ,
        \#(ManPageReference.configShapes)
        .Li group
        (an array of layers), or
        .Li lottie
        (a Lottie .json, .tgs or .lottie path; also written
        .Li {"type": "lottie", "src": path} ) .
        A Lottie layer is drawn by rlottie at the file's w x h in points
        (times the canvas scale and the layer's
        .Li scale ,
        as vectors, not resampled) and plays on the scene's clock:
        at time t it shows the file's frame
        floor(((t - d) mod n/fr) * fr), n/fr its loop and d the
        .Li repeat
        delay of its copy; that loop counts among the periods of the
        cycle.
        Common keys:
        .Li center
        [x, y] (default: the canvas center),
        .Li opacity , rotate
        (degrees, clockwise),
        .Li scale , fill , stroke , animate
        and
        .Li repeat
        .Pq Li count , offset , around , turn , delay :
        copies moved by offset or placed around a circle, their animations
        starting
        .Li delay
        seconds apart.
        .It Li animate
        An array of animations of
        .Li rotate , rotateY , scale , scaleX , scaleY , opacity , translateX ,
        .Li translateY ,
        for arcs
        .Li start , end
        (degrees), and for paths
        .Li start , end , offset
        (fractions of the length: a stroke that draws itself) and
        .Li d :
        keyframes whose values are path data with the layer's commands, morphed
        point by point.
        A
        .Li step
        animation moves
        .Li from
        by
        .Li by
        every step, eased within the step, ping-ponging between the two
        .Li bounce
        bounds if given.
        A
        .Li keyframes
        animation has a
        .Li period ,
        an optional
        .Li delay
        and
        .Li keys
        of
        .Li at
        (seconds),
        .Li value
        and
        .Li ease
        for the segment that starts there.
        Animated values compose with the layer's own: angles and translations add,
        scales and opacity multiply.
        Easings:
        .Li linear , ease , ease-in , ease-out , ease-in-out ,
        .Li cubic-bezier(x1, y1, x2, y2) , steps(n) .
        .It Li frames
        Instead of layers:
        .Li dir , glob , sort
        and
        .Li delays
        (centiseconds per frame).
        .It Li encode
        .Li quality , dither , colors , matte , lossy
        as the
        .Cm encode
        options.
        \#(ManPageReference.configLook)
        .It Li output
        A list of
        .Li {\(dqpath\(dq: \(dqx.gif\(dq} ,
        each written in the format its extension names
        .Pq Pa .json No for Lottie , Pa .lottie No for dotLottie , Pa .svg No for SVG
        or its
        .Li format
        .Pq Li gif , apng , webp , lottie , dotlottie No or Li svg ;
        .Fl o
        overrides it.
        .El
        .Pp
        Time is exact: a cycle of
        .Va duration
        seconds is cut into N = round(duration \(mu fps) frames, frame
        .Va k
        shows the scene at k \(mu duration / N, so the loop is seamless, and
        delays come from the exact start times.
        All animations are periodic and show their steady state.
        A cycle over 1000 frames or a canvas over 4096 pixels is refused.
        Every number has a range, checked when the config is read (a number
        outside it, 1e308 say, is refused as out of range, with the range):
        sizes 0 to 100000 points, positions and moves \(+-100000 points,
        angles \(+-1000000 degrees, scales and opacity values \(+-10000,
        times \(+-1000000 seconds (periods, durations and steps above 0),
        .Li cubic-bezier
        y1 and y2 \(+-100, and
        .Li steps(n)
        1 to 1000.
        The schema
        .Pa schema/throbber.schema.json
        lets editors check and complete configs.
        """#

    /// EXIT STATUS.
    static let exitStatus = #"""
        .Sh EXIT STATUS
        .Bl -tag -width Ds -compact
        .It 0
        Success.
        .It 1
        .Cm check :
        a hash did not match, or an entry could not be made.
        .It 2
        .Cm check :
        entries have no hash recorded yet
        .Pq Li NEW ;
        nothing failed.
        .It 64
        Bad command line (unknown option, value out of range).
        .It 65
        Bad input data: a corrupt or truncated image, frames of different sizes,
        an invalid config.
        .It 66
        An input file or folder is missing, or a folder has no frames.
        .It 70
        Internal error.
        .It 73
        The output cannot be created (missing folder, permissions).
        .It 74
        Reading or writing failed.
        .El
        .Pp
        Errors are printed as
        .Dl throbber: error: <file>: <reason>
        """#

    /// EXAMPLES and SEE ALSO.
    static let examplesAndSeeAlso = #"""
        .Sh EXAMPLES
        Pin loaders in CI:
        .Dl $ throbber check loaders.json --update
        .Dl $ throbber check loaders.json
        .Pp
        Convert a GIF to APNG, keeping its delays and loop count:
        .Dl $ throbber encode loader.gif -o loader.png
        .Pp
        A lossy animated WebP sticker from a GIF, no larger than 256 kB:
        .Dl $ throbber encode sticker.gif -o sticker.webp --max-bytes 256k
        .Pp
        Render a built-in loader at 128 pixels in a chosen color:
        .Dl $ throbber preset spinner -o spinner.gif --size 128 --color '#0A84FF'
        .Pp
        Start a config from a preset, edit it, render it:
        .Dl $ throbber preset dots --print-config > dots.json
        .Dl $ throbber render dots.json -o dots.gif
        .Pp
        The EaseLoadingView from your own two images:
        .Dl $ throbber preset ease --ring loading_loop@2x.png --icon loading_monkey@2x.png -o ease.gif
        .Pp
        Encode the MJRefresh pull-to-refresh frames, each shown twice at 10 fps:
        .Dl $ throbber encode dropdown_anim/ -o dropdown.gif --fps 10 --duplicate 2
        .Pp
        Three files in the given order, half a second each, to standard output:
        .Dl $ throbber encode a.png b.png c.png -o - --delay 50 > abc.gif
        .Pp
        A smaller file from photographic frames:
        .Dl $ throbber encode frames/ -o clip.gif --quality 60
        .Pp
        Complete throbber's subcommands, options and preset names in bash, for your
        user:
        .Dl $ throbber completions bash > ~/.local/share/bash-completion/completions/throbber
        .Ss Make it smaller
        @2x assets shown at @1x:
        .Dl $ throbber encode icons@2x/ -o loader.gif --scale 0.5
        .Pp
        A 1280x720 screen capture at 480 pixels wide (480x270):
        .Dl $ throbber encode capture/ -o demo.gif --width 480
        .Pp
        And every second frame only, at half the rate, so the speed is kept:
        .Dl $ throbber encode capture/ -o demo.gif --width 480 --frames 1-:2 --fps 12.5
        .Pp
        A square thumbnail that fills the square, the overhang cut off:
        .Dl $ throbber encode render/ -o thumb.gif --width 64 --height 64 --fit cover
        .Pp
        Pixel art four times as large, with hard pixels:
        .Dl $ throbber encode sprite/ -o big.gif --scale 4 --resize-filter nearest
        .Sh SEE ALSO
        The GIF89a, APNG and WebP container specifications; giflib, libpng,
        libjpeg-turbo, zlib, libdeflate, zopfli, libwebp, rlottie,
        cairo, libimagequant, libswscale and pixman,
        the libraries
        .Nm
        is built on.
        """#
}
