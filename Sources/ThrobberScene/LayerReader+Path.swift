import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// `path` layers: SVG path data, its fill rule, stroke and trim, and the
/// morph of a `d` animation (man throbber, CONFIG FORMAT: path layers).
extension LayerReader {
    /// The keys of a `path` object.
    static let pathKeys = [
        "d", "origin", "fillRule", "width", "cap", "join", "miterLimit", "dash", "dashOffset", "trim",
    ]

    /// The `path` object `node` at `path`.
    func pathKind(_ node: JSONNode, _ path: String) throws -> Layer.Kind {
        let o = try r.object(node, path)
        let (geometry, originDefault) = try o.required("d") { node, path in
            let g = try pathData(node, path)
            return (g, PathGeometry.center(of: g))
        }
        let origin = try o.optional("origin", position).map { PathGeometry.Point($0.0, $0.1) } ?? originDefault
        var shape = ScenePath(geometry: geometry.transformed(dx: -origin.x, dy: -origin.y))
        shape.origin = origin
        shape.fillRule =
            try o.optional("fillRule") {
                ScenePath.FillRule(rawValue: try r.choice($0, $1, among: ["nonzero", "evenodd"]))!
            } ?? .nonzero
        shape.stroke.width = try o.optional("width", length) ?? 2
        shape.stroke.cap =
            try o.optional("cap") {
                ScenePath.Cap(rawValue: try r.choice($0, $1, among: ScenePath.Cap.allCases.map(\.rawValue)))!
            }
            ?? .butt
        shape.stroke.join =
            try o.optional("join") {
                ScenePath.Join(rawValue: try r.choice($0, $1, among: ScenePath.Join.allCases.map(\.rawValue)))!
            } ?? .miter
        shape.stroke.miterLimit =
            try o.optional("miterLimit") {
                try r.number($0, $1, in: Rational(1)...Rational(1000), unit: "").doubleValue
            }
            ?? 4
        shape.stroke.dash = try o.optional("dash", dashes) ?? []
        shape.stroke.dashOffset =
            try o.optional("dashOffset") {
                try r.number($0, $1, in: ConfigRange.symmetric(ConfigRange.length), unit: "points").doubleValue
            } ?? 0
        if let trim = try o.optional("trim", trim) {
            if !shape.stroke.dash.isEmpty {
                throw r.error(
                    o.child("trim"), "a path has a trim or a dash pattern, not both (a trim is drawn as one dash)")
            }
            shape.trim = trim
        }
        try o.finish(allowed: LayerReader.pathKeys)
        return .path(shape)
    }

    /// Path data at `path`, its errors naming the character they are at.
    func pathData(_ node: JSONNode, _ path: String) throws -> PathGeometry {
        let d = try r.string(node, path)
        do {
            return try PathData.parse(d)
        } catch {
            throw r.error(path, "at \(error.offset): \(error.message)")
        }
    }

    /// `dash`: lengths in points, at least one above 0.
    private func dashes(_ node: JSONNode, _ path: String) throws -> [Double] {
        let items = try r.array(node, path)
        guard items.count <= 64 else { throw r.error(path, "at most 64 dash lengths, got \(items.count)") }
        let v = try items.enumerated().map { try length($1, "\(path)[\($0)]") }
        guard v.contains(where: { $0 > 0 }) else { throw r.error(path, "expected a dash length above 0") }
        return v
    }

    /// `trim`: `start` and `end` in 0…1 of the length, `offset` any fraction.
    private func trim(_ node: JSONNode, _ path: String) throws -> ScenePath.Trim {
        let o = try r.object(node, path)
        var t = ScenePath.Trim()
        let unit = Rational(0)...Rational(1)
        t.start = try o.optional("start") { try r.number($0, $1, in: unit, unit: "of the length").doubleValue } ?? 0
        t.end = try o.optional("end") { try r.number($0, $1, in: unit, unit: "of the length").doubleValue } ?? 1
        t.offset =
            try o.optional("offset") {
                try r.number($0, $1, in: ConfigRange.symmetric(ConfigRange.factor), unit: "").doubleValue
            } ?? 0
        try o.finish(allowed: ["start", "end", "offset"])
        return t
    }

