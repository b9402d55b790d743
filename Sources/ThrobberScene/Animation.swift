import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// One animation of one property.
public struct Animation: Sendable {
    /// How the value changes over time.
    public enum Kind: Sendable {
        /// `"kind": "step"`: a fixed change every `timing.step` seconds.
        case step(StepAnimation)
        /// `"kind": "keyframes"`: CSS-like keys within a period.
        case keyframes(KeyframeAnimation)
    }
    /// The property it animates.
    public var property: AnimatedProperty
    /// Its values over time.
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
