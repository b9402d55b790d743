/// The hand-written sections of the man page before CONFIG FORMAT, in mdoc.
/// `ManPage` puts them together with the generated SYNOPSIS and OPTIONS.
/// DESCRIPTION is long, so its parts are in files of their own:
/// `ManPageProse+Encode.swift`, `+Formats` and `+Commands`.
enum ManPageProse {
    /// DESCRIPTION: what each subcommand does.
    static let description = [encodeInputs, formats, commands].joined(separator: "\n")

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
        the versions that made them: Throbber's own
        .Pq Li throbber ,
        those of the libraries that decide the bytes (giflib, libpng, zlib,
        libdeflate, zopfli, libimagequant, cairo, pixman, libswscale, rlottie,
        libwebp, HarfBuzz, fontconfig) and FFmpeg's libavformat, libavcodec and
        libavutil, recorded as
        .Li absent
        when FFmpeg cannot be loaded.
        Each entry is reported
        .Li updated
        (with its new hash),
        .Li unchanged
        or
        .Li new .
        Given
        .Ar ENTRY
        names after the manifest,
        .Fl -update
        records only those entries, and their expected files, and checks the
        others as without it, so one intended change can be accepted while an
        unintended one still fails:
        .Dl $ throbber check loaders.json --update dots.gif
        An
        .Ar ENTRY
        is an entry's
        .Li output
        as the manifest writes it, else the path of that file from the current
        folder, else its file name alone when only one output has that name.
        A name that matches no entry, or a file name several outputs share, is
        refused (exit 64) before anything is made; the message lists the
        outputs.
        With or without
        .Ar ENTRY
        names,
        .Fl -update
        records the running versions.
        .Pp
        Without
        .Fl -update ,
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
        A Lottie, dotLottie or SVG output has no frames to decode: its mismatch
        gives the hash of the expected file and the first byte that differs, and
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
        A note names every recorded version, Throbber's and FFmpeg's included,
        that differs from the running one (an entry checked against its
        recorded hash may then change legitimately); a manifest written before
        a version was recorded is read as it is.
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
