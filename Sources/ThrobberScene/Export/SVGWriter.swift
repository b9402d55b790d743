import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Writes a ``VectorScene`` as one SVG file animated by CSS keyframes in
/// its own `<style>`: each transform level a `<g>`, each animated value
/// one `@keyframes` rule (copies that differ only in delay share it), the
/// easings CSS's own (`cubic-bezier`, `steps`), so browsers draw the same
/// curves the frames show.
struct SVGWriter {
    let scene: VectorScene
    let meter: VectorMeter
    var rules: [String] = []
    var names: [String: String] = [:]
    /// Bytes of `rules` and `defs`.
    var rulesBytes = 0
    var defsBytes = 0
    var pictures = VectorPictures()
    /// How many times each picture is shown (``VectorPictures/key(_:_:)``).
    var uses: [String: Int] = [:]
    /// The `<image>` elements of pictures shown more than once, each
    /// drawn by `<use>` where it is shown.
    var defs: [String] = []

    init(_ scene: VectorScene, meter: VectorMeter) {
        self.scene = scene
        self.meter = meter
    }

    /// The file's bytes.
    func bytes() throws -> [UInt8] {
        var w = self
        w.uses = try w.pictures.uses(in: scene.nodes, file: scene.file, meter: meter)
        var body = ""
        if scene.background.a > 0 {
            body +=
                "<rect width=\"\(VectorText.length(scene.width.doubleValue))\" height=\"\(VectorText.length(scene.height.doubleValue))\"\(w.paint("fill", scene.background))/>"
        }
        for node in scene.nodes { try w.emit(node, into: &body) }
        let width = VectorText.length(scene.width.doubleValue)
        let height = VectorText.length(scene.height.doubleValue)
        var head =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
        // A browser lays a fraction of a pixel out as a whole one; centered
        // in it, the drawing would sit half a device pixel off its frames.
        if scene.width.denominator != 1 || scene.height.denominator != 1 { head += " preserveAspectRatio=\"xMinYMin\"" }
        head += ">"
        // Made as bytes at once: the body is held once more, not thrice.
        var out: [UInt8] = []
        out.reserveCapacity(head.utf8.count + w.rulesBytes + w.defsBytes + body.utf8.count + 32)
        out += head.utf8
        for (tag, parts) in [("style", w.rules), ("defs", w.defs)] where !parts.isEmpty {
            out += "<\(tag)>".utf8
            for part in parts { out += part.utf8 }
            out += "</\(tag)>".utf8
        }
        out += body.utf8
        out += "</svg>\n".utf8
        return out
    }

    // MARK: Elements

    private mutating func emit(_ node: VectorScene.Node, into body: inout String) throws {
        var open = 0
        for level in node.levels {
            for element in elements(level) {
                body += "<g" + element + ">"
                open += 1
            }
        }
        switch node.content {
        case .circle(let r, let fill):
            body += "<circle r=\"\(VectorText.length(r))\"\(paint("fill", fill))/>"
        case .rect(let w, let h, let corner, let fill):
            let r = min(corner, w / 2, h / 2)
            body +=
                "<rect x=\"\(VectorText.length(-w / 2))\" y=\"\(VectorText.length(-h / 2))\" width=\"\(VectorText.length(w))\" height=\"\(VectorText.length(h))\""
            if r > 0 { body += " rx=\"\(VectorText.length(r))\"" }
            body += paint("fill", fill) + "/>"
        case .arc(let radius, let width, let roundCap, let stroke, let start, let end):
            body += try arc(
                radius: radius, width: width, roundCap: roundCap, stroke: stroke, start: start, end: end,
                path: node.path)
        case .image(let picture):
            let w = Double(picture.image.width) / Double(picture.pixelScale)
            let h = Double(picture.image.height) / Double(picture.pixelScale)
            let embedded = try pictures.embed(picture, file: scene.file, path: node.path)
            let uri = embedded.uri
            let image = { (id: String) in
                "<image\(id) x=\"\(VectorText.length(-w / 2))\" y=\"\(VectorText.length(-h / 2))\" width=\"\(VectorText.length(w))\" height=\"\(VectorText.length(h))\" href=\"\(uri)\"/>"
            }
            let key = VectorPictures.key(embedded, picture)
            if uses[key, default: 0] < 2 {
                body += image("")
            } else {
                // Shown more than once: embedded once in <defs>, drawn by <use>.
                let id = pictures.names[key] ?? "p\(defs.count)"
                if pictures.names[key] == nil {
                    pictures.names[key] = id
                    defs.append(image(" id=\"\(id)\""))
                    defsBytes += defs[defs.count - 1].utf8.count
                }
                body += "<use href=\"#\(id)\"/>"
            }
        case .lottie:
            throw ThrobberError(
                .data,
                "\(scene.file): \(node.path).lottie: a Lottie layer cannot be drawn in SVG; export to Lottie (-o loader.json), or render to GIF, APNG or WebP"
            )
        case .group(let children):
            for child in children { try emit(child, into: &body) }
        }
        body += String(repeating: "</g>", count: open)
        try meter.written(body.utf8.count + rulesBytes + defsBytes, at: node.path)
    }

