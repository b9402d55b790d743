import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// A number of a vector transform: fixed, or animated over the loop.
enum VectorValue: Equatable, Sendable {
    case constant(Double)
    case track(VectorTrack)

    /// The value at loop time `t`.
    func value(at t: Rational) -> Double {
        switch self {
        case .constant(let v): v
        case .track(let track): track.value(at: t)
        }
    }

    /// Whether it is the fixed value `v`.
    func isConstant(_ v: Double) -> Bool { self == .constant(v) }

    /// `track`, or its one value when it never changes.
    static func of(_ track: VectorTrack) -> VectorValue {
        track.isConstant ? .constant(track.keys[0].value) : .track(track)
    }

    /// The animated track, if any.
    var track: VectorTrack? {
        if case .track(let t) = self { return t }
        return nil
    }

    /// a + b, when at most one of them is animated (a sum of two curves
    /// is no single eased curve).
    static func sum(_ a: VectorValue, _ b: VectorValue) -> VectorValue? {
        switch (a, b) {
        case (.constant(let x), .constant(let y)): .constant(x + y)
        case (.constant(let c), .track(let t)), (.track(let t), .constant(let c)): .track(t.mapped(offset: c))
        case (.track, .track): nil
        }
    }

    /// a · b, when at most one of them is animated.
    static func product(_ a: VectorValue, _ b: VectorValue) -> VectorValue? {
        switch (a, b) {
        case (.constant(let x), .constant(let y)): .constant(x * y)
        case (.constant(let c), .track(let t)), (.track(let t), .constant(let c)): .track(t.mapped(scale: c))
        case (.track, .track): nil
        }
    }
}

/// One transform of a layer's chain, as CSS and Lottie apply it:
/// translate(x, y) · rotate(degrees clockwise) · scale(sx, sy) ·
/// translate(−anchor), and an opacity for what it holds. A layer's chain
/// runs from the canvas inward; at most one position value and one scale
/// curve (or the same curve on both axes) is animated per level, so each
/// level is one CSS `transform` animation or one Lottie transform.
struct VectorLevel: Equatable, Sendable {
    var x = VectorValue.constant(0)
    var y = VectorValue.constant(0)
    var rotate = VectorValue.constant(0)
    var scaleX = VectorValue.constant(1)
    var scaleY = VectorValue.constant(1)
    var opacity = VectorValue.constant(1)
    var anchorX = 0.0
    var anchorY = 0.0

    var movesOrigin: Bool { !x.isConstant(0) || !y.isConstant(0) }
    var rotates: Bool { !rotate.isConstant(0) }
    var scales: Bool { !scaleX.isConstant(1) || !scaleY.isConstant(1) }
    var anchored: Bool { anchorX != 0 || anchorY != 0 }
    /// Whether it only sets an opacity (or nothing).
    var isPlacementFree: Bool { !movesOrigin && !rotates && !scales && !anchored }

    /// `outer` then `inner` as one level, when one level can say it: the
    /// inner translation must come before any outer rotation or scale, the
    /// inner rotation before any outer scale, and at most one curve per value.
    static func merged(_ outer: VectorLevel, _ inner: VectorLevel) -> VectorLevel? {
        if outer.anchored && !inner.isPlacementFree { return nil }
        if inner.movesOrigin && (outer.rotates || outer.scales) { return nil }
        if inner.rotates && outer.scales { return nil }
        guard let x = VectorValue.sum(outer.x, inner.x), let y = VectorValue.sum(outer.y, inner.y),
            let rotate = VectorValue.sum(outer.rotate, inner.rotate),
            let scaleX = VectorValue.product(outer.scaleX, inner.scaleX),
            let scaleY = VectorValue.product(outer.scaleY, inner.scaleY),
            let opacity = VectorValue.product(outer.opacity, inner.opacity)
        else { return nil }
        if x.track != nil && y.track != nil { return nil }
        if let sx = scaleX.track, let sy = scaleY.track, sx != sy { return nil }
        var level = VectorLevel(x: x, y: y, rotate: rotate, scaleX: scaleX, scaleY: scaleY, opacity: opacity)
        level.anchorX = outer.anchored ? outer.anchorX : inner.anchorX
        level.anchorY = outer.anchored ? outer.anchorY : inner.anchorY
        return level
    }

    /// `chain` with neighbours merged wherever ``merged(_:_:)`` allows,
    /// and levels that do nothing dropped.
    static func simplified(_ chain: [VectorLevel]) -> [VectorLevel] {
        var out: [VectorLevel] = []
        for level in chain {
            if let last = out.last, let m = merged(last, level) {
                out[out.count - 1] = m
            } else {
                out.append(level)
            }
        }
        return out.filter { $0 != VectorLevel() }
    }
}
