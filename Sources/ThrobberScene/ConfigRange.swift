import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// What each kind of number in a config may be, checked when the config is
/// read: a number outside is refused as out of range, naming the range.
/// Each range is far wider than a loader uses and narrow enough that every
/// sum and product the renderer and the vector writers make of them stays
/// finite and short to write (a canvas is at most 4096 pixels a side,
/// 16 pixels a point, and ``SceneBudget/maxExtent`` bounds what is drawn).
enum ConfigRange {
    /// Positions, offsets and moves in points, either way: at 16 pixels a
    /// point 1.6·10⁶ pixels, well inside cairo's 24.8 fixed point (8·10⁶).
    static let position = Rational(100_000)
    /// Sizes in points (radius, width, height, corner, stroke width, the
    /// radius of a repeat's circle): the same bound as positions.
    static let length = Rational(100_000)
    /// Angles in degrees, either way: 2,777 turns.
    static let angle = Rational(1_000_000)
    /// Factors, either way: scales and opacity values (an opacity is
    /// clamped to 0…1 once multiplied, so only its curve goes beyond).
    static let factor = Rational(10_000)
    /// Times in seconds: periods, key times, delays, the timing's step,
    /// duration and start (11 days; a cycle is at most 1000 frames).
    static let seconds = Rational(1_000_000)
    /// The y coordinates of a `cubic-bezier()` control point, either way:
    /// CSS overshoots use −1…2; this keeps value · y finite and short.
    static let bezierY = 100.0
    /// Most jumps of `steps(n)`: a cycle is at most ``SceneClock/maxFrames``
    /// frames, so no more steps of one segment can ever be shown; a vector
    /// file writes each as a hold keyframe.
    static let maxSteps = SceneClock.maxFrames

    /// The range of a value of `property` (its keyframe values, a step's
    /// `from`, `by` and `bounce`), and its unit.
    /// On a path, `start`, `end` and `offset` are fractions of its length
    /// (`d` has path data, not numbers).
    static func of(_ property: AnimatedProperty, onPath: Bool = false) -> (ClosedRange<Rational>, String) {
        switch property {
        case .start where onPath, .end where onPath: ((Rational(0))...Rational(1), "of the length")
        case .rotate, .rotateY, .start, .end: (symmetric(angle), "degrees")
        case .translateX, .translateY: (symmetric(position), "points")
        case .scale, .scaleX, .scaleY, .opacity, .offset, .d: (symmetric(factor), "")
        }
    }

    /// −`bound`…`bound`.
    static func symmetric(_ bound: Rational) -> ClosedRange<Rational> { (Rational(0) - bound)...bound }
}
