internal import CCairo
import Glibc
import ThrobberCore

extension SceneRenderer {
    /// Fills and strokes `shape` as SVG does, its morph, trim and offset
    /// replaced by the `animated` values where animated.
    static func drawPath(_ shape: ScenePath, _ cr: OpaquePointer, fill: Color, stroke: Color, animated: Animated) {
        let geometry = shape.shape(morphAt: animated.morph)
        if shape.filled {
            cairo_new_path(cr)
            append(geometry, cr)
            cairo_set_fill_rule(cr, shape.fillRule == .evenodd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            setSourceColor(cr, fill)
            cairo_fill(cr)
        }
        guard shape.stroked, shape.stroke.width > 0 else { return }
        let s = shape.stroke
        cairo_set_line_width(cr, s.width)
        cairo_set_line_cap(
            cr, s.cap == .round ? CAIRO_LINE_CAP_ROUND : s.cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(
            cr,
            s.join == .round ? CAIRO_LINE_JOIN_ROUND : s.join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
        cairo_set_miter_limit(cr, s.miterLimit)
        setSourceColor(cr, stroke)
        var trim = shape.trim
        if let v = animated.start { trim.start = v }
        if let v = animated.end { trim.end = v }
        if let v = animated.offset { trim.offset = v }
        trim.start = min(1, max(0, trim.start))
        trim.end = min(1, max(0, trim.end))
        if trim.isWhole {
            if !s.dash.isEmpty {
                // SVG repeats an odd list to make it even.
                let dashes = inset(s.dash.count % 2 == 1 ? s.dash + s.dash : s.dash)
                cairo_set_dash(cr, dashes, Int32(dashes.count), s.dashOffset - dashNudge)
            }
            cairo_new_path(cr)
            append(geometry, cr)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
            if s.cap == .square && s.dash.isEmpty { squareDots(geometry, cr, width: s.width) }
            return
        }
        // A trim is one dash per subpath, as long as the part drawn and
        // starting where it starts, the subpath's length (and a little) one period.
        let part = abs(trim.end - trim.start)
        guard part > 0 else { return }
        let first = min(trim.start, trim.end) + trim.offset
        for (subpath, length) in zip(geometry.subpaths, geometry.subpathLengths) where length > 0 {
            let on = part * length
            let period = length * (1 + ScenePath.Trim.gap)
            // The pattern's phase at the subpath's start: the dash begins `start` along.
            let start = (first - first.rounded(.down)) * length
            let dash = inset([on, period - on])
            cairo_set_dash(cr, dash, 2, period - start - dashNudge)
            cairo_new_path(cr)
            append(PathGeometry(subpaths: [subpath]), cr)
            cairo_stroke(cr)
        }
        cairo_set_dash(cr, nil, 0, 0)
    }

    /// How much later (in points) every dash starts, and how much sooner
    /// it ends, than the pattern says: cairo draws the join of a corner a
    /// dash starts or ends on (to within its 1/256 pixel fixed point),
    /// where browsers and Lottie players end the dash there with its cap.
    /// A hundredth of a point is past that at any canvas scale and far
    /// below what a pixel shows (a dashed square's corners: 28–29 dB
    /// against Chromium without it, 62–65 with it).
    static let dashNudge = 0.01

    /// `dashes` (on, off, …) with each dash shortened by ``dashNudge`` at
    /// both ends and its gap lengthened as much, so the period stays; to
    /// be drawn with the offset moved back by ``dashNudge``. A dash of no
    /// length stays a dot.
    static func inset(_ dashes: [Double]) -> [Double] {
        var out = dashes
        for i in stride(from: 0, to: out.count - 1, by: 2) {
            let cut = min(out[i], 2 * dashNudge)
            out[i] -= cut
            out[i + 1] += cut
        }
        return out
    }

    /// The squares SVG draws for subpaths of no length with square caps,
    /// which cairo leaves out: `width` wide, square to the x axis.
    static func squareDots(_ geometry: PathGeometry, _ cr: OpaquePointer, width: Double) {
        for (subpath, length) in zip(geometry.subpaths, geometry.subpathLengths) where length == 0 {
            let p = subpath.start
            cairo_rectangle(cr, p.x - width / 2, p.y - width / 2, width, width)
        }
        cairo_fill(cr)
    }

    /// Adds `geometry`'s subpaths to cairo's current path, a straight
    /// segment as a line (cairo dashes a curve along its flattened pieces).
    static func append(_ geometry: PathGeometry, _ cr: OpaquePointer) {
        for s in geometry.subpaths {
            cairo_move_to(cr, s.start.x, s.start.y)
            var from = s.start
            for g in s.segments {
                if PathGeometry.isLine(from, g) {
                    cairo_line_to(cr, g.to.x, g.to.y)
                } else {
                    cairo_curve_to(cr, g.c1.x, g.c1.y, g.c2.x, g.c2.y, g.to.x, g.to.y)
                }
                from = g.to
            }
            if s.closed { cairo_close_path(cr) }
        }
    }
}
