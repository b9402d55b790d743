import ThrobberCodecs
import ThrobberCore

extension LottieWriter {
    /// The shapes of a path layer or glyph: a Lottie path (`sh`) per
    /// subpath, keyframed when it morphs, then its stroke (with trim paths
    /// or a dash pattern) above its fill. A fill of several subpaths is one
    /// path of them all (``PathGeometry/bridged``), because Qt 6.4 fills
    /// each path alone and would fill a glyph's holes; a stroke, its trim
    /// and a fill of another path sit in groups of their own.
    func pathItems(_ p: VectorScene.PathContent) throws -> [JSON] {
        let paths = try subpathShapes(p, bridged: false)
        var fill: [JSON] = []
        if p.shape.filled {
            var f = paint("fl", p.fill, p.fillName)
            add(("r", .number(p.shape.fillRule == .evenodd ? "2" : "1")), to: &f)
            fill = [f]
        }
        let bridged = p.shape.geometry.subpaths.count > 1
        let filledPaths = bridged ? try subpathShapes(p, bridged: true) : paths
        guard p.shape.stroked else { return filledPaths + fill }
        let s = p.shape.stroke
        var st = paint("st", p.stroke, p.strokeName)
        add(("w", fixed(s.width)), to: &st)
        add(("lc", .number(s.cap == .butt ? "1" : s.cap == .round ? "2" : "3")), to: &st)
        add(("lj", .number(s.join == .miter ? "1" : s.join == .round ? "2" : "3")), to: &st)
        add(("ml", .number(VectorText.factor(s.miterLimit))), to: &st)
        if !s.dash.isEmpty {
            let dashes = s.dash.count % 2 == 1 ? s.dash + s.dash : s.dash
            var d: [JSON] = dashes.enumerated().map { i, v in
                LottieWriter.object([("n", .string(i % 2 == 0 ? "d" : "g")), ("v", fixed(v))])
            }
            d.append(LottieWriter.object([("n", .string("o")), ("v", fixed(s.dashOffset))]))
            add(("d", LottieWriter.array(d)), to: &st)
        }
        if !p.trimmed && (fill.isEmpty || !bridged) { return paths + [st] + fill }
        let tm = LottieWriter.object([
            ("ty", .string("tm")), ("s", try value(p.start, scale: 100, digits: 4, turns: false)),
            ("e", try value(p.end, scale: 100, digits: 4, turns: false)),
            ("o", try value(p.offset, scale: 360, digits: VectorText.factorDigits, turns: false)), ("m", .number("1")),
        ])
        let stroke = LottieWriter.group(paths + (p.trimmed ? [tm, st] : [st]))
        return fill.isEmpty ? [stroke] : [stroke, LottieWriter.group(filledPaths + fill)]
    }

    /// A shape group of `items` that does not move them.
    static func group(_ items: [JSON]) -> JSON {
        let still: (Double) -> JSON = { v in object([("a", .number("0")), ("k", .number(VectorText.factor(v)))]) }
        let origin = object([("a", .number("0")), ("k", array([.number("0"), .number("0")]))])
        let tr = object([
            ("ty", .string("tr")), ("p", origin), ("a", origin),
            ("s", object([("a", .number("0")), ("k", array([.number("100"), .number("100")]))])), ("r", still(0)),
            ("o", still(100)),
        ])
        return object([("ty", .string("gr")), ("it", array(items + [tr]))])
    }

    private func add(_ member: (String, JSON), to json: inout JSON) {
        guard case .object(var m) = json else { return }
        m.append((key: member.0, value: wrap(member.1)))
        json = .object(m)
    }

    /// One `sh` per subpath, or with `bridged` one of them all: still, or
    /// keyframed through the morph.
    private func subpathShapes(_ p: VectorScene.PathContent, bridged: Bool) throws -> [JSON] {
        let shape = { (v: Double?) -> PathGeometry in
            let g = p.shape.shape(morphAt: v)
            return bridged ? PathGeometry(subpaths: [g.bridged]) : g
        }
        let keys = ([p.shape.geometry] + p.shape.morph).map { bridged ? PathGeometry(subpaths: [$0.bridged]) : $0 }
        return try keys[0].subpaths.indices.map { i in
            // A closing line of no length is left out when every key shape has one.
            let merge = keys.allSatisfy { g in
                let s = g.subpaths[i]
                guard s.closed, let last = s.segments.last else { return false }
                return abs(last.to.x - s.start.x) < 1e-9 && abs(last.to.y - s.start.y) < 1e-9
            }
            let ks: JSON
            if let morph = p.morph {
                ks = try keyframes(morph, turns: false) { v in
                    LottieWriter.array([LottieWriter.vertices(shape(v).subpaths[i], merge: merge)])
                }
            } else {
                ks = LottieWriter.object([
                    ("a", .number("0")), ("k", LottieWriter.vertices(keys[0].subpaths[i], merge: merge)),
                ])
            }
            return LottieWriter.object([("ty", .string("sh")), ("ks", ks)])
        }
    }

    /// A Lottie path value: vertices, their in and out tangents relative
    /// to them, and whether it is closed. With `merge`, the last segment
    /// ends on the start, which is not written again.
    static func vertices(_ s: PathGeometry.Subpath, merge: Bool) -> JSON {
        var v = [s.start]
        var ins = [PathGeometry.Point(0, 0)]
        var outs: [PathGeometry.Point] = []
        for g in s.segments {
            let from = v[v.count - 1]
            outs.append(PathGeometry.Point(g.c1.x - from.x, g.c1.y - from.y))
            v.append(g.to)
            ins.append(PathGeometry.Point(g.c2.x - g.to.x, g.c2.y - g.to.y))
        }
        outs.append(PathGeometry.Point(0, 0))
        if merge && v.count > 1 {
            ins[0] = ins[ins.count - 1]
            v.removeLast()
            ins.removeLast()
            outs.removeLast()
        }
        func list(_ points: [PathGeometry.Point]) -> JSON {
            array(points.map { array([.number(VectorText.length($0.x)), .number(VectorText.length($0.y))]) })
        }
        return object([("c", .bool(s.closed)), ("v", list(v)), ("i", list(ins)), ("o", list(outs))])
    }
}

extension PathGeometry {
    /// Every subpath as one closed subpath that fills the same: each
    /// closed by a line to its start as a fill closes it, the starts joined
    /// by lines there and back again, which add nothing to any point's
    /// winding or crossings.
    var bridged: Subpath {
        guard let first = subpaths.first else { return Subpath(start: Point(0, 0)) }
        func line(_ from: Point, _ to: Point) -> Segment {
            let dx = to.x - from.x
            let dy = to.y - from.y
            return Segment(
                c1: Point(from.x + dx / 3, from.y + dy / 3), c2: Point(from.x + 2 * dx / 3, from.y + 2 * dy / 3), to: to
            )
        }
        var out = Subpath(start: first.start, closed: true)
        var at = first.start
        for (k, s) in subpaths.enumerated() {
            if k > 0 { out.segments.append(line(at, s.start)) }
            out.segments += s.segments
            at = s.segments.last?.to ?? s.start
            if at != s.start { out.segments.append(line(at, s.start)) }
            at = s.start
        }
        for s in subpaths.dropLast().reversed() {
            out.segments.append(line(at, s.start))
            at = s.start
        }
        return out
    }
}
