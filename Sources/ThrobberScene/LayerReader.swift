import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Reads `layers[...]` entries: kind, common transform keys, `repeat` and
/// animations (man throbber, CONFIG FORMAT: layers and animations).
struct LayerReader {
    let r: ConfigReader
    /// `timing.step`, which sets the period of step animations.
    let step: Rational
    /// The names `fill` and `stroke` may use.
    let theme: SceneTheme
    let resolve: (String) -> String
    /// The config's folder, which font files must be inside.
    var base = "."

    static let kinds = ["image", "circle", "arc", "rect", "path", "text", "group", "lottie"]
    static let commonKeys = ["center", "opacity", "rotate", "scale", "animate", "repeat", "fill", "stroke"]

    func layer(_ node: JSONNode, _ path: String) throws -> Layer {
        let o = try r.object(node, path)
        let present = LayerReader.kinds.filter { o.has($0) }
        if o.has("type") {
            // The spelling of issue 13, {"type": "lottie", "src": "x.json"}:
            // the same layer as {"lottie": "x.json"}.
            let type = try o.required("type", r.string)
            guard type == "lottie" else {
                throw r.error(
                    o.child("type"),
                    "only \"lottie\" is written with \"type\" (and \"src\"), got \(ConfigReader.quoted(type)); other layers are written with their kind key, like {\"circle\": {\"radius\": 5}}"
                        + Suggestion.didYouMean(type, among: ["lottie"], quote: "\""))
            }
            if let other = present.first {
                throw r.error(o.child(other), "a layer with \"type\": \"lottie\" has no \"\(other)\" key")
            }
            let kind = try o.required("src", lottie)
            return try common(o, kind: kind, kindKeys: ["type", "src"])
        }
        guard present.count == 1, let kindKey = present.first else {
            let list = LayerReader.kinds.map { "\"\($0)\"" }.joined(separator: ", ")
            // Without a kind, a key that is no layer key is likely a misspelt kind.
            let typo = o.members.map(\.key).first {
                !LayerReader.commonKeys.contains($0) && !Suggestion.nearest(to: $0, among: LayerReader.kinds).isEmpty
            }
            throw r.error(
                path,
                present.isEmpty
                    ? "a layer needs one of \(list)"
                        + (typo.map { Suggestion.didYouMean($0, among: LayerReader.kinds, quote: "\"") } ?? "")
                    : "a layer has exactly one of \(list), found \(present.joined(separator: " and "))")
        }
        if kindKey == "text" { return try textLayer(o) }
        let kind = try o.required(kindKey) { try self.kind(kindKey, $0, $1) }
        return try common(o, kind: kind, kindKeys: [kindKey])
    }

    /// The keys every layer may have, read into a layer of `kind`.
    func common(_ o: ConfigReader.Object, kind: Layer.Kind, kindKeys: [String]) throws -> Layer {
        var layer = Layer(kind: kind)
        layer.center = try o.optional("center", position)
        layer.opacity =
            try o.optional("opacity") { try r.number($0, $1, atLeast: Rational(0), atMost: Rational(1)).doubleValue }
            ?? 1
        layer.rotate = try o.optional("rotate") { try angle($0, $1).doubleValue } ?? 0
        layer.scale =
            try o.optional("scale") {
                try r.number($0, $1, in: ConfigRange.symmetric(ConfigRange.factor), unit: "").doubleValue
            } ?? 1
        if let (color, name) = try o.optional("fill", { try theme.paint($0, $1, r) }) {
            (layer.fill, layer.fillName) = (color, name)
        }
        if let (color, name) = try o.optional("stroke", { try theme.paint($0, $1, r) }) {
            (layer.stroke, layer.strokeName) = (color, name)
        }
        if case .path(var shape) = kind {
            // A path is filled unless only a stroke is given.
            shape.filled = o.has("fill") || !o.has("stroke")
            shape.stroked = o.has("stroke")
            layer.kind = .path(shape)
        }
        if let node = o.node("animate") {
            let path = o.child("animate")
            for (i, item) in try r.array(node, path).enumerated() {
                let (a, morph) = try animation(item, "\(path)[\(i)]", kind: layer.kind)
                if let morph, case .path(var shape) = layer.kind {
                    guard shape.morph.isEmpty else { throw r.error("\(path)[\(i)]", "a path has one \"d\" animation") }
                    shape.morph = morph
                    layer.kind = .path(shape)
                }
                layer.animations.append(a)
            }
        }
        layer.repeats = try o.optional("repeat", repeats)
        try o.finish(allowed: kindKeys + LayerReader.commonKeys)
        return layer
    }

