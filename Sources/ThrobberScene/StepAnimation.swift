import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// `step`: the value moves by `by` every step, interpolated over the step;
/// with `bounce: [lo, hi]` the direction flips on reaching a bound, as in
/// the seed's EaseLoadingView (but with exact fractions, so 1 − 3·(1/3) is 0).
public struct StepAnimation: Sendable {
    /// The value at the start of step 0, in the property's unit.
    public var from: Rational
    /// How much the value moves each step (negative moves down).
    public var by: Rational
    /// The easing within each step; default linear.
    public var ease: Easing
    /// `bounce: [low, high]`: the direction flips on reaching a bound; nil:
    /// no bounds (angles only, which repeat after a whole number of turns).
    public var bounce: (Rational, Rational)?
    /// Values after 0 … P steps, P being the period in steps.
    package let values: [Rational]
    /// Steps until the values repeat (1…1000): a bounce repeats after
    /// 2·(high − low)/|by| steps, an angle after a whole number of turns.
    public var periodSteps: Int { values.count - 1 }

    /// Most steps a period may have.
    static let maxPeriodSteps = 1000

    /// Fails with a reason when the animation never repeats.
    init(from: Rational, by: Rational, ease: Easing, bounce: (Rational, Rational)?, isAngle: Bool) throws(StepError) {
        self.from = from
        self.by = by
        self.ease = ease
        self.bounce = bounce
        var values = [from]
        if by == Rational(0) {
            values.append(from)
        } else if let (lo, hi) = bounce {
            guard lo < hi else { throw .badBounds }
            func turn(_ v: Rational, _ d: Rational) -> Rational {
                (!(v < hi) && Rational(0) < d) || (!(lo < v) && d < Rational(0)) ? Rational(0) - d : d
            }
            let d0 = turn(from, by)
            var v = from
            var d = by
            repeat {
                d = turn(v, d)
                v = v + d
                values.append(v)
                guard values.count <= StepAnimation.maxPeriodSteps + 1 else { throw .neverRepeats }
            } while !(v == from && turn(v, d) == d0)
        } else if isAngle {
            // Repeats once the sum is a whole number of turns.
            let turns = by / Rational(360)
            guard turns.denominator <= StepAnimation.maxPeriodSteps else { throw .neverRepeats }
            for s in 1...Int(turns.denominator) { values.append(from + by * Rational(s)) }
        } else {
            throw .needsBounce
        }
        self.values = values
    }

    /// Why step values can make no animation; the config reader turns each
    /// into a ``ThrobberError`` with the JSON path.
    public enum StepError: Error {
        /// `bounce` is `[low, high]` with low not below high.
        case badBounds
        /// The values do not come back to the start within 1000 steps.
        case neverRepeats
        /// A property that is not an angle moves without bounds, so never repeats.
        case needsBounce
    }

    /// The value `u` seconds into the animation (any u: it is periodic).
    func value(at u: Rational, step: Rational) -> Double {
        let n = (u / step).floor
        let p = Int64(periodSteps)
        let s = Int(((n % p) + p) % p)
        let fraction = (u - step * Rational(n)) / step
        let a = values[s].doubleValue
        let b = values[s + 1].doubleValue
        return a + (b - a) * ease.apply(fraction.doubleValue)
    }
}
