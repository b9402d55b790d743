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
        Easing.curve(
            count: keys.count, at: u.modulo(period), time: { keys[$0].at }, value: { keys[$0].value },
            ease: { keys[$0].ease })
    }
}
