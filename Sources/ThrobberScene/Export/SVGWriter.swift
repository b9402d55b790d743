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
///
/// The file is safe to inline in a page beside others: every name it
/// defines (keyframes, classes, ids, custom properties) starts with a
/// prefix made from a hash of the file's own text, and every rule is
/// scoped to its root's class. Theme colors are custom properties a page
/// can set (`--throbber-NAME`), with dark values under
/// `prefers-color-scheme: dark`; a config's reduced motion is a
/// `prefers-reduced-motion: reduce` rule; the root is an image named by
/// its `<title>`.
struct SVGWriter {
    let scene: VectorScene
    let meter: VectorMeter
    var rules: [String] = []
    var names: [String: String] = [:]
    /// Bytes of `rules`, `defs` and the animation classes.
    var rulesBytes = 0
    var defsBytes = 0
    var pictures = VectorPictures()
    /// How many times each picture is shown (``VectorPictures/key(_:_:)``).
    var uses: [String: Int] = [:]
    /// The `<image>` elements of pictures shown more than once, each
    /// drawn by `<use>` where it is shown.
    var defs: [String] = []
    /// The animations of each animation class, in class order, and the
    /// class of each list.
    var classes: [[CSSAnimation]] = []
    var classNames: [[CSSAnimation]: String] = [:]
    /// The theme names the drawing uses.
    var usedNames: Set<String> = []

    /// Stands for the file's prefix until the text it is a hash of is
    /// made: a control character, which no XML text may hold.
    static let prefix = "\u{1}"

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
                "<rect width=\"\(VectorText.length(scene.width.doubleValue))\" height=\"\(VectorText.length(scene.height.doubleValue))\"\(w.paint("fill", scene.background, name: scene.backgroundName))/>"
        }
        for node in scene.nodes { try w.emit(node, into: &body) }
        let width = VectorText.length(scene.width.doubleValue)
        let height = VectorText.length(scene.height.doubleValue)
        var head =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
        // A browser lays a fraction of a pixel out as a whole one; centered
        // in it, the drawing would sit half a device pixel off its frames.
        if scene.width.denominator != 1 || scene.height.denominator != 1 { head += " preserveAspectRatio=\"xMinYMin\"" }
        head += " class=\"\(Self.prefix)\" role=\"img\"><title>\(SVGWriter.escaped(scene.title))</title>"
        let style = w.style()
        // Made as bytes at once: the body is held once more, not thrice.
        var out: [UInt8] = []
        out.reserveCapacity(head.utf8.count + style.utf8.count + w.defsBytes + body.utf8.count + 32)
        out += head.utf8
        if !style.isEmpty { out += "<style>\(style)</style>".utf8 }
        if !w.defs.isEmpty {
            out += "<defs>".utf8
            for part in w.defs { out += part.utf8 }
            out += "</defs>".utf8
        }
        out += body.utf8
        out += "</svg>\n".utf8
        return SVGWriter.named(out)
    }

    /// `text` with `&`, `<` and `>` written as XML references.
    static func escaped(_ text: String) -> String {
        var s = ""
        for ch in text {
            switch ch {
            case "&": s += "&amp;"
            case "<": s += "&lt;"
            case ">": s += "&gt;"
            default: s.append(ch)
            }
        }
        return s
    }

    /// `text` with each prefix placeholder replaced by the file's prefix:
    /// `t` and the first 8 hex digits of the SHA-256 of the text, so two
    /// different loaders have different names and the same loader the same.
    static func named(_ text: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(text)
        let name = Array(("t" + hash.finalizeHex().prefix(8)).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 16 * name.count)
        for byte in text {
            if byte == 1 { out += name } else { out.append(byte) }
        }
        return out
    }

    // MARK: Elements

    private mutating func emit(_ node: VectorScene.Node, into body: inout String) throws {
        var open = 0
        if let label = node.label {
            // A text's words: its glyphs are outlines, so the words are its name.
            body += "<g><title>\(SVGWriter.escaped(label))</title>"
            open += 1
        }
        for level in node.levels {
            for element in elements(level) {
                body += "<g" + element + ">"
                open += 1
            }
        }
        switch node.content {
        case .circle(let r, let fill):
            body += "<circle r=\"\(VectorText.length(r))\"\(paint("fill", fill, name: node.paintName))/>"
        case .rect(let w, let h, let corner, let fill):
            let r = min(corner, w / 2, h / 2)
            body +=
                "<rect x=\"\(VectorText.length(-w / 2))\" y=\"\(VectorText.length(-h / 2))\" width=\"\(VectorText.length(w))\" height=\"\(VectorText.length(h))\""
            if r > 0 { body += " rx=\"\(VectorText.length(r))\"" }
            body += paint("fill", fill, name: node.paintName) + "/>"
        case .arc(let radius, let width, let roundCap, let stroke, let start, let end):
            body += try arc(
                radius: radius, width: width, roundCap: roundCap, stroke: stroke, name: node.paintName, start: start,
                end: end, path: node.path)
        case .path(let p):
            body += try pathElements(p, nodePath: node.path)
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
                let id = pictures.names[key] ?? "\(SVGWriter.prefix)-p\(defs.count)"
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

    /// `fill="#rrggbb"` (or `stroke`), with its opacity when not opaque;
    /// for a theme color, its custom property.
    mutating func paint(_ attribute: String, _ c: Color, name: String?) -> String {
        if let name {
            usedNames.insert(name)
            return " style=\"\(attribute):var(--\(SVGWriter.prefix)-\(name))\""
        }
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
            var animations: [CSSAnimation] = []
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
            if !animations.isEmpty { attributes += animationClass(animations) }
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
