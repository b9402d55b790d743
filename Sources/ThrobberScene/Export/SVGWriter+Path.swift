import ThrobberCodecs
import ThrobberCore

extension SVGWriter {
    /// A path layer or glyph as `<path>` elements: one filled (and
    /// stroked, untrimmed), or, for a trimmed stroke, the fill and then one
    /// stroke per subpath, each a `pathLength` of 1 whose one dash is the
    /// part drawn. A morph is a CSS `d: path()` animation; the `d`
    /// attribute is the shape at the loop's start, for browsers without it.
    mutating func pathElements(_ p: VectorScene.PathContent, nodePath: String) throws -> String {
        let trimmed = p.shape.stroked && p.trimmed
        var out = ""
        if p.shape.filled || (p.shape.stroked && !trimmed) {
            var attributes: [(String, Color, String?)] = []
            if p.shape.filled { attributes.append(("fill", p.fill, p.fillName)) }
            if p.shape.stroked && !trimmed { attributes.append(("stroke", p.stroke, p.strokeName)) }
            var element = "<path" + d(p, subpath: nil) + paints(attributes)
            if !p.shape.filled { element += " fill=\"none\"" }
            if p.shape.filled && p.shape.fillRule == .evenodd { element += " fill-rule=\"evenodd\"" }
            if p.shape.stroked && !trimmed { element += strokeAttributes(p.shape.stroke, dashes: true) }
            out += element + (p.morph.map { animationClass([morph($0, p, subpath: nil)]) } ?? "") + "/>"
        }
        guard trimmed else { return out }
        let (part, begin) = try p.trimDash(scene, meter, at: nodePath)
        var dash: [CSSAnimation] = []
        var fixed = ""
        let gap = 1 + ScenePath.Trim.gap
        switch part {
        case .constant(let a):
            if a <= 0 { return out }
            fixed += " stroke-dasharray=\"\(VectorText.number(a, 5)) \(VectorText.number(gap - a, 5))\""
        case .track(let t):
            dash.append(
                animation(t) { "stroke-dasharray:\(VectorText.number($0, 5)) \(VectorText.number(gap - $0, 5))" })
            // A dash of no length still draws its caps: hidden while nothing is drawn.
            if let shown = SVGWriter.shown(t) {
                dash.append(animation(shown) { "visibility:\($0 > 0.5 ? "visible" : "hidden")" })
            }
        }
        switch begin {
        case .constant(let b): fixed += " stroke-dashoffset=\"\(VectorText.number(-b, 5))\""
        case .track(let t): dash.append(animation(t) { "stroke-dashoffset:\(VectorText.number(-$0, 5))" })
        }
        let common =
            " pathLength=\"1\" fill=\"none\"" + paints([("stroke", p.stroke, p.strokeName)])
            + strokeAttributes(p.shape.stroke, dashes: false) + fixed
        for i in p.shape.geometry.subpaths.indices {
            var animations = dash
            if let m = p.morph { animations.insert(morph(m, p, subpath: i), at: 0) }
            out += "<path" + d(p, subpath: i) + common + (animations.isEmpty ? "" : animationClass(animations)) + "/>"
        }
        return out
    }

    /// 1 where a trim's dash length `part` is above 0, 0 where it is 0,
    /// held from key to key: a key at 0 is hidden until a moment after it
    /// (a hundred-thousandth of the period), where the curve leaves 0.
    /// Nil when the dash is never 0.
    static func shown(_ part: VectorTrack) -> VectorTrack? {
        guard part.keys.contains(where: { $0.value <= 0 }) else { return nil }
        var keys: [VectorTrack.Key] = []
        for (i, k) in part.keys.enumerated() {
            let next = i + 1 < part.keys.count ? part.keys[i + 1] : nil
            guard k.value <= 0 else {
                keys.append(.init(time: k.time, value: 1, ease: .steps(1)))
                continue
            }
            keys.append(.init(time: k.time, value: 0, ease: .steps(1)))
            if let next, next.value > 0 {
                let moment = min(part.period / Rational(100_000), (next.time - k.time) / Rational(2))
                keys.append(.init(time: k.time + moment, value: 1, ease: .steps(1)))
            }
        }
        return VectorTrack(period: part.period, keys: keys, shift: part.shift)
    }

    /// ` d="…"`: the shape at the loop's start, or one subpath of it.
    private func d(_ p: VectorScene.PathContent, subpath: Int?) -> String {
        let g = p.geometry(at: Rational(0))
        let shape = subpath.map { PathGeometry(subpaths: [g.subpaths[$0]]) } ?? g
        return " d=\"\(SVGWriter.pathData(shape, curvesOnly: p.morph != nil))\""
    }

    /// The morph as a `d: path()` animation of the whole shape or one subpath.
    private mutating func morph(_ track: VectorTrack, _ p: VectorScene.PathContent, subpath: Int?) -> CSSAnimation {
        animation(track) { v in
            let g = p.shape.shape(morphAt: v)
            let shape = subpath.map { PathGeometry(subpaths: [g.subpaths[$0]]) } ?? g
            return "d:path('\(SVGWriter.pathData(shape, curvesOnly: true))')"
        }
    }

