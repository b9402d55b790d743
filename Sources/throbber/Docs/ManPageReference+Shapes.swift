extension ManPageReference {
    /// CONFIG FORMAT's entries for the layers drawn from path data and text:
    /// `path` and `text`, each ending in a comma (the list goes on).
    static let configShapes = #"""
        .Li path
        .Li ( d :
        SVG path data in points, M L H V C S Q T A Z absolute and relative,
        an error in it naming the character it is at;
        .Li origin :
        the point of the data drawn at the layer's center, default the center
        of its box;
        .Li fillRule
        nonzero or evenodd;
        .Li width , cap
        butt, round or square,
        .Li join
        miter, round or bevel,
        .Li miterLimit , dash , dashOffset ;
        .Li trim
        .Pq Li start , end , offset :
        the part of each subpath's stroke drawn, in fractions of its length;
        filled with
        .Li fill
        when given or when no
        .Li stroke
        is),
        .Li text
        .Li ( string ;
        .Li font :
        a font file inside the config's folder or an installed fonts' folder,
        or
        .Li family :
        found by fontconfig (default sans-serif; a family it lacks is an
        error, never a fallback), with
        .Li weight ;
        .Li size
        in points (default 16),
        .Li align
        left, center or right,
        .Li letterSpacing ,
        and
        .Li per
        glyph with a
        .Li delay :
        each glyph a layer, the layer's animations applied to each about its
        own center, each one
        .Li delay
        seconds after the one before; shaped by HarfBuzz with kerning and
        ligatures and drawn as glyph outlines, so SVG and Lottie files need no
        font; filled with
        .Li fill ) ,
        """#
}
