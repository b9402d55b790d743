extension PathData {
    /// The geometry of path data so far: its subpaths, the current point, the control points S and T
    /// reflect, and the checks every point and segment passes.
    struct Builder {
        /// A point in points.
        typealias Point = PathGeometry.Point

        /// The subpaths so far; path data starts with M, so there is one before anything is drawn.
        var subpaths: [PathGeometry.Subpath] = []
        /// Where the next segment starts.
        var current = Point(0, 0)
        /// The second control point of the segment just drawn, when it was C or S.
        var lastCubic: Point?
        /// The control point of the segment just drawn, when it was Q or T.
        var lastQuadratic: Point?
        /// The segments so far, over all subpaths.
        var segmentCount = 0
        /// The byte offset of the command being drawn, where its errors are.
        var commandAt = 0

        /// M: a new subpath at `p`.
        mutating func move(to p: Point) throws(Problem) {
            try check(p)
            try newSubpath(at: p)
            current = p
            (lastCubic, lastQuadratic) = (nil, nil)
        }

        /// Z: closes the subpath and goes back to its start.
        mutating func close() throws(Problem) {
            try startAfterClose()
            subpaths[subpaths.count - 1].closed = true
            current = subpaths[subpaths.count - 1].start
            (lastCubic, lastQuadratic) = (nil, nil)
        }

        /// L, H and V: a straight line to `to`, as a cubic with its control points a third and two thirds
        /// along it.
        mutating func line(to: Point) throws(Problem) {
            let from = current
            let c1 = Point(from.x + (to.x - from.x) / 3, from.y + (to.y - from.y) / 3)
            let c2 = Point(from.x + 2 * (to.x - from.x) / 3, from.y + 2 * (to.y - from.y) / 3)
            try append(c1, c2, to)
        }

        /// C: a cubic as given.
        mutating func cubic(_ c1: Point, _ c2: Point, _ to: Point) throws(Problem) {
            try append(c1, c2, to)
            lastCubic = c2
        }

        /// S: a cubic whose first control point is the last C or S's second reflected through the
        /// current point (the current point itself after anything else).
        mutating func smoothCubic(_ c2: Point, _ to: Point) throws(Problem) {
            let c1 = lastCubic.map { reflect($0) } ?? current
            try cubic(c1, c2, to)
        }

        /// Q: a quadratic with control point `q`, raised exactly to a cubic.
        mutating func quadratic(_ q: Point, _ to: Point) throws(Problem) {
            try check(q)
            let from = current
            let c1 = Point(from.x + 2 * (q.x - from.x) / 3, from.y + 2 * (q.y - from.y) / 3)
            let c2 = Point(to.x + 2 * (q.x - to.x) / 3, to.y + 2 * (q.y - to.y) / 3)
            try append(c1, c2, to)
            lastQuadratic = q
        }

        /// T: a quadratic whose control point is the last Q or T's reflected through the current point
        /// (the current point itself after anything else).
        mutating func smoothQuadratic(_ to: Point) throws(Problem) {
            let q = lastQuadratic.map { reflect($0) } ?? current
            try quadratic(q, to)
        }

        /// `p` reflected through the current point.
        func reflect(_ p: Point) -> Point { Point(2 * current.x - p.x, 2 * current.y - p.y) }

        /// Refuses room for `count` more segments when that makes more than `maxSegments`.
        mutating func reserve(_ count: Int) throws(Problem) {
            guard segmentCount + count <= PathData.maxSegments else {
                throw Problem(at: commandAt, message: "too many segments (more than \(PathData.maxSegments))")
            }
        }

        /// Adds one cubic from the current point to the subpath (after Z, to a new one at the same start).
        mutating func append(_ c1: Point, _ c2: Point, _ to: Point) throws(Problem) {
            try reserve(1)
            try check(c1)
            try check(c2)
            try check(to)
            try startAfterClose()
            subpaths[subpaths.count - 1].segments.append(PathGeometry.Segment(c1: c1, c2: c2, to: to))
            segmentCount += 1
            current = to
            (lastCubic, lastQuadratic) = (nil, nil)
        }

        /// After Z, anything but M starts a new subpath at the closed one's start (SVG's rule).
        mutating func startAfterClose() throws(Problem) {
            guard let last = subpaths.last, last.closed else { return }
            try newSubpath(at: last.start)
        }

        /// Adds an empty subpath at `p`, refused when that makes more than `maxSegments` subpaths.
        mutating func newSubpath(at p: Point) throws(Problem) {
            guard subpaths.count < PathData.maxSegments else {
                throw Problem(at: commandAt, message: "too many subpaths (more than \(PathData.maxSegments))")
            }
            subpaths.append(PathGeometry.Subpath(start: p))
        }

        /// Refuses `p` unless both coordinates are within `maxCoordinate` either way (so never NaN or
        /// infinite), at the command.
        func check(_ p: Point) throws(Problem) {
            let most = PathData.maxCoordinate
            guard abs(p.x) <= most, abs(p.y) <= most else {
                let message = "a coordinate is out of range (more than \(Int(most)) points either way)"
                throw Problem(at: commandAt, message: message)
            }
        }
    }
}