    private func kind(_ key: String, _ node: JSONNode, _ path: String) throws -> Layer.Kind {
        switch key {
        case "image":
            let name = try r.string(node, path)
            let file = resolve(name)
            let image: RGBAImage
            do {
                image = try ImageDecoder.decode(fileAt: file, streams: false)
            } catch let e as ThrobberError {
                throw ThrobberError(e.kind, "\(r.file): \(path): \(e.message)")
            }
            let stem = PathText.deletingExtension(PathText.lastComponent(name))
            let scale = stem.hasSuffix("@3x") ? 3 : stem.hasSuffix("@2x") ? 2 : 1
            return .image(SceneImage(path: file, image: image, pixelScale: scale))
        case "lottie":
            return try lottie(node, path)
        case "circle":
            let o = try r.object(node, path)
            let radius = try o.required("radius", length)
            try o.finish(allowed: ["radius"])
            return .circle(radius: radius)
        case "arc":
            let o = try r.object(node, path)
            var arc = Layer.Arc(radius: try o.required("radius", length))
            arc.start = try o.optional("start") { try angle($0, $1).doubleValue } ?? 0
            arc.end = try o.optional("end") { try angle($0, $1).doubleValue } ?? 360
            arc.width = try o.optional("width", length) ?? 2
            arc.roundCap =
                try o.optional("cap") { node, path in
                    try r.choice(node, path, among: ["round", "butt"]) == "round"
                } ?? false
            try o.finish(allowed: ["radius", "start", "end", "width", "cap"])
            return .arc(arc)
        case "path":
            return try pathKind(node, path)
        case "rect":
            let o = try r.object(node, path)
            let w = try o.required("width", length)
            let h = try o.required("height", length)
            let corner = try o.optional("corner", length) ?? 0
            try o.finish(allowed: ["width", "height", "corner"])
            return .rect(width: w, height: h, corner: corner)
        default:
            let items = try r.array(node, path)
            return .group(try items.enumerated().map { try layer($1, "\(path)[\($0)]") })
        }
    }

    /// A Lottie file (or .tgs), recognised by its content and accepted by
    /// rlottie now, so a bad file fails before anything is drawn.
    private func lottie(_ node: JSONNode, _ path: String) throws -> Layer.Kind {
        let file = resolve(try r.string(node, path))
        do {
            return .lottie(SceneLottie(path: file, file: try LottieFile.read(file, asLayer: true)))
        } catch let e as ThrobberError {
            throw ThrobberError(e.kind, "\(r.file): \(path): \(e.message)")
        }
    }

    /// A size in points: 0…``ConfigRange/length``.
    func length(_ node: JSONNode, _ path: String) throws -> Double {
        try r.number(node, path, in: Rational(0)...ConfigRange.length, unit: "points").doubleValue
    }

    /// A point `[x, y]`, each within ±``ConfigRange/position``.
    func position(_ node: JSONNode, _ path: String) throws -> (Double, Double) {
        let items = try r.array(node, path)
        guard items.count == 2 else { throw r.error(path, "expected [x, y]") }
        let range = ConfigRange.symmetric(ConfigRange.position)
        return (
            try r.number(items[0], path + "[0]", in: range, unit: "points").doubleValue,
            try r.number(items[1], path + "[1]", in: range, unit: "points").doubleValue
        )
    }

    /// An angle in degrees, within ±``ConfigRange/angle``.
    func angle(_ node: JSONNode, _ path: String) throws -> Rational {
        try r.number(node, path, in: ConfigRange.symmetric(ConfigRange.angle), unit: "degrees")
    }

    /// A delay in seconds, within ±``ConfigRange/seconds``.
    func signedSeconds(_ node: JSONNode, _ path: String) throws -> Rational {
        try r.number(node, path, in: ConfigRange.symmetric(ConfigRange.seconds), unit: "seconds")
    }

    private func repeats(_ node: JSONNode, _ path: String) throws -> Layer.Repeat {
        let o = try r.object(node, path)
        var rep = Layer.Repeat(count: try o.required("count") { try r.integer($0, $1, in: 1...1000) })
        rep.offset = try o.optional("offset", position)
        rep.around = try o.optional("around", length)
        rep.turn = try o.optional("turn") { try angle($0, $1).doubleValue }
        rep.delay = try o.optional("delay", signedSeconds) ?? Rational(0)
        try o.finish(allowed: ["count", "offset", "around", "turn", "delay"])
        return rep
    }

    func easing(_ node: JSONNode, _ path: String) throws -> Easing {
        guard case .string(let s) = node.value else {
            throw r.error(path, "expected an easing: \(Easing.syntaxHelp), found \(node.value.kindName)")
        }
        switch Easing.read(s) {
        case .easing(let e): return e
        case .outOfRange(let why): throw r.error(path, "\(ConfigReader.quoted(s)): \(why)")
        case .unknown:
            throw r.error(
                path,
                "expected an easing: \(Easing.syntaxHelp), got \(ConfigReader.quoted(s))"
                    + Suggestion.didYouMean(s, among: Easing.names, quote: "\""))
        }
    }
}
