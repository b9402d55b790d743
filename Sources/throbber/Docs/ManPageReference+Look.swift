extension ManPageReference {
    /// CONFIG FORMAT's entries for how a loader looks on a page: `theme`,
    /// `title`, `motion`.
    static let configLook = #"""
        .It Li theme
        Named colors:
        .Li {"accent": "#0A84FF", "track": {"light": "#0A84FF33", "dark": "#64D2FF33"}} .
        A name (lowercase letters, digits and -, not a color's name) is a color
        or an object of
        .Li light ,
        an optional
        .Li dark
        and
        .Li current
        (true: an SVG uses the page's text color, currentColor, for it; one
        name at most).
        .Li fill , stroke
        and
        .Li canvas.background
        may give a name instead of a color.
        Frames are drawn with the light values, or the dark ones with
        .Fl -theme Cm dark .
        An SVG writes each name as the custom property
        .Li --throbber- Ns Ar name ,
        which a page may set, falling back to the value, and switches to the
        dark values under
        .Li prefers-color-scheme: dark ;
        a Lottie file names each as a slot, the light value in place.
        .It Li title
        The loader's accessible name, the SVG's
        .Li <title>
        (default
        .Qq Loading ;
        one line, at most 200 characters).
        .It Li motion
        .Li {"reduced": {"speed": f}}
        plays the loop f times as fast (below 1, at most 3 decimals) where less
        motion is asked for;
        .Li {"reduced": {"hold": t}}
        shows the one frame shown t seconds into the loop.
        An SVG does so under
        .Li prefers-reduced-motion: reduce ;
        frames do with
        .Fl -reduced-motion .
        """#
}
