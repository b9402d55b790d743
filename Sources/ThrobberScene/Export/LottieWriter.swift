import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Writes a ``VectorScene`` as a Lottie (Bodymovin) animation.
///
/// Shapes, and groups of shapes not faded as a whole, are shape layers:
/// the outermost level of a node's transform chain on the layer, each
/// further level a shape group's transform around what it holds (Lottie's
/// transforms are the same translate · rotate · scale · −anchor as a
/// level), so that players without null layers draw them. A picture, an
/// embedded Lottie file and a group faded as a whole need a layer of their
/// own: their chains are null layers parented one in the next. Frame k of the file is
/// frame k of the loop: `fr` is frames over the loop's length, `op` the
/// frame count, keyframe times exact fractions of frames.
///
/// Each layer and asset is written out as JSON text once it is made, so
/// what is held is the file's text, not its objects; `meter` counts it.
struct LottieWriter {
    let scene: VectorScene
    let meter: VectorMeter
    /// The layers and assets made so far, as JSON text.
    var layers: [[UInt8]] = []
    var assets: [[UInt8]] = []
    /// Bytes of JSON text made so far.
    var size = 0
    var nextIndex = 1
    var pictures = VectorPictures()
    /// The composition asset of each embedded Lottie file, by its path.
    var compositions: [String: String] = [:]
    /// The JSON path of the layer being written, for the meter.
    var path = ""

    init(_ scene: VectorScene, meter: VectorMeter) {
        self.scene = scene
        self.meter = meter
    }

