import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Theme colors in Lottie: each fill or stroke color given by a theme name
/// carries that name as its slot id (`sid`, the Lottie specification's
/// slots) with the light value in place, and the file's top-level `slots`
/// holds each name's value, so a player that knows slots can swap them
/// and one that does not draws the value in place. A dotLottie archive
/// adds a theme per scheme whose rules set the slots.
extension LottieWriter {
    /// The theme names the drawing uses, in the theme's order.
    static func usedNames(_ scene: VectorScene) -> [SceneTheme.Entry] {
        var used: Set<String> = scene.backgroundName.map { [$0] } ?? []
        func visit(_ nodes: [VectorScene.Node]) {
            for node in nodes {
                if let name = node.paintName { used.insert(name) }
                if case .path(let p) = node.content {
                    for name in [p.fillName, p.strokeName].compactMap({ $0 }) { used.insert(name) }
                }
                if case .group(let children) = node.content { visit(children) }
            }
        }
        visit(scene.nodes)
        return scene.theme.entries.filter { used.contains($0.name) }
    }

    /// A Lottie color property `[r, g, b, 1]` (``color(_:)``) named by a
    /// slot when `name` is a theme name.
    func color(_ c: Color, slot name: String?) -> JSON {
        guard let name, case .object(var members) = color(c) else { return color(c) }
        members.append((key: "sid", value: JSONNode(.string(name))))
        return .object(members)
    }

    /// The top-level `slots` member: each theme name the drawing uses and
    /// its light value; nil when it uses none.
    static func slots(_ scene: VectorScene) -> (String, JSON)? {
        let used = usedNames(scene)
        guard !used.isEmpty else { return nil }
        let values = used.map { e in (e.name, object([("p", object([("a", .number("0")), ("k", channels(e.light))]))]))
        }
        return ("slots", object(values))
    }

    /// The dotLottie themes of `scene`: `light` and `dark`, each a `Color`
    /// rule per theme name the drawing uses (values as the file writes
    /// colors); none when no name has a dark value.
    static func themes(_ scene: VectorScene) -> [DotLottieWriter.Theme] {
        let used = usedNames(scene)
        guard used.contains(where: { $0.dark != nil }) else { return [] }
        return SceneTheme.Scheme.allCases.map { scheme in
            let rules = used.map { e in
                object([("id", .string(e.name)), ("type", .string("Color")), ("value", channels(e.color(scheme)))])
            }
            var out: [UInt8] = []
            JSONText.write(object([("rules", array(rules))]), to: &out)
            return DotLottieWriter.Theme(id: scheme.rawValue, json: out)
        }
    }
}
