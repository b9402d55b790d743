import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// One animation of one property.
public struct Animation: Sendable {
    public enum Kind: Sendable {
        case step(StepAnimation)
        case keyframes(KeyframeAnimation)
    }
    public var property: AnimatedProperty
    public var kind: Kind
    /// Seconds the animation starts later (repeat copies add to it).
    public var delay = Rational(0)
}

extension Animation {
    /// One period in seconds.
    func period(step: Rational) -> Rational {
        switch kind {
        case .step(let s): return step * Rational(s.periodSteps)
        case .keyframes(let k): return k.period
        }
    }

    /// The value at scene time `t`, `extraDelay` (from repeat copies) added
    /// to the animation's own delay. Steady state: no start-up transient.
    package func value(at t: Rational, extraDelay: Rational, step: Rational) -> Double {
        let u = t - delay - extraDelay
        switch kind {
        case .step(let s): return s.value(at: u, step: step)
        case .keyframes(let k): return k.value(at: u)
        }
    }
}