    /// A `d` animation: keyframes whose values are path data of the
    /// layer's commands. Returns the animation (its values the key
    /// indices) and the key shapes, moved by the layer's `origin`.
    func morph(_ o: ConfigReader.Object, _ path: String, shape: ScenePath, delay: Rational) throws
        -> (Animation, [PathGeometry])
    {
        let period = try o.required("period") {
            try r.number($0, $1, above: Rational(0), atMost: ConfigRange.seconds)
        }
        var shapes: [PathGeometry] = []
        let keys = try o.required("keys") { node, path -> [KeyframeAnimation.Key] in
            let items = try r.array(node, path)
            guard items.count >= 2 else { throw r.error(path, "a morph needs at least two keys") }
            guard items.count <= LayerReader.maxMorphKeys else {
                throw r.error(path, "at most \(LayerReader.maxMorphKeys) keys, got \(items.count)")
            }
            var keys: [KeyframeAnimation.Key] = []
            for (i, item) in items.enumerated() {
                let kp = "\(path)[\(i)]"
                let k = try r.object(item, kp)
                let at = try k.required("at") { try r.number($0, $1, atLeast: Rational(0), atMost: period) }
                if let prev = keys.last, at < prev.at {
                    throw r.error(kp + ".at", "keys must be in time order (\(at) comes before \(prev.at))")
                }
                let g = try k.required("value", pathData)
                guard g.sameStructure(as: shape.geometry) else {
                    throw r.error(
                        kp + ".value",
                        "a morph's shapes need the same commands as the layer's \"d\" (\(g.structureSummary) here, \(shape.geometry.structureSummary) there)"
                    )
                }
                let ease = try k.optional("ease", easing) ?? .linear
                if case .cubicBezier(_, let y1, _, let y2) = ease, !(0...1).contains(y1) || !(0...1).contains(y2) {
                    throw r.error(kp + ".ease", "a morph's easing stays within its shapes (y1 and y2 in 0…1)")
                }
                try k.finish(allowed: ["at", "value", "ease"])
                keys.append(.init(at: at, value: Double(i), ease: ease))
                shapes.append(g.transformed(dx: -shape.origin.x, dy: -shape.origin.y))
            }
            return keys
        }
        try o.finish(allowed: ["kind", "property", "period", "keys", "delay"])
        let animation = Animation(
            property: .d, kind: .keyframes(KeyframeAnimation(period: period, keys: keys)), delay: delay)
        return (animation, shapes)
    }

    /// Most keys of one morph: each is a copy of the path.
    static let maxMorphKeys = 100
}

extension PathGeometry {
    /// The center of the box the curve passes through (its ends and the
    /// turning points of each cubic): where a path is placed by default.
    static func center(of g: PathGeometry) -> Point {
        var lo = Point(.infinity, .infinity)
        var hi = Point(-.infinity, -.infinity)
        func add(_ p: Point) {
            lo = Point(min(lo.x, p.x), min(lo.y, p.y))
            hi = Point(max(hi.x, p.x), max(hi.y, p.y))
        }
        for s in g.subpaths {
            var from = s.start
            add(from)
            for seg in s.segments {
                for t in extrema(from.x, seg.c1.x, seg.c2.x, seg.to.x) + extrema(from.y, seg.c1.y, seg.c2.y, seg.to.y) {
                    add(point(from, seg, t))
                }
                add(seg.to)
                from = seg.to
            }
        }
        return lo.x.isFinite ? Point((lo.x + hi.x) / 2, (lo.y + hi.y) / 2) : Point(0, 0)
    }

    /// The cubic from `p0` along `g` at parameter `t`.
    static func point(_ p0: Point, _ g: Segment, _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u
        let b = 3 * u * u * t
        let c = 3 * u * t * t
        let d = t * t * t
        return Point(a * p0.x + b * g.c1.x + c * g.c2.x + d * g.to.x, a * p0.y + b * g.c1.y + c * g.c2.y + d * g.to.y)
    }

    /// Parameters in (0, 1) where a cubic's coordinate p0…p3 turns.
    private static func extrema(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> [Double] {
        // The derivative / 3: a t² + b t + c.
        let a = -p0 + 3 * p1 - 3 * p2 + p3
        let b = 2 * (p0 - 2 * p1 + p2)
        let c = p1 - p0
        var roots: [Double] = []
        if abs(a) < 1e-12 {
            if abs(b) > 1e-12 { roots = [-c / b] }
        } else {
            let disc = b * b - 4 * a * c
            if disc >= 0 {
                let s = disc.squareRoot()
                roots = [(-b + s) / (2 * a), (-b - s) / (2 * a)]
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }

    /// "2 subpaths of 3, 4 segments", for messages.
    var structureSummary: String {
        let counts = subpaths.map { "\($0.segments.count)\($0.closed ? " closed" : "")" }.joined(separator: ", ")
        let one = subpaths.count == 1 && subpaths[0].segments.count == 1
        return "\(subpaths.count) subpath\(subpaths.count == 1 ? "" : "s") of \(counts) segment\(one ? "" : "s")"
    }
}
