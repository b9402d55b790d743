import Glibc
import ThrobberCore

/// What a `path` layer draws, and each glyph of a `text` layer: a shape
/// filled and stroked as SVG fills and strokes it, with a trim that draws
/// a part of the stroke and a morph through key shapes.
public struct ScenePath: Sendable {
    /// How overlapping subpaths fill: SVG's `fill-rule`.
    public enum FillRule: String, Sendable {
        /// Inside where the subpaths wind round a point other than zero times.
        case nonzero
        /// Inside where a ray from a point crosses an odd number of edges: holes.
        case evenodd
    }
    /// The shape of a stroke's open ends: SVG's `stroke-linecap`.
    public enum Cap: String, Sendable, CaseIterable {
        /// Cut square at the end.
        case butt
        /// A half disc past the end.
        case round
        /// A half square past the end.
        case square
    }
    /// The shape of a stroke's corners: SVG's `stroke-linejoin`.
    public enum Join: String, Sendable, CaseIterable {
        /// The outer edges met at a point, beveled past the miter limit.
        case miter
        /// A disc at the corner.
        case round
        /// The outer corners cut straight across.
        case bevel
    }

    /// How the outline is stroked.
    public struct Stroke: Sendable, Equatable {
        /// Width in points; default 2.
        public var width = 2.0
        /// The ends of open subpaths and dashes; default butt.
        public var cap = Cap.butt
        /// The corners; default miter.
        public var join = Join.miter
        /// SVG's `stroke-miterlimit`: a miter longer than this many stroke
        /// widths is beveled; default 4.
        public var miterLimit = 4.0
        /// Lengths in points of dashes and gaps, alternating (an odd count
        /// is repeated, as SVG does); empty: a solid line.
        public var dash: [Double] = []
        /// How far into the dash pattern the stroke starts, in points.
        public var dashOffset = 0.0
    }

    /// The part of each subpath's stroke that is drawn, in fractions of
    /// its length: from `start` to `end`, both moved on by `offset`
    /// (wrapping round the subpath). Animated by `start`, `end`, `offset`.
    public struct Trim: Sendable, Equatable {
        /// Where the drawn part starts, 0…1; default 0.
        public var start = 0.0
        /// Where it ends, 0…1 (before `start`: the same part); default 1.
        public var end = 1.0
        /// How far both are moved along, wrapping round; default 0.
        public var offset = 0.0
        /// The whole stroke.
        public var isWhole: Bool { abs(end - start) >= 1 }
        /// The gap after a trim's one dash, beyond the rest of the length, in
        /// fractions of the length: the dash's next repetition then never
        /// starts on a path's end, where a round or square cap would draw a
        /// dot; a trim that wraps round is 0.1 % short of the start.
        static let gap = 0.001
    }

    /// The shape, in points about the layer's center.
    public var geometry: PathGeometry
    /// The key shapes of a `d` morph, one per key, all of `geometry`'s
    /// structure; empty when the layer does not morph. The morph's
    /// animation value v shows shape ⌊v⌋ moved (v − ⌊v⌋) of the way to the next.
    public var morph: [PathGeometry] = []
    /// How the fill treats overlaps; default nonzero.
    public var fillRule = FillRule.nonzero
    /// Whether the shape is filled (with the layer's `fill`) and stroked
    /// (with its `stroke`): a path given neither is filled.
    public var filled = true, stroked = false
    /// How the outline is stroked, when it is.
    public var stroke = Stroke()
    /// The part of the stroke drawn; default all of it.
    public var trim = Trim()
    /// The point of the path data drawn at the layer's center (what was
    /// subtracted from the data's coordinates).
    public var origin = PathGeometry.Point(0, 0)
    /// The text a glyph shape is part of, and the font file its outlines
    /// came from; nil for a `path` layer.
    public var font: String?

    /// `geometry` filled, without stroke, trim or morph.
    public init(geometry: PathGeometry) { self.geometry = geometry }

    /// How far from its origin the shape can draw, in points: its farthest
    /// point or control point in any key shape, and a stroke's half width
    /// (a miter's reach at its limit).
    var reach: Double {
        let far = ([geometry] + morph).reduce(0.0) { most, g in
            guard let b = g.controlBounds else { return most }
            return max(most, abs(b.min.x), abs(b.min.y), abs(b.max.x), abs(b.max.y)) * 2.0.squareRoot()
        }
        return far + (stroked ? stroke.width / 2 * max(1, stroke.join == .miter ? stroke.miterLimit : 1) : 0)
    }

