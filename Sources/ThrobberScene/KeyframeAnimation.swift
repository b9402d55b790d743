import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// `keyframes`: CSS-like keys within a period; `ease` applies to the segment
/// starting at its key; the value holds before the first and after the last.
public struct KeyframeAnimation: Sendable {
    public struct Key: Sendable {
        public var at: Rational
        public var value: Double
        public var ease: Easing
    }
    public var period: Rational
    public var keys: [Key]

    func value(at u: Rational) -> Double {
        let p = u.modulo(period)
        guard let first = keys.first, let last = keys.last else { return 0 }
        if !(first.at < p) { return first.value }
        if !(p < last.at) { return last.value }
        var i = 0
        while !(p < keys[i + 1].at) { i += 1 }
        let a = keys[i], b = keys[i + 1]
        let x = ((p - a.at) / (b.at - a.at)).doubleValue
        return a.value + (b.value - a.value) * a.ease.apply(x)
    }
}
