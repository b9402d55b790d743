import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// `keyframes`: CSS-like keys within a period; `ease` applies to the segment
/// starting at its key; the value holds before the first and after the last.
public struct KeyframeAnimation: Sendable {
    /// One keyframe.
    public struct Key: Sendable {
        /// Seconds into the period, 0 ≤ at ≤ period.
        public var at: Rational
        /// The property's value at this key, in the property's unit.
        public var value: Double
        /// The easing of the segment from this key to the next (default linear).
        public var ease: Easing
    }
    /// Length of one repetition in seconds, above 0.
    public var period: Rational
    /// The keys, at least one, in time order (two may share a time, for a jump).
    public var keys: [Key]

    func value(at u: Rational) -> Double {
        let p = u.modulo(period)
        guard let first = keys.first, let last = keys.last else { return 0 }
        if !(first.at < p) { return first.value }
        if !(p < last.at) { return last.value }
        var i = 0
        while !(p < keys[i + 1].at) { i += 1 }
        let a = keys[i]
        let b = keys[i + 1]
        let x = ((p - a.at) / (b.at - a.at)).doubleValue
        return a.value + (b.value - a.value) * a.ease.apply(x)
    }
}
