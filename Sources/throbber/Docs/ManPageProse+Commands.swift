/// DESCRIPTION, last part: the other subcommands.
extension ManPageProse {
    /// DESCRIPTION, last part: `render`, `preset`, `info`, `check`, `gallery` and `completions`.
    static let commands = #"""
        .Pp
        .Cm render
        draws the animation a config file describes (see
        .Sx CONFIG FORMAT )
        and encodes it through the same pipeline.
        The config is checked completely before anything is drawn; an error names
        the file, the JSON path and what was expected, for example
        .Dl ease.json: layers[0].animate[1].by: expected a number or a fraction like \(dq1/3\(dq
        .Pp
        .Cm render
        and
        .Cm preset
        take the output options of
        .Cm encode
        (size and quality, alpha, transforms and timing); given on the command
        line they override the config's values, and their errors name the option.
        .Pp
        .Cm render
        and
        .Cm preset
        also export the scene itself as vectors: an output named
        .Pa .json
        .Pq or Fl -format Cm lottie
        is a Lottie (Bodymovin) animation, one named
        .Pa .lottie
        .Pq or Fl -format Cm dotlottie
        a dotLottie 2.0 archive of it (a zip holding
        .Pa manifest.json
        and the same Lottie JSON, byte for byte, as
        .Pa a/loader.json ) ,
        one named
        .Pa .svg
        .Pq or Fl -format Cm svg
        an animated SVG (CSS keyframes, no script), all with the loop the frames
        have.
        The options that change the scene apply
        .Pq Fl -fps , -speed , -bounce , -loop , -background
        and the preset's own; those that only frames have (size and quality,
        .Fl -matte ,
        the transforms,
        .Fl -duplicate , -poster-frame , -compression )
        are refused (exit 64).
        A config that a vector file cannot say (a frames folder,
        .Li duplicate ,
        a Lottie layer in SVG, a picture over 1 MiB as PNG) exits 65 naming the
        JSON path, and nothing is written; so does a file too big to make:
        over 64 MiB, over a million keyframes (every copy's animated values,
        laid over the loop), or over the memory
        .Fl -max-memory
        allows.
        A picture or Lottie file shown many times is embedded once; a Lottie
        layer's expressions are dropped.
        .Cm encode
        writes frames only and refuses these names.
        .Pp
        .Cm preset
        renders a built-in loader;
        .Cm presets
        lists them, one per line, name first.
        Each preset is a config in the same format:
        .Fl -print-config
        prints it with the options applied, and rendering that JSON gives the
        same bytes.
        .Pp
        .Cm info
        shows what a GIF, APNG or WebP holds: format, canvas size, how pixels are
        stored (APNG color type and bit depth; WebP lossless or lossy, and alpha),
        loop count, total
        duration, SHA-256 of the file, and per frame its rectangle, delay in
        milliseconds (an APNG delay that three decimals do not hold also as its
        exact fraction, as in 16.667 ms (1/60 s)), disposal, blend, palette size
        and transparent index.
        For a video it names the kind of file (an MP4's major brand, a WebM's
        DocType) and the container as ffprobe does, and gives the display
        matrix's rotation as ffprobe reports it.
        For an SVG it gives the width, height, viewBox, title, its CSS and SMIL
        animations and their durations, and what made it (Throbber when its names
        are the hash of its text); the file is read as text, no entity is
        expanded and nothing it names is opened.
        For a Lottie file
        .Pq Pa .json , .lottie , .tgs
        it gives w, h, fr, the frames from ip to op, the loop's length, v, nm and
        what made it (meta.g, or a dotLottie manifest's generator).
        With
        .Fl -json
        it prints one object with the keys
        .Li format , width , height , pixel_type , loop
        (0 = forever, N = plays N times),
        .Li frame_count , duration_ms , sha256
        and
        .Li frames ,
        each with
        .Li frame
        (its number, 1 first),
        .Li x , y , width , height , delay_ms , delay_num , delay_den , dispose ,
        .Li blend , colors
        and
        .Li transparent
        (null where the format has none).
        These keys are stable.
        .Pp
        .Cm check
        re-makes every entry of a regression manifest in a temporary folder and
        compares each result's SHA-256 with the recorded one.
        See
        .Sx PINNING OUTPUTS .
        .Pp
        .Cm gallery
        writes every preset as GIF, APNG and WebP into
        .Ar DIR ,
        with an
        .Pa index.html
        that shows them side by side on a light page and on a dark one
        .Pq Fl -dark , No default Li #1e1e1e ;
        the dark page's GIFs are matted onto its color
        .Pq Pa NAME-dark.gif ,
        while the APNG and WebP files, which keep partial alpha, show on both.
        .Fl -size
        sets the size of all.
        .Pp
        .Cm completions
        prints a completion script for
        .Cm bash , zsh
        or
        .Cm fish
        that offers the subcommands, their options, the fixed values of options
        such as
        .Fl -format ,
        the preset names and file names.
        .Ql make install
        installs all three; to try one in a running bash:
        .Dl $ source <(throbber completions bash)
        .Pp
        The options of each subcommand are listed under
        .Sx OPTIONS .
        """#
}
