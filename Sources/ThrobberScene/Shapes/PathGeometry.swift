/// A shape as cubic Bézier curves, in points: what a `path` layer's `d`
/// and a text layer's glyph outlines become, drawn by cairo and written
/// to SVG and Lottie as they are.
///
/// Every command of SVG path data is one or more cubics here (a line is a
/// cubic with its control points on it, an arc is four cubics), so two
/// path datas with the same commands have the same structure and one can
/// be morphed into the other point by point.
public struct PathGeometry: Equatable, Sendable {
    /// A point in points.
    public struct Point: Equatable, Sendable {
        /// Rightward, in points.
        public var x: Double
        /// Downward, in points.
        public var y: Double
        /// The point (`x`, `y`).
        public init(_ x: Double, _ y: Double) { (self.x, self.y) = (x, y) }
    }

    /// One cubic from the end of the segment before (or the subpath's
    /// start) to `to`, pulled toward `c1` then `c2`.
    public struct Segment: Equatable, Sendable {
        /// The first control point, which the curve leaves toward.
        public var c1: Point
        /// The second control point, which the curve arrives from.
        public var c2: Point
        /// Where the segment ends.
        public var to: Point
        /// The cubic through control points `c1` and `c2` to `to`.
        public init(c1: Point, c2: Point, to: Point) { (self.c1, self.c2, self.to) = (c1, c2, to) }
    }

    /// A run of segments from `start`; `closed` joins its end back to
    /// `start` with a straight line (SVG's `Z`).
    public struct Subpath: Equatable, Sendable {
        /// Where the first segment begins (SVG's `M`).
        public var start: Point
        /// The segments in order, each from where the one before ends.
        public var segments: [Segment]
        /// Whether a straight line joins the last segment's end to `start`.
        public var closed: Bool
        /// A subpath from `start` through `segments`, closed or open.
        public init(start: Point, segments: [Segment] = [], closed: Bool = false) {
            (self.start, self.segments, self.closed) = (start, segments, closed)
        }
    }

    /// The subpaths in drawing order.
    public var subpaths: [Subpath]
    /// A shape of `subpaths` (none: an empty shape).
    public init(subpaths: [Subpath] = []) { self.subpaths = subpaths }

    /// Whether `other` has the same subpaths, segment counts and closings,
    /// so the two can be interpolated point by point.
    public func sameStructure(as other: PathGeometry) -> Bool {
        subpaths.count == other.subpaths.count
            && zip(subpaths, other.subpaths).allSatisfy {
                $0.segments.count == $1.segments.count && $0.closed == $1.closed
            }
    }

    /// The total number of segments.
    public var segmentCount: Int { subpaths.reduce(0) { $0 + $1.segments.count } }
}
