internal import CHarfBuzz

extension TextOutliner {
    /// Draws glyph outlines through HarfBuzz's draw callbacks (`hb_font_get_glyph_shape`), in font units with
    /// y up, every piece as a cubic: a quadratic is raised to the cubic tracing the same curve, a line is a
    /// cubic with its control points at a third and two thirds of it. Keeps each glyph it drew, so a glyph
    /// used again is not drawn again. Used by one thread at a time.
    final class GlyphDrawer {
        /// The HarfBuzz font drawn from.
        let font: OpaquePointer
        /// The callbacks, shared by every glyph drawn.
        let funcs: OpaquePointer
        /// The outlines drawn so far, by glyph id.
        var drawn: [UInt32: PathGeometry] = [:]

        /// A drawer for `font`, whose scale must be its units per em.
        init(font: OpaquePointer) {
            self.font = font
            funcs = hb_draw_funcs_create()
            hb_draw_funcs_set_move_to_func(
                funcs, { _, data, _, x, y, _ in Pen.of(data)?.move(to: .init(Double(x), Double(y))) }, nil, nil)
            hb_draw_funcs_set_line_to_func(
                funcs, { _, data, _, x, y, _ in Pen.of(data)?.line(to: .init(Double(x), Double(y))) }, nil, nil)
            hb_draw_funcs_set_quadratic_to_func(
                funcs,
                { _, data, _, cx, cy, x, y, _ in
                    Pen.of(data)?.quadratic(control: .init(Double(cx), Double(cy)), to: .init(Double(x), Double(y)))
                }, nil, nil)
            hb_draw_funcs_set_cubic_to_func(
                funcs,
                { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
                    Pen.of(data)?.cubic(
                        .init(Double(c1x), Double(c1y)), .init(Double(c2x), Double(c2y)), .init(Double(x), Double(y)))
                }, nil, nil)
            hb_draw_funcs_set_close_path_func(funcs, { _, data, _, _ in Pen.of(data)?.close() }, nil, nil)
            hb_draw_funcs_make_immutable(funcs)
        }

        deinit { hb_draw_funcs_destroy(funcs) }

        /// The outline of glyph `id` in font units, y up.
        func outline(_ id: UInt32) -> PathGeometry {
            if let known = drawn[id] { return known }
            let pen = Pen()
            withExtendedLifetime(pen) {
                hb_font_get_glyph_shape(font, id, funcs, Unmanaged.passUnretained(pen).toOpaque())
            }
            let geometry = pen.finish()
            drawn[id] = geometry
            return geometry
        }
    }

    /// Collects one glyph's drawing commands into subpaths.
    final class Pen {
        /// A point in font units.
        typealias Point = PathGeometry.Point
        /// The finished subpaths.
        var subpaths: [PathGeometry.Subpath] = []
        /// The subpath being drawn.
        var open: PathGeometry.Subpath?
        /// Where the last command ended.
        var current = Point(0, 0)

        /// The pen HarfBuzz's `draw_data` points to.
        static func of(_ data: UnsafeMutableRawPointer?) -> Pen? {
            data.map { Unmanaged<Pen>.fromOpaque($0).takeUnretainedValue() }
        }

        /// Starts a subpath at `point`, ending any open one.
        func move(to point: Point) {
            end()
            open = PathGeometry.Subpath(start: point)
            current = point
        }

        /// A straight line to `point`, as a cubic with control points at one and two thirds.
        func line(to point: Point) {
            let start = current
            cubic(
                Point(start.x + (point.x - start.x) / 3, start.y + (point.y - start.y) / 3),
                Point(start.x + 2 * (point.x - start.x) / 3, start.y + 2 * (point.y - start.y) / 3), point)
        }

        /// A quadratic through `control` to `point`, raised exactly to a cubic: its control points are two
        /// thirds of the way from each end to the quadratic's control point.
        func quadratic(control: Point, to point: Point) {
            let start = current
            cubic(
                Point(start.x + 2 * (control.x - start.x) / 3, start.y + 2 * (control.y - start.y) / 3),
                Point(point.x + 2 * (control.x - point.x) / 3, point.y + 2 * (control.y - point.y) / 3), point)
        }

        /// A cubic to `point` pulled toward `c1` then `c2`.
        func cubic(_ c1: Point, _ c2: Point, _ point: Point) {
            if open == nil { open = PathGeometry.Subpath(start: current) }
            open?.segments.append(.init(c1: c1, c2: c2, to: point))
            current = point
        }

        /// Closes the open subpath (HarfBuzz has already drawn the line back to its start when needed).
        func close() {
            open?.closed = true
            if let start = open?.start { current = start }
            end()
        }

        /// Keeps the open subpath if it draws anything.
        func end() {
            if let subpath = open, !subpath.segments.isEmpty { subpaths.append(subpath) }
            open = nil
        }

        /// The outline drawn so far, ending any open subpath.
        func finish() -> PathGeometry {
            end()
            return PathGeometry(subpaths: subpaths)
        }
    }
}