    /// `fill="#rrggbb"` (or `stroke`), with its opacity when not opaque.
    private func paint(_ attribute: String, _ c: Color) -> String {
        var s = " \(attribute)=\"\(VectorText.hex(c))\""
        if c.a < 255 { s += " \(attribute)-opacity=\"\(VectorText.factor(Double(c.a) / 255))\"" }
        return s
    }

    /// One transform function of a level, fixed or animated.
    private struct Function {
        var track: VectorTrack?
        /// The function at value v (the track's, or the fixed one), SVG
        /// attribute syntax or CSS syntax.
        var text: (Double, Bool) -> String
        var fixed: Double
    }

    /// A level's `<g>` attributes: its functions in order, split where a
    /// second curve begins (one CSS `transform` animation per element),
    /// the opacity on the first.
    private mutating func elements(_ level: VectorLevel) -> [String] {
        // Group the functions: a new element where a second curve would join.
        var groups: [[Function]] = []
        for f in SVGWriter.functions(level) {
            if let last = groups.last, f.track == nil || !last.contains(where: { $0.track != nil }) {
                groups[groups.count - 1].append(f)
            } else {
                groups.append([f])
            }
        }
        if groups.isEmpty { groups = [[]] }
        return groups.enumerated().map { i, group in
            var attributes = ""
            var animations: [String] = []
            if let track = group.first(where: { $0.track != nil })?.track {
                animations.append(
                    animation(track) { v in
                        "transform:"
                            + group.map { $0.text($0.track != nil ? v : $0.fixed, true) }.joined(separator: " ")
                    })
            } else if !group.isEmpty {
                attributes += " transform=\"" + group.map { $0.text($0.fixed, false) }.joined(separator: " ") + "\""
            }
            if i == 0 {
                switch level.opacity {
                case .constant(let o) where o != 1: attributes += " opacity=\"\(VectorText.factor(o))\""
                case .track(let t): animations.append(animation(t) { "opacity:\(VectorText.factor($0))" })
                default: break
                }
            }
            if !animations.isEmpty { attributes += " style=\"animation:\(animations.joined(separator: ","))\"" }
            return attributes
        }
    }

    /// A level's transform functions in order: translate, rotate, scale,
    /// the anchor's translate; those that do nothing left out.
    private static func functions(_ level: VectorLevel) -> [Function] {
        var functions: [Function] = []
        func value(_ v: VectorValue) -> (VectorTrack?, Double) {
            switch v {
            case .constant(let c): (nil, c)
            case .track(let t): (t, 0)
            }
        }
        // A function of two values, at most one animated (or one curve on both).
        func pair(_ x: VectorValue, _ y: VectorValue, _ text: @escaping (Double, Double, Bool) -> String) -> Function {
            let (tx, a) = value(x)
            let (ty, b) = value(y)
            return Function(
                track: tx ?? ty, text: { v, css in text(tx != nil ? v : a, ty != nil ? v : b, css) }, fixed: 0)
        }
        func translate(_ a: Double, _ b: Double, _ css: Bool) -> String {
            css
                ? "translate(\(VectorText.length(a))px,\(VectorText.length(b))px)"
                : "translate(\(VectorText.length(a)) \(VectorText.length(b)))"
        }
        if level.movesOrigin { functions.append(pair(level.x, level.y, translate)) }
        if level.rotates {
            let (t, r) = value(level.rotate)
            functions.append(
                Function(track: t, text: { v, css in "rotate(\(VectorText.factor(v))\(css ? "deg" : ""))" }, fixed: r))
        }
        if level.scales {
            functions.append(
                pair(level.scaleX, level.scaleY) { a, b, css in
                    "scale(\(VectorText.factor(a))\(css ? "," : " ")\(VectorText.factor(b)))"
                })
        }
        if level.anchored {
            functions.append(pair(.constant(-level.anchorX), .constant(-level.anchorY), translate))
        }
        return functions
    }
}
