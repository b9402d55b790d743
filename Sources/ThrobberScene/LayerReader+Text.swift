import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// `text` layers: words shaped by HarfBuzz from a font file and drawn as
/// their glyph outlines (man throbber, CONFIG FORMAT: text layers).
extension LayerReader {
    /// The keys of a `text` object.
    static let textKeys = ["string", "font", "family", "weight", "size", "align", "letterSpacing", "per", "delay"]
    /// Family names fontconfig resolves to the system's own choice.
    static let genericFamilies = ["sans-serif", "serif", "monospace", "sans", "mono"]

    /// A text layer as read: its outlines whole and glyph by glyph.
    struct Text {
        var string: String
        var whole: ScenePath
        /// Each glyph's outline about its own center, and that center.
        var glyphs: [(shape: ScenePath, center: PathGeometry.Point)]
        /// `per: "glyph"`: one child layer per glyph, each one's
        /// animations `delay` seconds after the one before.
        var perGlyph: Bool
        var delay: Rational
    }

    /// The layer of the object `o` whose kind key is `text`.
    func textLayer(_ o: ConfigReader.Object) throws -> Layer {
        let text = try o.required("text", text)
        var layer = try common(o, kind: .path(text.whole), kindKeys: ["text"])
        layer.text = text.string
        if let i = layer.animations.firstIndex(where: { $0.property == .d }) {
            throw r.error(
                o.child("animate") + "[\(i)].property",
                "a text layer's shape is its words; \"d\" is animated on a path layer")
        }
        guard text.perGlyph, case .path(let whole) = layer.kind else { return layer }
        // One child per glyph: the layer's paint and animations, each
        // glyph's started `delay` later; the group keeps the transform.
        var children: [Layer] = []
        for (i, glyph) in text.glyphs.enumerated() {
            var shape = glyph.shape
            (shape.filled, shape.stroked, shape.stroke, shape.trim) = (
                whole.filled, whole.stroked, whole.stroke, whole.trim
            )
            var child = Layer(kind: .path(shape))
            child.center = layer.center
            child.displacement = (glyph.center.x, glyph.center.y)
            (child.fill, child.fillName, child.stroke, child.strokeName) =
                (layer.fill, layer.fillName, layer.stroke, layer.strokeName)
            child.animations = layer.animations.map {
                var a = $0
                a.delay = a.delay + text.delay * Rational(Int64(i))
                return a
            }
            children.append(child)
        }
        layer.kind = .group(children)
        layer.animations = []
        return layer
    }

    /// The `text` object `node` at `path`: shaped now, so a missing font
    /// or glyph fails before anything is drawn.
    private func text(_ node: JSONNode, _ path: String) throws -> Text {
        let o = try r.object(node, path)
        let string = try o.required("string", r.string)
        let weight = try o.optional("weight") { try r.integer($0, $1, in: 1...1000) }
        let file: String
        if let font = try o.optional("font", { try fontFile($0, $1) }) {
            if o.has("family") {
                throw r.error(o.child("family"), "a text has a \"font\" file or a \"family\", not both")
            }
            file = font
        } else {
            let family = try o.optional("family", r.string) ?? "sans-serif"
            do {
                file = try FontLookup.file(
                    family: family, weight: weight, generic: LayerReader.genericFamilies.contains(family.lowercased()))
            } catch {
                throw r.error(o.has("family") ? o.child("family") : path, error.message)
            }
        }
        var options = TextOutliner.Options(
            size: try o.optional("size") {
                try r.number($0, $1, above: Rational(0), atMost: Rational(10_000)).doubleValue
            } ?? 16)
        // A family's weight picks its file; a file's weight sets a variable font's axis.
        if o.has("font") { options.weight = weight }
        options.align =
            try o.optional("align") {
                TextOutliner.Align(rawValue: try r.choice($0, $1, among: ["left", "center", "right"]))!
            } ?? .center
        options.letterSpacing =
            try o.optional("letterSpacing") {
                try r.number($0, $1, in: ConfigRange.symmetric(Rational(10_000)), unit: "points").doubleValue
            } ?? 0
        let perGlyph = try o.optional("per") { try r.choice($0, $1, among: ["glyph", "text"]) == "glyph" } ?? false
        let delay = try o.optional("delay", signedSeconds) ?? Rational(0)
        if o.has("delay") && !perGlyph { throw r.error(o.child("delay"), "a glyph delay needs \"per\": \"glyph\"") }
        try o.finish(allowed: LayerReader.textKeys)
        let result: TextOutliner.Result
        do {
            result = try TextOutliner.outline(string, fontFile: file, options: options)
        } catch {
            throw r.error(o.child("string"), "\(error.message) (font \(file))")
        }
        var all = PathGeometry()
        var glyphs: [(ScenePath, PathGeometry.Point)] = []
        for g in result.glyphs {
            all.subpaths += g.outline.subpaths
            let c = g.center
            var shape = ScenePath(geometry: g.outline.transformed(dx: -c.x, dy: -c.y))
            shape.font = file
            glyphs.append((shape, c))
        }
        var whole = ScenePath(geometry: all)
        whole.font = file
        return Text(string: string, whole: whole, glyphs: glyphs, perGlyph: perGlyph, delay: delay)
    }

    /// A font file a config names: relative to the config's folder and
    /// inside it, or inside a folder fontconfig finds installed fonts in
    /// (symbolic links followed); nothing else.
    private func fontFile(_ node: JSONNode, _ path: String) throws -> String {
        let name = try r.string(node, path)
        let file = resolve(name)
        guard let real = realPath(file) else {
            throw ThrobberError(.noInput, "\(r.file): \(path): no font file \(file)")
        }
        let folders = [base] + FontLookup.fontDirectories()
        let inside = folders.contains { folder in
            guard let root = realPath(folder) else { return false }
            return real.hasPrefix(root == "/" ? "/" : root + "/")
        }
        guard inside else {
            throw r.error(
                path,
                "\(ConfigReader.quoted(name)) is outside the config's folder and the installed fonts' folders; copy the font beside the config, or name an installed font by \"family\""
            )
        }
        return real
    }

    private func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
