/// DESCRIPTION, second part: the output formats and frame transforms.
extension ManPageProse {
    /// DESCRIPTION, second part: how each output format is written, and frame picking, cropping and resizing.
    static let formats = #"""
        When every frame fits in 256 colors the GIF is lossless: one exact global
        palette when all frames together fit, exact local palettes otherwise.
        Other frames are reduced with libimagequant at quality 100, each to a
        palette of its own, or with
        .Fl -palette Cm shared
        all to one; pixels whose source did not change keep what the viewer
        already shows, so unchanged areas stay still instead of shimmering.
        With
        .Fl -compression Cm fast
        libimagequant runs at its quickest speed, each frame is coded once,
        and one shared palette is applied by plain Floyd-Steinberg dithering:
        about half the time, for files a few percent larger and a dB or two
        less.
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
        """#
}
