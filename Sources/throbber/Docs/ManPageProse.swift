/// The hand-written sections of the man page before CONFIG FORMAT, in mdoc.
/// `ManPage` puts them together with the generated SYNOPSIS and OPTIONS.
enum ManPageProse {
    /// DESCRIPTION: what each subcommand does.
    static let description = #"""
        .Sh DESCRIPTION
        .Nm
        draws loading indicators from a JSON config or a built-in preset, and
        converts folders of frame images, into animated GIF, APNG or WebP files.
        The format comes from the output's extension
        .Pq Pa .gif , .png , .apng , .webp
        or
        .Fl -format .
        .Pp
        .Cm encode
        converts a folder or a list of frame images into an animation.
        Frames may be PNG of any kind (1 to 16 bits, gray, palette, tRNS,
        interlaced), Apple CgBI
        .Pq Dq crushed
        PNG as shipped in iOS apps, JPEG (grayscale included) and WebP.
        An animated GIF, APNG or WebP among the inputs (or in the folder) gives all its
        frames, composited as a viewer shows them (disposal, blend, partial frames,
        transparency), with their own delays and, when it is the only input, its
        loop count.
        Invalid files are refused; files that claim a huge canvas are refused before
        anything is allocated.
        .Pp
        With
        .Ql -
        as the only input,
        .Cm encode
        reads frames piped on standard input, recognised by their first bytes:
        concatenated PNG files, as
        .Ql ffmpeg -f image2pipe -c:v png -
        writes (each file one frame; no frame rate, so
        .Fl -fps
        applies as for a folder, and the output is the same bytes as for the
        same files in a folder: it labels the frames, it does not drop any, so
        resample in ffmpeg and give the same rate,
        .Ql -vf fps=15 ... | throbber encode - --fps 15 ,
        or the clip's own rate), or a YUV4MPEG2 stream, as
        .Ql ffmpeg -f yuv4mpegpipe -
        writes: 8-bit 4:2:0, 4:2:2, 4:4:4 or mono, shown at the frame rate of
        its header (exactly: 30000/1001 stays 30000/1001) unless
        .Fl -fps
        or
        .Fl -delay
        is given.
        Y'CbCr is converted with the BT.601 matrix (ffmpeg's assumption for
        untagged video; an
        .Ql XCOLORSPACE=BT709
        header extension selects BT.709) in limited range unless the header says
        .Ql XCOLORRANGE=FULL ,
        with chroma replicated as ffmpeg's default conversion does and exact
        rounding.
        The stream is kept in an unlinked temporary file in
        .Ev TMPDIR
        while it is encoded, so memory does not grow with its length and nothing
        is left behind.
        A stream that is cut short or followed by bytes that are no frame is
        refused, naming the frame; so is one of more than 10000 frames or 2 GiB.
        A pipe or FIFO named as the only input, such as the shell's
        .Ql <(ffmpeg ...) ,
        is read the same way.
        In a folder only regular files and links to them are taken: a FIFO, a
        device or a socket there is skipped unopened.
        A device named as an input is refused at once, and no input file or
        pipe is read past 1 GiB.
        .Pp
        Outputs are written to a temporary file beside the target and renamed
        over it when complete; a symbolic link is followed and its target
        replaced.
        A device or FIFO
        .Pq Pa /dev/null , /dev/stdout
        is written straight through and, without an extension, gets a GIF.
        SIGINT, SIGTERM and SIGHUP remove the temporary file and exit with
        130, 143 and 129.
        A write past
        .Ql ulimit -f
        fails with exit 74 naming the output, its temporary file removed.
        An output that is one of the inputs (links followed), or that a frames
        folder among them would pick on the next run, is refused with exit 64
        before anything is read.
        .Pp
        A Lottie animation (a
        .Pa .json
        file from Bodymovin or LottieFiles, a gzipped Telegram sticker,
        .Pa .tgs ,
        or a dotLottie archive,
        .Pa .lottie ,
        whose manifest's first animation is drawn with the images it holds)
        is recognised by its keys (fr, ip, op, w, h, layers) and drawn by rlottie,
        frame by frame, at the size asked for
        .Pq Fl -width , -height , -scale :
        no resampling.
        It must be the only input.
        Its frames ip to op keep the rate fr exactly (29.97 is 30000/1001); a GIF
        shows every k-th frame, k the smallest step that keeps the rate at most 50 fps,
        the last frame covering any leftover frames so a loop lasts as long as in the
        file.
        .Fl -fps
        resamples by time.
        Images the file names by path are read from its own folder (never from
        outside it) and embedded before rlottie reads the file; repeater copies
        and precompositions are multiplied out, and a file that would draw more
        than 400000 layers and shapes a frame (5000000 a loop), or whose rlottie
        objects would not fit
        .Fl -max-memory ,
        is refused before drawing.
        A Throbber config given to
        .Cm encode ,
        or a Lottie file in any of its forms given to
        .Cm render ,
        is refused with a message naming the right subcommand.
        .Pp
        A video (MP4, MOV, MKV, WebM, AVI and any other container and codec
        FFmpeg decodes: H.264, HEVC, VP8, VP9, AV1, ProRes, MPEG-4, FFV1 ...)
        is recognised by its content, read through libavformat and libavcodec
        (loaded only when a video is given), and must be the only input; audio
        is ignored.
        Each frame lasts until the next one starts and the last until the
        stream ends, so a variable frame rate is kept; a GIF skips a frame less
        than 20 ms after the one kept before it (60 fps shows every 2nd frame).
        .Fl -fps
        resamples by time as ffmpeg's fps filter does.
        The stream's color matrix, range and chroma siting, its display
        rotation and pixel aspect ratio are applied, and alpha (ProRes 4444,
        VP8 and VP9 WebM with alpha, read with libvpx) is kept.
        .Fl -from
        and
        .Fl -to
        cut it by time, reading from the key frame before
        .Fl -from .
        Frames are decoded as the encoder asks for them, so memory stays flat;
        a clip may give at most 10000 frames.
        A file with no video stream, an unknown codec, a file cut short or a frame
        that does not decode exits 65 naming the file and the time in the clip.
        .Pp
        A folder is read in natural order, where runs of digits compare as
        numbers
        .Pq Pa frame2.png No before Pa frame10.png ;
        files named on the command line keep the order given.
        All frames must have the same size.
        .Pp
        When every frame fits in 256 colors the GIF is lossless: one exact global
        palette when all frames together fit, exact local palettes otherwise.
        Other frames are reduced with libimagequant at quality 100; pixels whose
        source did not change keep what the viewer already shows, so unchanged
        areas stay still instead of shimmering.
        Each frame is cropped to the rectangle that changed, unchanged pixels are
        left transparent or redrawn, pixel by pixel, whichever gives the
        compressor longer runs, identical neighbouring frames are
        merged (their delays added) and the disposal of each frame is chosen so
        that the animation shows exactly the intended pixels.
        .Pp
        Frame delays come from exact cumulative times: frame
        .Va k
        starts at
        .Dl floor(100 * k / fps + 1/2) centiseconds
        so a 30 fps animation has delays 3, 4, 3, ... that add up to exactly 100
        per second and never drift.
        .Pp
        APNG output is written by Throbber's own chunk writer on libdeflate:
        lossless, in the smallest exact layout all frames fit (gray at 1, 2, 4 or
        8 bits when every pixel is gray, a palette of 1 to 8 bits with tRNS when
        all frames together have at most 256 colors, else gray+alpha, RGB or RGBA),
        with exact delays as fractions (1/30 s at 30 fps, 1/4 s for a 0.25 s step).
        Each frame after the first redraws the rectangle that changed, blending
        OVER with unchanged pixels transparent when that is smaller.
        RGB animations get a tRNS color key for that, a color no frame uses, as
        apngasm does; browsers, ffmpeg and Pillow 9.5 and later show
        such frames exactly, Pillow before 9.5 pastes the key color.
        With
        .Fl -compression Cm best
        (the default) five PNG filter strategies are tried on each way of
        coding a frame and the smallest kept;
        .Cm fast
        uses one heuristic,
        .Cm max
        tries all eight and adds zopfli.
        With
        .Fl -colors
        it is a palette APNG (PLTE and tRNS) with one libimagequant palette for all
        frames.
        .Pp
        WebP output is written by libwebp's animation encoder, which chooses each
        frame's rectangle, blend and dispose.
        It is lossless by default, every visible pixel exact (fully transparent
        pixels may change their invisible color, as with img2webp).
        With
        .Fl -quality
        the frames are lossy at that libwebp quality, alpha stays lossless, a frame
        may be coded lossless where that is smaller, and every 3rd to 5th frame is a
        key frame, so the error does not build up from frame to frame.
        Delays are whole milliseconds rounded on the exact timeline, so they add up
        exactly.
        .Fl -compression Cm best
        races libwebp's lossless methods 3 and 5 (and
        the exhaustive method 6 at effort 100 on small ones where a sample of the
        first two frames says it pays; on long animations of larger frames, method 4
        at effort 100 in place of the larger of the two where it codes the first 4
        frames at least 1 % smaller) and keeps the smallest file;
        .Cm max
        always adds method 6,
        .Cm fast
        is method 1.
        With
        .Fl -colors
        it is a palette WebP: each frame's changed rectangle gets a libimagequant
        palette of its own (at
        .Fl -quality ,
        dithered by
        .Fl -dither ) ,
        pixels that did not change stay as shown, and the frames are coded lossless
        as above, partial alpha kept: the look of a GIF at a fraction of its size.
        .Fl -lossy
        is refused for WebP, and
        .Fl -dither
        without
        .Fl -colors .
        .Pp
        Frame numbers are 1-based wherever
        .Nm
        shows or takes them: the first frame is frame 1 in
        .Fl -frames , -poster-frame ,
        .Cm info ,
        the reports of
        .Cm check
        and every message that names a frame.
        .Pp
        Frames can be picked, reordered, cropped and resized on the way:
        .Fl -frames
        takes ranges counted from 1
        .Pq Li 1-30 , 10- , -20 , 1-60:2 , 30-1 , No comma lists ,
        picked before
        .Fl -reverse , -duplicate
        and
        .Fl -bounce ;
        .Fl -crop Ar WxH+X+Y
        keeps a rectangle, then
        .Fl -width , -height
        or
        .Fl -scale
        resize it with libswscale's Lanczos-3 or Mitchell kernel (FFmpeg's
        scaler, run bit-exact) or pixman's nearest neighbour, on premultiplied
        alpha, so soft edges get no fringe.
        One side alone keeps the aspect ratio; both are met as
        .Fl -fit
        says.
        .Fl -speed
        divides every delay exactly.
        Frames are transformed one at a time, so memory does not grow with their
        number.
        .Pp
        GIF has no partial transparency: pixels with alpha of 50% or more become
        opaque, the rest transparent.
        .Pp
        The output is written to a temporary file and renamed into place, so a
        failed run leaves no file behind and never touches an existing one.
        The same inputs and options always give the same bytes, whatever the
        number of threads, the working directory or the time.
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
        .Pa .svg
        .Pq or Fl -format Cm svg
        an animated SVG (CSS keyframes, no script), both with the loop the frames
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
        JSON path, and nothing is written.
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
        duration, SHA-256 of the file, and per frame its rectangle, delay (exact
        fraction for APNG, milliseconds for WebP), disposal, blend, palette size
        and transparent index.
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

    /// PINNING OUTPUTS: manifests and `check`.
    static let pinning = #"""
        .Sh PINNING OUTPUTS
        The same inputs and options give the same bytes, so a project can pin the
        hashes of its loaders in CI.
        A manifest is a JSON object with
        .Li entries ,
        each one of
        .Bd -literal -offset indent
        {"render": "loaders/dots.json", "output": "dots.gif", "sha256": "..."}
        {"preset": "ring", "args": ["--size", "64"], "output": "ring.png"}
        {"encode": ["frames/"], "args": ["--fps", "10"], "output": "f.gif"}
        .Ed
        .Pp
        with paths relative to the manifest's folder, the ones in
        .Li args
        too (such as
        .Fl -ring ) .
        .Fl -update
        records every current hash and, under
        .Li versions ,
        the giflib, libpng, zlib, libimagequant, cairo, pixman and libswscale
        versions that made them.
        Without it,
        .Cm check
        exits 0 when every hash matches, 1 when an entry's hash differs or it
        cannot be made, and else 2 when entries have no hash recorded yet: these
        are reported
        .Li NEW ,
        so CI fails, distinguishably, until
        .Fl -update
        records them (as snapshot tests do in CI).
        For a mismatch whose expected file exists at the
        .Li output
        path, both files are decoded and the first differing frame is reported with
        the number of differing pixels, the rectangle that holds them and the
        largest channel difference;
        .Fl -diff-dir
        writes expected, actual and difference PNGs of that frame.
        A Lottie or SVG output has no frames to decode: its mismatch gives the
        hash of the expected file and the first byte that differs, and
        .Fl -diff-dir
        writes the expected and the new file side by side.
        .Fl -junit Ar FILE
        writes a JUnit XML report with a test case per entry; one that does not
        pass has a
        .Li <failure>
        of type
        .Li mismatch , cannot-be-made
        or
        .Li new
        whose message holds what the terminal says about it.
        A note says when the recorded library versions differ from the running
        ones, since hashes may then change legitimately.
        .Pp
        Every path an entry names, in
        .Li args
        too, must lead inside the manifest's folder, symbolic links followed
        (dangling ones included), unless
        .Fl -allow-outside
        is given.
        No entry may read standard input
        .Pq Li \- , Pa /dev/stdin ,
        set
        .Fl o
        in
        .Li args ,
        or share its
        .Li output
        with another entry; these are refused before any entry is made.
        .Fl -update
        writes the expected files and the manifest to temporary files and renames
        them into place together at the end, the manifest last.
        .Pp
        .Fl -sha256
        on
        .Cm encode , render
        and
        .Cm preset
        prints the output's hash and name when done.
        """#
}