    /// The stroke's width, caps, joins, miter limit and (with `dashes`) dash pattern.
    private func strokeAttributes(_ s: ScenePath.Stroke, dashes: Bool) -> String {
        var a = " stroke-width=\"\(VectorText.length(s.width))\""
        if s.cap != .butt { a += " stroke-linecap=\"\(s.cap.rawValue)\"" }
        if s.join != .miter { a += " stroke-linejoin=\"\(s.join.rawValue)\"" }
        if s.join == .miter && s.miterLimit != 4 { a += " stroke-miterlimit=\"\(VectorText.factor(s.miterLimit))\"" }
        if dashes && !s.dash.isEmpty {
            a += " stroke-dasharray=\"\(s.dash.map(VectorText.length).joined(separator: " "))\""
            if s.dashOffset != 0 { a += " stroke-dashoffset=\"\(VectorText.length(s.dashOffset))\"" }
        }
        return a
    }

    /// The paint attributes of several properties, theme names merged into one `style`.
    private mutating func paints(_ list: [(String, Color, String?)]) -> String {
        var plain = ""
        var styles: [String] = []
        for (attribute, color, name) in list {
            let text = paint(attribute, color, name: name)
            if text.hasPrefix(" style=\"") {
                styles.append(String(text.dropFirst(8).dropLast()))
            } else {
                plain += text
            }
        }
        return plain + (styles.isEmpty ? "" : " style=\"\(styles.joined(separator: ";"))\"")
    }

    /// SVG path data of `g`: absolute, its numbers at ``VectorText/lengthDigits``,
    /// a separator only where a number needs one. A segment that is a
    /// straight line is `L` unless `curvesOnly` (a morph's keys must share
    /// their commands).
    static func pathData(_ g: PathGeometry, curvesOnly: Bool) -> String {
        var s = ""
        func add(_ command: Character, _ values: [Double]) {
            s.append(command)
            for (i, v) in values.enumerated() {
                let text = VectorText.length(v)
                if i > 0 && !text.hasPrefix("-") { s.append(" ") }
                s += text
            }
        }
        for sub in g.subpaths {
            add("M", [sub.start.x, sub.start.y])
            var from = sub.start
            for seg in sub.segments {
                if !curvesOnly && PathGeometry.isLine(from, seg) {
                    add("L", [seg.to.x, seg.to.y])
                } else {
                    add("C", [seg.c1.x, seg.c1.y, seg.c2.x, seg.c2.y, seg.to.x, seg.to.y])
                }
                from = seg.to
            }
            if sub.closed { s.append("Z") }
        }
        return s
    }
}

extension PathGeometry {
    /// Whether the cubic from `p0` along `g` is a straight line drawn at
    /// even speed (its control points at a third and two thirds).
    static func isLine(_ p0: Point, _ g: Segment) -> Bool {
        func near(_ a: Point, _ x: Double, _ y: Double) -> Bool { abs(a.x - x) < 1e-9 && abs(a.y - y) < 1e-9 }
        let dx = g.to.x - p0.x
        let dy = g.to.y - p0.y
        return near(g.c1, p0.x + dx / 3, p0.y + dy / 3) && near(g.c2, p0.x + 2 * dx / 3, p0.y + 2 * dy / 3)
    }
}

extension VectorScene.PathContent {
    /// The trim as one dash of a subpath whose length is 1: its length
    /// |end − start| and where it begins, min(start, end) + offset. Exact
    /// curves where one eased curve says each, end never before start;
    /// else both sampled at the frames (counted by `meter`).
    func trimDash(_ scene: VectorScene, _ meter: VectorMeter, at path: String) throws -> (VectorValue, VectorValue) {
        func clamped(_ v: VectorValue) -> Bool {
            let r = v.track?.range ?? v.value(at: 0)...v.value(at: 0)
            return r.lowerBound >= 0 && r.upperBound <= 1
        }
        if case .constant(let s) = start, case .constant(let e) = end,
            let begin = VectorValue.sum(.constant(min(s, e)), offset)
        {
            return (.constant(abs(e - s)), begin)
        }
        var part: VectorTrack?
        switch (start, end) {
        case (.constant(let s), .track(let e)): part = e.mapped(offset: -s)
        case (.track(let s), .constant(let e)): part = s.mapped(scale: -1, offset: e)
        case (.track(let s), .track(let e)): part = VectorTrack.difference(e, s)
        default: part = nil
        }
        if let p = part, p.range.lowerBound >= 0, clamped(start), clamped(end),
            let begin = VectorValue.sum(start, offset)
        {
            return (.of(p), begin)
        }
        try meter.keys(2 * (scene.frames + 1), at: path)
        func at(_ t: Rational) -> (Double, Double) {
            let s = min(1, max(0, start.value(at: t)))
            let e = min(1, max(0, end.value(at: t)))
            return (abs(e - s), min(s, e) + offset.value(at: t))
        }
        let tolerance = 0.5 / 1000
        return (
            .of(VectorTrack.sampled(loop: scene.loop, frames: scene.frames, tolerance: tolerance) { at($0).0 }),
            .of(VectorTrack.sampled(loop: scene.loop, frames: scene.frames, tolerance: tolerance) { at($0).1 })
        )
    }
}
