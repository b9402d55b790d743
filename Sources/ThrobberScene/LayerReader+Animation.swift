import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// A layer's `animate` entries: step and keyframe animations of its
/// properties, and a path's morph (man throbber, CONFIG FORMAT: animate).
extension LayerReader {
    /// The animation `node` (at `path`) of a layer of kind `layerKind`,
    /// and a `d` animation's key shapes.
    func animation(_ node: JSONNode, _ path: String, kind layerKind: Layer.Kind) throws
        -> (Animation, [PathGeometry]?)
    {
        let o = try r.object(node, path)
        let kindName = try o.required("kind", r.string)
        var onPath = false
        if case .path = layerKind { onPath = true }
        let property = try o.required("property") { node, path -> AnimatedProperty in
            let s = try r.choice(node, path, among: AnimatedProperty.allCases.map(\.rawValue))
            let p = AnimatedProperty(rawValue: s)!
            var onArc = false
            if case .arc = layerKind { onArc = true }
            if (p == .start || p == .end) && !onArc && !onPath {
                throw r.error(path, "\"\(s)\" can only be animated on an arc or a path layer")
            }
            if (p == .offset || p == .d) && !onPath {
                throw r.error(path, "\"\(s)\" can only be animated on a path layer")
            }
            return p
        }
        let delay = try o.optional("delay", signedSeconds) ?? Rational(0)
        if property == .d, case .path(let shape) = layerKind {
            guard kindName == "keyframes" else {
                throw r.error(path + ".kind", "\"d\" is animated by \"keyframes\" whose values are path data")
            }
            let (a, shapes) = try morph(o, path, shape: shape, delay: delay)
            return (a, shapes)
        }
        let (range, unit) = ConfigRange.of(property, onPath: onPath)
        switch kindName {
        case "step":
            return (try stepAnimation(o, path, property: property, delay: delay, onPath: onPath), nil)
        case "keyframes":
            return (try keyframesAnimation(o, property: property, range: range, unit: unit, delay: delay), nil)
        default:
            throw r.error(
                path + ".kind",
                "expected \"step\" or \"keyframes\", got \(ConfigReader.quoted(kindName))"
                    + Suggestion.didYouMean(kindName, among: ["step", "keyframes"], quote: "\""))
        }
    }

    /// The step animation of `property` in `o` (at `path`), after `delay`.
    private func stepAnimation(
        _ o: ConfigReader.Object, _ path: String, property: AnimatedProperty, delay: Rational, onPath: Bool
    ) throws -> Animation {
        let (range, unit) = ConfigRange.of(property, onPath: onPath)
        let from = try o.optional("from") { try r.number($0, $1, in: range, unit: unit) } ?? Rational(0)
        let by = try o.required("by") { try r.number($0, $1, in: range, unit: unit) }
        let ease = try o.optional("ease", easing) ?? .linear
        let bounce = try o.optional("bounce") { node, path -> (Rational, Rational) in
            let items = try r.array(node, path)
            guard items.count == 2 else { throw r.error(path, "expected [low, high]") }
            return (
                try r.number(items[0], path + "[0]", in: range, unit: unit),
                try r.number(items[1], path + "[1]", in: range, unit: unit)
            )
        }
        try o.finish(allowed: ["kind", "property", "from", "by", "ease", "bounce", "delay"])
        do {
            let step = try StepAnimation(
                from: from, by: by, ease: ease, bounce: bounce,
                isAngle: property == .rotate || property == .rotateY
                    || (!onPath && (property == .start || property == .end)))
            return Animation(property: property, kind: .step(step), delay: delay)
        } catch {
            switch error {
            case .badBounds: throw r.error(path + ".bounce", "low must be less than high")
            case .neverRepeats: throw r.error(path, "never repeats within \(StepAnimation.maxPeriodSteps) steps")
            case .needsBounce:
                throw r.error(
                    path, "a step animation of \"\(property.rawValue)\" never repeats; add \"bounce\": [low, high]")
            }
        }
    }

    /// The keyframes animation of `property` in `o`, its values in `range`
    /// (`unit`), after `delay`.
    private func keyframesAnimation(
        _ o: ConfigReader.Object, property: AnimatedProperty, range: ClosedRange<Rational>, unit: String,
        delay: Rational
    ) throws -> Animation {
        let period = try o.required("period") {
            try r.number($0, $1, above: Rational(0), atMost: ConfigRange.seconds)
        }
        let keys = try o.required("keys") { node, path -> [KeyframeAnimation.Key] in
            let items = try r.array(node, path)
            guard !items.isEmpty else { throw r.error(path, "expected at least one key") }
            var keys: [KeyframeAnimation.Key] = []
            for (i, item) in items.enumerated() {
                let kp = "\(path)[\(i)]"
                let k = try r.object(item, kp)
                let at = try k.required("at") { try r.number($0, $1, atLeast: Rational(0), atMost: period) }
                if let prev = keys.last, at < prev.at {
                    throw r.error(kp + ".at", "keys must be in time order (\(at) comes before \(prev.at))")
                }
                let value = try k.required("value") { try r.number($0, $1, in: range, unit: unit).doubleValue }
                let ease = try k.optional("ease", easing) ?? .linear
                try k.finish(allowed: ["at", "value", "ease"])
                keys.append(.init(at: at, value: value, ease: ease))
            }
            return keys
        }
        try o.finish(allowed: ["kind", "property", "period", "keys", "delay"])
        return Animation(
            property: property, kind: .keyframes(KeyframeAnimation(period: period, keys: keys)), delay: delay)
    }
}
