/// DESCRIPTION, first part: `encode` and its inputs.
extension ManPageProse {
    /// The start of DESCRIPTION: `encode` and what it reads (frames, Lottie, video, folders).
    static let encodeInputs = #"""
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
        A video (a single MP4/MOV, Matroska/WebM, MPEG-TS/PS, AVI, FLV, Ogg,
        MXF, ASF, DV, NUT, IVF or Y4M file holding any codec FFmpeg decodes:
        H.264, HEVC, VP8, VP9, AV1, ProRes, MPEG-4, FFV1 ...) is recognised by
        its content, read through libavformat and libavcodec (loaded only when
        a video is given), and must be the only input; audio is ignored.
        FFmpeg reads that one file and nothing else: a name is never read as a
        URL or protocol, and a playlist, manifest, concat list or SDP file is
        refused (exit 65) by what it is, whatever its name.
        Each frame lasts until the next one starts and the last until the
        stream ends, so a variable frame rate is kept; a GIF skips a frame less
        than 20 ms after the one kept before it (60 fps shows every 2nd frame).
        .Fl -fps
        resamples by time as ffmpeg's fps filter does.
        The stream's color matrix, range and chroma siting (for every layout:
        4:2:0, 4:2:2, 4:4:4, 4:1:1, 4:4:0), its display
        rotation and pixel aspect ratio are applied, and alpha (ProRes 4444,
        VP8 and VP9 WebM with alpha, read with libvpx) is kept.
        A 10- or 12-bit video is rounded to 8 bits a channel, or dithered with
        an ordered pattern fixed in place when
        .Fl -dither
        is given.
        .Fl -from
        and
        .Fl -to
        cut it by time, reading from the key frame before
        .Fl -from .
        With
        .Fl -compression Cm fast ,
        a resized video is resampled in its Y'CbCr planes and only the output's
        pixels are converted, which takes much less time; colors outside RGB
        are then clipped after resizing rather than before, a little softer at
        saturated edges.
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
        """#
}
