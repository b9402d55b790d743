import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

extension ConfigDecoder {
    /// Longest `title`, in characters.
    public static let maxTitleLength = 200

    /// Reads `title` and `motion` of the config `top` into `config`.
    static func readPresentation(_ top: ConfigReader.Object, _ r: ConfigReader, into config: inout SceneConfig) throws {
        config.title = try top.optional("title") { node, path in
            let s = try r.string(node, path)
            guard !s.isEmpty, s.count <= maxTitleLength, !s.unicodeScalars.contains(where: { $0.value < 32 }) else {
                throw r.error(path, "a title is 1 to \(maxTitleLength) characters on one line")
            }
            return s
        }
        // A `motion` without `reduced` reduces nothing: nil either way.
        config.reducedMotion =
            try top.optional("motion") { node, path -> ReducedMotion? in
                let o = try r.object(node, path)
                let reduced = try o.optional("reduced") { node, path -> ReducedMotion in
                    let m = try r.object(node, path)
                    let keys = m.members.map(\.key)
                    guard keys.count == 1, let key = keys.first, ["speed", "hold"].contains(key) else {
                        throw r.error(
                            path,
                            "expected {\"speed\": FACTOR} (the loop slowed down) or {\"hold\": SECONDS} (one still frame)"
                        )
                    }
                    if key == "speed" {
                        return .speed(
                            try m.required("speed") { node, path in
                                let v = try r.number(node, path, above: Rational(0), atMost: Rational(1))
                                guard v < Rational(1), v.denominator <= 1000 else {
                                    throw r.error(
                                        path, "expected a factor below 1 with at most 3 decimals, like 0.25, got \(v)")
                                }
                                return v
                            })
                    }
                    return .hold(
                        try m.required("hold") {
                            try r.number($0, $1, atLeast: Rational(0), atMost: ConfigRange.seconds)
                        })
                }
                try o.finish(allowed: ["reduced"])
                return reduced
            }.flatMap { $0 }
    }
}

extension SceneConfig {
    /// The config drawn with `scheme`'s theme values: every layer and the
    /// canvas that use a theme name get its value, and the theme keeps
    /// only that scheme (a file made from it has no other).
    public func themed(_ scheme: SceneTheme.Scheme) -> SceneConfig {
        guard scheme == .dark, theme.hasDark else { return self }
        var config = self
        config.theme.entries = theme.entries.map { e in
            var e = e
            e.light = e.color(.dark)
            e.dark = nil
            return e
        }
        let theme = config.theme
        func recolor(_ layer: Layer) -> Layer {
            var layer = layer
            if let name = layer.fillName, let e = theme[name] { layer.fill = e.light }
            if let name = layer.strokeName, let e = theme[name] { layer.stroke = e.light }
            if case .group(let children) = layer.kind { layer.kind = .group(children.map(recolor)) }
            return layer
        }
        if let name = canvas.backgroundName, let e = theme[name] { config.canvas.background = e.light }
        if case .layers(let layers) = content { config.content = .layers(layers.map(recolor)) }
        return config
    }
}