    /// The file's bytes: compact JSON.
    func bytes() throws -> [UInt8] {
        var w = self
        // Lottie sizes are whole numbers: a canvas of a fraction of a point
        // is written in pixels, everything inside a transform scaling points to pixels.
        let whole = scene.width.denominator == 1 && scene.height.denominator == 1
        let unit = whole ? 1 : Double(scene.scale)
        let top = whole ? [] : [VectorLevel(scaleX: .constant(unit), scaleY: .constant(unit))]
        // The keys the layers will have, counted before any is made, so
        // that a file over the meter's limit fails at once.
        var keys = 0
        try w.countKeys(scene.nodes, into: &keys)
        if scene.background.a > 0 {
            // A rectangle of the canvas under everything (a shape layer, which every player draws).
            let (width, height) = (scene.width.doubleValue, scene.height.doubleValue)
            let canvas = VectorScene.Node(
                levels: [VectorLevel(x: .constant(width / 2), y: .constant(height / 2))],
                content: .rect(width: width, height: height, corner: 0, fill: scene.background),
                path: "canvas.background", paintName: scene.backgroundName)
            try w.add(canvas, parent: nil, outer: top)
        }
        for node in scene.nodes { try w.add(node, parent: nil, outer: top) }
        let fps = Rational(Int64(scene.frames)) / scene.loop
        var out = LottieWriter.text(
            [
                ("v", .string("5.7.0")), ("fr", .number(VectorText.number(fps.doubleValue, VectorText.timeDigits))),
                ("ip", .number("0")), ("op", .number("\(scene.frames)")),
                ("w", .number(VectorText.length(scene.width.doubleValue * unit))),
                ("h", .number(VectorText.length(scene.height.doubleValue * unit))), ("ddd", .number("0")),
            ]
                + (LottieWriter.slots(scene).map { [$0] } ?? []),
            // Lottie draws its first layer on top; the scene lists the bottom first.
            then: [("assets", w.assets), ("layers", w.layers.reversed())])
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// The JSON text of an object of `members`, then of arrays whose
    /// elements are JSON text already, as ``JSONText`` writes them.
    static func text(_ members: [(String, JSON)], then arrays: [(String, [[UInt8]])]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(arrays.reduce(256) { $0 + $1.1.reduce(0) { $0 + $1.count + 1 } })
        JSONText.write(object(members), to: &out)
        out.removeLast()  // the closing brace: the arrays follow
        for (key, elements) in arrays {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            JSONText.write(.string(key), to: &out)
            out += [UInt8(ascii: ":"), UInt8(ascii: "[")]
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out += e
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Writes out `layer` as JSON text and counts it.
    mutating func append(layer: JSON) throws {
        layers.append(try written(layer))
    }

    /// Writes out `asset` as JSON text and counts it.
    mutating func append(asset: JSON) throws {
        assets.append(try written(asset))
    }

    private mutating func written(_ json: JSON) throws -> [UInt8] {
        var out: [UInt8] = []
        JSONText.write(json, to: &out)
        size += out.count + 1
        try meter.written(size, at: path)
        return out
    }

    // MARK: Layers

    /// Adds the layers drawing `node` inside the transforms `outer` (of
    /// the groups holding it, outermost first) under the layer `parent`.
    /// Shapes and the groups holding only shapes are one shape layer each,
    /// their transforms shape groups (``addShapes(_:parent:outer:)``); a
    /// picture, a Lottie file and a group faded as a whole are layers
    /// whose chain is null layers parented one in the next, and each
    /// carries the product of its chain's opacities.
    mutating func add(_ node: VectorScene.Node, parent: Int?, outer: [VectorLevel]) throws {
        path = node.path
        if LottieWriter.shapesOnly(node) {
            try addShapes(node, parent: parent, outer: outer)
            return
        }
        var levels = outer + node.levels
        let opacity = try product(levels.map(\.opacity))
        for i in levels.indices { levels[i].opacity = .constant(1) }
        switch node.content {
        case .group(let children) where !LottieWriter.faded(node):
            for child in children { try add(child, parent: parent, outer: outer + node.levels) }
            return
        case .group(let children):
            try addFaded(children, levels: VectorLevel.simplified(levels), parent: parent, opacity: opacity)
            return
        case .image(let picture):
            let w = Double(picture.image.width)
            let h = Double(picture.image.height)
            let s = 1 / Double(picture.pixelScale)
            levels.append(VectorLevel(scaleX: .constant(s), scaleY: .constant(s), anchorX: w / 2, anchorY: h / 2))
        case .lottie(let lottie, _):
            let w = Double(lottie.file.width)
            let h = Double(lottie.file.height)
            levels.append(VectorLevel(anchorX: w / 2, anchorY: h / 2))
        default: break
        }
        levels = VectorLevel.simplified(levels)
        let own = levels.popLast() ?? VectorLevel()
        let inner = try nulls(levels, parent: parent)
        var members = header(type: leafType(node.content), parent: inner)
        members.append(("ks", try transform(own, opacity: opacity)))
        members += try content(node)
        try append(layer: LottieWriter.object(members))
    }

    /// A group faded as a whole (its overlaps not darker): a precomposition
    /// of `children`, whose layer opacity Lottie applies to the composite,
    /// placed by the group's `levels`.
    private mutating func addFaded(
        _ children: [VectorScene.Node], levels: [VectorLevel], parent: Int?, opacity: VectorValue
    ) throws {
        let (outer, outerIndex, groupPath) = (layers, nextIndex, path)
        (layers, nextIndex) = ([], 1)
        for child in children { try add(child, parent: nil, outer: []) }
        path = groupPath
        let id = "g\(assets.count)"
        // The layers are counted once: as they were made, not again in the asset.
        let composition = LottieWriter.text([("id", .string(id))], then: [("layers", layers.reversed())])
        assets.append(composition)
        size += composition.count + 1 - layers.reduce(0) { $0 + $1.count + 1 }
        (layers, nextIndex) = (outer, outerIndex)
        var levels = levels
        let own = levels.popLast() ?? VectorLevel()
        var members = header(type: 0, parent: try nulls(levels, parent: parent))
        members.append(("ks", try transform(own, opacity: opacity)))
        members += [
            ("refId", .string(id)), ("w", .number(VectorText.length(scene.width.doubleValue))),
            ("h", .number(VectorText.length(scene.height.doubleValue))),
        ]
        try append(layer: LottieWriter.object(members))
    }

    /// Adds to `keys` the keys that the transforms, arcs and Lottie clocks
    /// of `nodes` have laid over the scene's loop (at least this many are
    /// made: opacities, which may be sampled instead, are left out, and an
    /// arc's end counts no more than its samples); `meter` refuses the
    /// first node that takes the sum past its limit.
    func countKeys(_ nodes: [VectorScene.Node], into keys: inout Int) throws {
        func count(_ track: VectorTrack) -> Int { track.unrolledKeyCount(over: scene.loop, holds: true) }
        for node in nodes {
            var n = 0
            for level in node.levels {
                n += [level.x, level.y, level.rotate, level.scaleX].compactMap(\.track).reduce(0) { $0 + count($1) }
                if let y = level.scaleY.track, y != level.scaleX.track { n += count(y) }
            }
            switch node.content {
            case .arc(_, _, _, _, let start, let end):
                n += (start.track.map(count) ?? 0) + min(end.track.map(count) ?? 0, scene.frames + 1)
            case .lottie(_, let time): n += count(time)
            case .group(let children): try countKeys(children, into: &keys)
            default: break
            }
            keys = min(Int.max >> 12, keys + n)
            try meter.expect(keys: keys, at: node.path)
        }
    }

    /// How many layers draw something among `nodes`, groups counted by their children.
    static func drawn(_ nodes: [VectorScene.Node]) -> Int {
        nodes.reduce(0) { n, node in
            if case .group(let children) = node.content { return n + drawn(children) }
            return n + 1
        }
    }

    private func leafType(_ content: VectorScene.Content) -> Int {
        switch content {
        case .image: 2
        case .lottie: 0
        default: 4
        }
    }

    /// Null layers for `levels`, each the parent of the next; the index of
    /// the innermost (or `parent` when there are none).
    private mutating func nulls(_ levels: [VectorLevel], parent: Int?) throws -> Int? {
        var parent = parent
        for level in levels {
            var members = header(type: 3, parent: parent)
            members.append(("ks", try transform(level, opacity: .constant(1))))
            try append(layer: LottieWriter.object(members))
            parent = nextIndex - 1
        }
        return parent
    }

    /// The members every layer starts with; takes the next layer index.
    mutating func header(type: Int, parent: Int?) -> [(String, JSON)] {
        // "ddd": 0 says 2D: without it rlottie reads no "r" rotation.
        var m: [(String, JSON)] = [("ddd", .number("0")), ("ty", .number("\(type)")), ("ind", .number("\(nextIndex)"))]
        if let parent { m.append(("parent", .number("\(parent)"))) }
        m += [("ip", .number("0")), ("op", .number("\(scene.frames)")), ("st", .number("0"))]
        nextIndex += 1
        return m
    }

    /// The product of a chain's opacities: exact when at most one is
    /// animated, else sampled within half an 8-bit level.
    private func product(_ values: [VectorValue]) throws -> VectorValue {
        let fixed = values.reduce(1.0) { $0 * ($1.track == nil ? $1.value(at: 0) : 1) }
        let tracks = values.compactMap(\.track)
        switch tracks.count {
        case 0: return .constant(fixed)
        case 1: return .track(tracks[0].mapped(scale: fixed))
        default:
            try meter.keys(scene.frames + 1, at: path)
            return .of(
                VectorTrack.sampled(loop: scene.loop, frames: scene.frames, tolerance: VectorScene.opacityTolerance) {
                    t in tracks.reduce(fixed) { $0 * $1.value(at: t) }
                })
        }
    }

    /// A layer transform (`ks`), or with `type` a shape group's (`tr`):
    /// anchor, position, scale in percent, rotation in degrees clockwise,
    /// opacity in percent.
    func transform(_ level: VectorLevel, opacity: VectorValue, type: String? = nil) throws -> JSON {
        var m: [(String, JSON)] = type.map { [("ty", .string($0))] } ?? []
        m.append(
            (
                "a",
                .object([("a", wrap(.number("0"))), ("k", wrap(pair(level.anchorX, level.anchorY, VectorText.length)))])
            ))
        m.append(("p", try position(level.x, level.y)))
        m.append(("s", try vector(level.scaleX, level.scaleY, scale: 100, digits: VectorText.factorDigits - 2)))
        m.append(("r", try value(level.rotate, scale: 1, digits: VectorText.factorDigits, turns: true)))
        m.append(("o", try value(opacity, scale: 100, digits: VectorText.factorDigits - 2, turns: false)))
        return LottieWriter.object(m)
    }
}
