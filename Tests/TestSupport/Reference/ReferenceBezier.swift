/// Expected values for both test targets, computed independently of
/// Throbber's own code (no code shared with ThrobberKit's Easing).

/// A cubic Bézier timing function (CSS): x(s) is inverted by bisection to
/// 1e-13, no tables, no shortcuts.
public struct ReferenceBezier: Sendable {
    public var x1: Double, y1: Double, x2: Double, y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public static let ease = ReferenceBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
    public static let easeIn = ReferenceBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
    public static let easeOut = ReferenceBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
    public static let easeInOut = ReferenceBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)

    private static func coordinate(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
    }

    public func callAsFunction(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var lo = 0.0
        var hi = 1.0
        while hi - lo > 1e-13 {
            let mid = (lo + hi) / 2
            if ReferenceBezier.coordinate(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return ReferenceBezier.coordinate((lo + hi) / 2, y1, y2)
    }

    /// GQCircleLoadView's dot scale `u` seconds into its own 0.75 s cycle
    /// (the third seed article's loader): 1 → 1.5 → 1, 0.25 s each way, ease-out, then rest.
    public static func gqScale(_ u: Double) -> Double {
        var p = u.truncatingRemainder(dividingBy: 0.75)
        if p < 0 { p += 0.75 }
        if p < 0.25 { return 1 + 0.5 * easeOut(p / 0.25) }
        if p < 0.5 { return 1.5 - 0.5 * easeOut((p - 0.25) / 0.25) }
        return 1
    }
}