    /// What drawing the shape costs, in the scene budget's items: one,
    /// and one more for every 16 segments of each key shape.
    var drawnItems: Int { 1 + (geometry.segmentCount * max(1, morph.count)) / 16 }

    /// The shape at morph value `v`, or `geometry` without a morph.
    public func shape(morphAt v: Double?) -> PathGeometry {
        guard let v, morph.count >= 2 else { return geometry }
        let i = min(max(Int(v.rounded(.down)), 0), morph.count - 2)
        return PathGeometry.interpolate(morph[i], morph[i + 1], min(1, max(0, v - Double(i))))
    }
}

extension PathGeometry {
    /// The shape `t` of the way from `a` to `b` (same structure), point by point.
    static func interpolate(_ a: PathGeometry, _ b: PathGeometry, _ t: Double) -> PathGeometry {
        if t <= 0 { return a }
        if t >= 1 { return b }
        func mix(_ p: Point, _ q: Point) -> Point { Point(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t) }
        var out = a
        for (i, (s, u)) in zip(a.subpaths, b.subpaths).enumerated() {
            out.subpaths[i].start = mix(s.start, u.start)
            for (j, (x, y)) in zip(s.segments, u.segments).enumerated() {
                out.subpaths[i].segments[j] = Segment(c1: mix(x.c1, y.c1), c2: mix(x.c2, y.c2), to: mix(x.to, y.to))
            }
        }
        return out
    }

    /// The shape moved by (dx, dy) and scaled by `s` about the origin first.
    func transformed(scale s: Double = 1, dx: Double = 0, dy: Double = 0) -> PathGeometry {
        func map(_ p: Point) -> Point { Point(p.x * s + dx, p.y * s + dy) }
        var out = self
        for i in out.subpaths.indices {
            out.subpaths[i].start = map(out.subpaths[i].start)
            for j in out.subpaths[i].segments.indices {
                let g = out.subpaths[i].segments[j]
                out.subpaths[i].segments[j] = Segment(c1: map(g.c1), c2: map(g.c2), to: map(g.to))
            }
        }
        return out
    }

    /// The smallest box holding every point and control point, or nil for no points.
    var controlBounds: (min: Point, max: Point)? {
        var lo = Point(.infinity, .infinity)
        var hi = Point(-.infinity, -.infinity)
        func add(_ p: Point) {
            lo = Point(Swift.min(lo.x, p.x), Swift.min(lo.y, p.y))
            hi = Point(Swift.max(hi.x, p.x), Swift.max(hi.y, p.y))
        }
        for s in subpaths {
            add(s.start)
            for g in s.segments {
                add(g.c1)
                add(g.c2)
                add(g.to)
            }
        }
        return lo.x.isFinite ? (lo, hi) : nil
    }

    /// Each subpath's length in points, its closing line included: each
    /// cubic measured by chords over 64 pieces and over 32, extrapolated
    /// (Richardson), well within 10⁻⁴ of the exact length for the curves
    /// paths and glyphs are made of.
    var subpathLengths: [Double] {
        subpaths.map { s in
            var from = s.start
            var total = 0.0
            for g in s.segments {
                let fine = PathGeometry.chordLength(from, g, pieces: 64)
                let coarse = PathGeometry.chordLength(from, g, pieces: 32)
                total += fine + (fine - coarse) / 3
                from = g.to
            }
            if s.closed { total += hypot(s.start.x - from.x, s.start.y - from.y) }
            return total
        }
    }

    private static func chordLength(_ p0: Point, _ g: Segment, pieces: Int) -> Double {
        var total = 0.0
        var last = p0
        for k in 1...pieces {
            let t = Double(k) / Double(pieces)
            let u = 1 - t
            let a = u * u * u
            let b = 3 * u * u * t
            let c = 3 * u * t * t
            let d = t * t * t
            let p = Point(
                a * p0.x + b * g.c1.x + c * g.c2.x + d * g.to.x, a * p0.y + b * g.c1.y + c * g.c2.y + d * g.to.y)
            total += hypot(p.x - last.x, p.y - last.y)
            last = p
        }
        return total
    }
}
