import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

extension LottieWriter {
    /// Whether `node` is drawn by shapes alone: a circle, rectangle or arc,
    /// or a group of such nodes that is not faded as a whole.
    static func shapesOnly(_ node: VectorScene.Node) -> Bool {
        switch node.content {
        case .circle, .rect, .arc, .path: true
        case .image, .lottie: false
        case .group(let children): !faded(node) && children.allSatisfy(shapesOnly)
        }
    }

    /// Whether `node` is a group whose opacity must apply to what it draws
    /// as a whole (its overlaps not darker): it has an opacity and draws
    /// more than one thing. A shape group's opacity applies to each thing
    /// it holds, which is the same only for one.
    static func faded(_ node: VectorScene.Node) -> Bool {
        guard case .group(let children) = node.content else { return false }
        return !node.levels.allSatisfy { $0.opacity.isConstant(1) } && drawn(children) >= 2
    }

    /// One shape layer drawing `node` (shapes and groups of them) inside
    /// the transforms `outer`: the chain's outermost level on the layer,
    /// every further level a shape group around what it holds, each level
    /// with its own opacity, a group's children as groups of their own
    /// (so that a fill paints only its own path), the top one first.
    mutating func addShapes(_ node: VectorScene.Node, parent: Int?, outer: [VectorLevel]) throws {
        var levels = VectorLevel.simplified(outer + node.levels)
        let own = levels.isEmpty ? VectorLevel() : levels.removeFirst()
        var members = header(type: 4, parent: parent)
        members.append(("ks", try transform(own, opacity: own.opacity)))
        members.append(("shapes", LottieWriter.array(try shapes(levels[...], node))))
        try append(layer: LottieWriter.object(members))
    }

    /// The shapes drawing `node`'s content inside `levels` (outermost first).
    private mutating func shapes(_ levels: ArraySlice<VectorLevel>, _ node: VectorScene.Node) throws -> [JSON] {
        if let level = levels.first {
            return [try group(try shapes(levels.dropFirst(), node), level)]
        }
        guard case .group(let children) = node.content else {
            return try items(node.content, paintName: node.paintName)
        }
        var out: [JSON] = []
        for child in children.reversed() {
            path = child.path
            out.append(try group(try shapes(child.levels.dropFirst(), child), child.levels.first ?? VectorLevel()))
        }
        return out
    }

    /// A shape group (`gr`) of `items` transformed by `level`.
    private func group(_ items: [JSON], _ level: VectorLevel) throws -> JSON {
        let tr = try transform(level, opacity: level.opacity, type: "tr")
        return LottieWriter.object([("ty", .string("gr")), ("it", LottieWriter.array(items + [tr]))])
    }

    /// A position: a fixed pair, or animated as x and y apart (`"s": true`,
    /// first, as rlottie and ThorVG read it): Qt 6.4 draws an animated
    /// pair along one path through all its keys, timed over the whole
    /// animation, not segment by segment.
    func position(_ x: VectorValue, _ y: VectorValue) throws -> JSON {
        guard x.track != nil || y.track != nil else {
            return LottieWriter.object([
                ("a", .number("0")), ("k", pair(x.value(at: 0), y.value(at: 0), VectorText.length)),
            ])
        }
        return LottieWriter.object([
            ("s", .bool(true)), ("x", try value(x, scale: 1, digits: VectorText.lengthDigits, turns: false)),
            ("y", try value(y, scale: 1, digits: VectorText.lengthDigits, turns: false)),
        ])
    }
}
