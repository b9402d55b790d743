import Testing

@testable import ThrobberScene

/// SVG path data read into cubics: every command absolute and relative, the number syntax and arcs.
/// Expected values are worked out by hand in the comments. Refusals are in PathDataRefusalTests.
@Suite("path data")
struct PathDataTests {
    typealias Point = PathGeometry.Point
    typealias Segment = PathGeometry.Segment

    /// The geometry of `d`.
    static func parse(_ d: String) throws -> PathGeometry { try PathData.parse(d) }

    /// Why `d` is refused, nil when it is not.
    static func failure(_ d: String) -> PathData.Failure? {
        do throws(PathData.Failure) {
            _ = try PathData.parse(d)
            return nil
        } catch {
            return error
        }
    }

    /// The only subpath's segments of `d`.
    static func segments(_ d: String) throws -> [Segment] {
        let g = try parse(d)
        try #require(g.subpaths.count == 1)
        return g.subpaths[0].segments
    }

    /// The straight line from `a` to `b` as a cubic: control points a third and two thirds along.
    static func line(_ a: Point, _ b: Point) -> Segment {
        Segment(
            c1: Point(a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3),
            c2: Point(a.x + 2 * (b.x - a.x) / 3, a.y + 2 * (b.y - a.y) / 3), to: b)
    }

    /// Whether `a` and `b` are within `tolerance` in both coordinates.
    static func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    /// The point at t = 1/2 of the cubic from `from` along `s`.
    static func middle(_ from: Point, _ s: Segment) -> Point {
        Point((from.x + 3 * s.c1.x + 3 * s.c2.x + s.to.x) / 8, (from.y + 3 * s.c1.y + 3 * s.c2.y + s.to.y) / 8)
    }

    /// Each cubic's start, end and middle of the only subpath of `d`: all at `radius` from `center`.
    static func allOnCircle(_ d: String, center: Point, radius: Double) throws -> Bool {
        let g = try parse(d)
        var from = g.subpaths[0].start
        var points: [Point] = []
        for s in g.subpaths[0].segments {
            points += [from, middle(from, s), s.to]
            from = s.to
        }
        let dx = points.map { $0.x - center.x }
        let dy = points.map { $0.y - center.y }
        return zip(dx, dy).allSatisfy { abs(($0 * $0 + $1 * $1).squareRoot() - radius) <= 1e-3 }
    }

    @Test("M and L, absolute and relative: a line is a cubic with control points at a third and two thirds")
    func moveAndLine() throws {
        let expected = PathGeometry(subpaths: [
            .init(start: Point(10, 20), segments: [Segment(c1: Point(20, 30), c2: Point(30, 40), to: Point(40, 50))])
        ])
        #expect(try Self.parse("M10 20 L40 50") == expected)
        #expect(try Self.parse("m10 20 l30 30") == expected)
    }

    @Test("H and V, absolute and relative, go along one axis from the current point")
    func horizontalVertical() throws {
        let s = try Self.segments("M0 0 H30 V60 h-30 v-60")
        #expect(s.map(\.to) == [Point(30, 0), Point(30, 60), Point(0, 60), Point(0, 0)])
        #expect(s[0] == Segment(c1: Point(10, 0), c2: Point(20, 0), to: Point(30, 0)))
        #expect(s[1] == Segment(c1: Point(30, 20), c2: Point(30, 40), to: Point(30, 60)))
        #expect(try Self.parse("M0 0 H30 V60 H0 V0") == Self.parse("M0 0 h30 v60 h-30 v-60"))
    }

    @Test("C and c as given; c's three points are all relative to the segment's start")
    func cubic() throws {
        let s = try Self.segments("M0 0 C1 2 3 4 5 6 c1 1 2 2 3 3")
        #expect(s[0] == Segment(c1: Point(1, 2), c2: Point(3, 4), to: Point(5, 6)))
        #expect(s[1] == Segment(c1: Point(6, 7), c2: Point(7, 8), to: Point(8, 9)))
    }

    @Test("S reflects the last C or S's second control point through the current point, else uses it")
    func smoothCubic() throws {
        // After C ... 10 10 10 0, the reflection of (10, 10) through (10, 0) is (10, -10).
        let after = Segment(c1: Point(10, -10), c2: Point(20, -10), to: Point(20, 0))
        #expect(try Self.segments("M0 0 C0 10 10 10 10 0 S20 -10 20 0")[1] == after)
        #expect(try Self.segments("M0 0 C0 10 10 10 10 0 s10 -10 10 0")[1] == after)
        // S after S: (20, -10) through (20, 0) is (20, 10).
        #expect(try Self.segments("M0 0 C0 10 10 10 10 0 S20 -10 20 0 S30 10 30 0")[2].c1 == Point(20, 10))
        // No C before: the first control point is the current point.
        #expect(
            try Self.segments("M5 5 S10 10 20 20")[0] == Segment(c1: Point(5, 5), c2: Point(10, 10), to: Point(20, 20)))
        #expect(try Self.segments("M0 0 L10 0 S20 10 30 0")[1].c1 == Point(10, 0))
        #expect(try Self.segments("M0 0 Q5 5 10 0 S20 10 30 0")[1].c1 == Point(10, 0))
    }

    @Test("Q is raised exactly to a cubic: c1 = p0 + 2/3 (q - p0), c2 = p1 + 2/3 (q - p1)")
    func quadratic() throws {
        // p0 (0, 0), q (30, 60), p1 (60, 0): c1 (20, 40), c2 (60 - 20, 40) = (40, 40).
        let expected = Segment(c1: Point(20, 40), c2: Point(40, 40), to: Point(60, 0))
        #expect(try Self.segments("M0 0 Q30 60 60 0") == [expected])
        #expect(try Self.segments("M0 0 q30 60 60 0") == [expected])
    }

    @Test("T reflects the last Q or T's control point, chained, else uses the current point")
    func smoothQuadratic() throws {
        // q (30, 60) through (60, 0) is (90, -60); to (120, 0): c1 = 60 + 2/3·30, 2/3·-60; c2 = 120 - 2/3·30.
        let first = Segment(c1: Point(80, -40), c2: Point(100, -40), to: Point(120, 0))
        #expect(try Self.segments("M0 0 Q30 60 60 0 T120 0")[1] == first)
        #expect(try Self.segments("M0 0 Q30 60 60 0 t60 0")[1] == first)
        // Then (90, -60) through (120, 0) is (150, 60); to (180, 0): c1 (140, 40), c2 (160, 40).
        let second = Segment(c1: Point(140, 40), c2: Point(160, 40), to: Point(180, 0))
        #expect(try Self.segments("M0 0 Q30 60 60 0 T120 0 T180 0")[2] == second)
        // No Q before: q is the current point (0, 0): c1 (0, 0), c2 = 30 + 2/3·-30 = 10.
        #expect(try Self.segments("M0 0 T30 0") == [Segment(c1: Point(0, 0), c2: Point(10, 0), to: Point(30, 0))])
        #expect(try Self.segments("M0 0 C1 1 2 2 3 0 T30 0")[1].c1 == Point(3, 0))
    }

    @Test("a quarter circle is four cubics from angle 0 to 90° about (0, 0), each middle on the circle")
    func quarterCircle() throws {
        // (100, 0) to (0, 100), r 100, large 0, sweep 1: x1' = 50, y1' = -50, radicand 1, sign + (flags
        // differ): c' = (-50, -50), center (0, 0); θ1 = 0, Δθ = 90°.
        let s = try Self.segments("M100 0 A100 100 0 0 1 0 100")
        #expect(s.count == 4)
        #expect(Self.near(s[1].to, Point(100 / 2.0.squareRoot(), 100 / 2.0.squareRoot())))
        #expect(s[3].to == Point(0, 100))
        // Each quarter spans 22.5°: k = 4/3 tan(22.5°/4) = 0.13132187114288565, so c1 = (100, 13.132…).
        #expect(Self.near(s[0].c1, Point(100, 13.132187114288566)))
        #expect(try Self.allOnCircle("M100 0 A100 100 0 0 1 0 100", center: Point(0, 0), radius: 100))
        #expect(try Self.parse("M100 0 a100 100 0 0 1 -100 100") == Self.parse("M100 0 A100 100 0 0 1 0 100"))
    }

    @Test("a three-quarter arc turns 270° through (0, 100) and (-100, 0)")
    func largeArc() throws {
        // (100, 0) to (0, -100), flags 1 1: sign -, c' = (-50, 50), center (0, 0); θ1 = 0, θ2 = -90° so
        // Δθ = 270° with sweep. Quarters of 67.5°: the second ends at 135°.
        let d = "M100 0 A100 100 0 1 1 0 -100"
        let s = try Self.segments(d)
        #expect(Self.near(s[1].to, Point(-100 / 2.0.squareRoot(), 100 / 2.0.squareRoot())))
        #expect(s[3].to == Point(0, -100))
        #expect(try Self.allOnCircle(d, center: Point(0, 0), radius: 100))
    }

    @Test(
        "the four flag combinations: the center and the arc's middle on the side SVG says",
        arguments: [
            // (0, 0) to (100, 0), r 100: x1' = -50, y1' = 0, radicand 3, c' = (0, ±50√3) with + when the
            // flags differ. The arc's middle is the end of its second quarter.
            ("0 0", Point(50, -86.60254037844386), Point(50, 13.397459621556138)),
            ("0 1", Point(50, 86.60254037844386), Point(50, -13.397459621556138)),
            ("1 0", Point(50, 86.60254037844386), Point(50, 186.60254037844385)),
            ("1 1", Point(50, -86.60254037844386), Point(50, -186.60254037844385)),
        ])
    func arcFlags(flags: String, center: Point, middle: Point) throws {
        let d = "M0 0 A100 100 0 \(flags) 100 0"
        #expect(Self.near(try Self.segments(d)[1].to, middle))
        #expect(try Self.allOnCircle(d, center: center, radius: 100))
    }

    @Test("radii too small grow until they reach: r 10 across 100 becomes the half circle of r 50")
    func radiiScaledUp() throws {
        // Λ = 50²/10² = 25, r = 50, center (50, 0); θ1 = 180°, sweep to 360°: the middle is (50, -50).
        let d = "M0 0 A10 10 0 0 1 100 0"
        #expect(Self.near(try Self.segments(d)[1].to, Point(50, -50)))
        #expect(try Self.allOnCircle(d, center: Point(50, 0), radius: 50))
        #expect(try Self.allOnCircle("M0 0 A1e-300 1e-300 0 0 1 100 0", center: Point(50, 0), radius: 50))
        #expect(try Self.parse("M0 0 A-10 -10 0 0 1 100 0") == Self.parse(d))
    }

    @Test("a rotated ellipse: rx 20, ry 10 turned 90° from (0, 0) to (0, 40) bulges to (10, 20)")
    func rotatedArc() throws {
        // x1' = -20, y1' ≈ 0: Λ = 1, center (0, 20); the half ellipse's middle is ry = 10 across, and
        // sweep 1 (clockwise with y down) from top to bottom goes by the right.
        #expect(Self.near(try Self.segments("M0 0 A20 10 90 0 1 0 40")[1].to, Point(10, 20)))
    }

    @Test("a zero radius is a straight line, four cubics; equal ends are four cubics at the point")
    func degenerateArcs() throws {
        let a = Point(0, 0)
        let quarters = [Point(30, 60), Point(60, 120), Point(90, 180), Point(120, 240)]
        let lines = zip([a] + quarters, quarters).map { Self.line($0, $1) }
        #expect(try Self.segments("M0 0 A0 10 0 0 1 120 240") == lines)
        #expect(try Self.segments("M0 0 A10 0 0 1 0 120 240") == lines)
        #expect(
            try Self.segments("M0 0 A10 0 0 1 0 120 240")[0]
                == Segment(c1: Point(10, 20), c2: Point(20, 40), to: Point(30, 60)))
        let p = Point(5, 5)
        #expect(try Self.segments("M5 5 A10 10 0 0 1 5 5") == Array(repeating: Segment(c1: p, c2: p, to: p), count: 4))
    }

    @Test("Z closes and returns to the start; what follows, unless M, starts a subpath there")
    func closePath() throws {
        let g = try Self.parse("M10 10 L20 10 Z l5 5")
        #expect(g.subpaths.count == 2)
        #expect(g.subpaths[0].closed && g.subpaths[0].segments.count == 1)
        #expect(g.subpaths[1] == .init(start: Point(10, 10), segments: [Self.line(Point(10, 10), Point(15, 15))]))
        let m = try Self.parse("M10 10 L20 10 z m5 5 l1 1")
        #expect(m.subpaths[1] == .init(start: Point(15, 15), segments: [Self.line(Point(15, 15), Point(16, 16))]))
        // Z Z: the second closes an empty subpath at the same start.
        #expect(try Self.parse("M1 2 L3 4 Z Z").subpaths[1] == .init(start: Point(1, 2), closed: true))
    }

    @Test("parameters repeat: after M as L (relative after m), and for every other command")
    func implicitRepetition() throws {
        #expect(try Self.parse("M0 0 10 0 20 0") == Self.parse("M0 0 L10 0 L20 0"))
        #expect(try Self.parse("m0 0 10 0 10 0") == Self.parse("M0 0 L10 0 L20 0"))
        #expect(try Self.parse("m5 5 10 0") == Self.parse("M5 5 L15 5"))
        #expect(try Self.parse("M0 0 L1 1 2 2, 3 3") == Self.parse("M0 0 L1 1 L2 2 L3 3"))
        #expect(try Self.parse("M0 0 h1 2 3") == Self.parse("M0 0 H1 H3 H6"))
        #expect(try Self.parse("M0 0 V1 2") == Self.parse("M0 0 V1 V2"))
        #expect(try Self.parse("M0 0 c1 1 2 2 3 3 1 1 2 2 3 3") == Self.parse("M0 0 C1 1 2 2 3 3 C4 4 5 5 6 6"))
        #expect(try Self.parse("M0 0 S1 1 2 2 3 3 4 4") == Self.parse("M0 0 S1 1 2 2 S3 3 4 4"))
        #expect(try Self.parse("M0 0 Q1 1 2 2 3 3 4 4") == Self.parse("M0 0 Q1 1 2 2 Q3 3 4 4"))
        #expect(try Self.parse("M0 0 T1 1 2 2") == Self.parse("M0 0 T1 1 T2 2"))
        #expect(try Self.parse("M0 0 A5 5 0 0 1 10 0 5 5 0 0 1 20 0").segmentCount == 8)
    }

    @Test("compact numbers: .5.5, 1-2, exponents, a leading +, 1., commas and any white space")
    func numbers() throws {
        #expect(try Self.parse("M.5.5").subpaths[0].start == Point(0.5, 0.5))
        #expect(try Self.parse("M1-2").subpaths[0].start == Point(1, -2))
        #expect(try Self.parse("M-1.5e-3+2E2").subpaths[0].start == Point(-0.0015, 200))
        #expect(try Self.parse("M1e2.5").subpaths[0].start == Point(100, 0.5))
        #expect(try Self.parse("M+3,-.25").subpaths[0].start == Point(3, -0.25))
        #expect(try Self.parse("M1.,2.").subpaths[0].start == Point(1, 2))
        #expect(try Self.parse("M0,0L1,1") == Self.parse("M 0 0 L 1 1"))
        #expect(try Self.parse(" \t\nM 0 , 0\r\nL\u{0C}1 ,1 \n") == Self.parse("M0 0 L1 1"))
    }

    @Test("arc flags need no separators: 0 00 1 1 and 1125,25")
    func compactFlags() throws {
        #expect(try Self.parse("M0 0a1 1 0 00 1 1") == Self.parse("M0 0 a1 1 0 0 0 1 1"))
        #expect(try Self.parse("M200,120 h-25 a25,25 0 1125,25 z") == Self.parse("M200 120 h-25 a25 25 0 1 1 25 25 z"))
        #expect(try Self.parse("M0 0A1,1,0,0,1,2,0") == Self.parse("M0 0 A1 1 0 0 1 2 0"))
    }

    @Test("paths with the same commands have the same structure; another command breaks it")
    func structure() throws {
        let a = try Self.parse("M0 0 L10 10 Q5 5 0 0 A5 5 0 0 1 3 3 Z M1 1 h4")
        let b = try Self.parse("m7 7 l1 -10 q50 5 -3 0 a1 9 30 1 0 6 6 z m2 2 h8")
        #expect(a.sameStructure(as: b))
        #expect(a.segmentCount == 7)
        #expect(!a.sameStructure(as: try Self.parse("M0 0 L10 10 Q5 5 0 0 A5 5 0 0 1 3 3 M1 1 h4")))
        #expect(!a.sameStructure(as: try Self.parse("M0 0 L10 10 Q5 5 0 0 L3 3 Z M1 1 h4")))
    }
}
