import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// One layer of a procedural scene (CONFIG.md, "Layers").
public struct Layer: Sendable {
    public enum Kind: Sendable {
        case image(SceneImage)
        case circle(radius: Double)
        case arc(Arc)
        case rect(width: Double, height: Double, corner: Double)
        case group([Layer])
    }

    public struct Arc: Sendable {
        public var radius: Double
        /// Degrees, 0 at 12 o'clock, clockwise.
        public var start = 0.0, end = 360.0
        public var width = 2.0
        public var roundCap = false
    }

    public struct Repeat: Sendable {
        public var count: Int
        public var offset: (Double, Double)?
        public var around: Double?
        /// Degrees each copy turns; nil with `around`: face outward.
        public var turn: Double?
        /// Seconds each copy's animations start later.
        public var delay = Rational(0)
    }

    public var kind: Kind
    /// In points; nil: the canvas center.
    public var center: (Double, Double)?
    public var opacity = 1.0
    public var rotate = 0.0
    public var scale = 1.0
    public var fill = Color(r: 0, g: 0, b: 0)
    public var stroke = Color(r: 0, g: 0, b: 0)
    public var animations: [Animation] = []
    public var repeats: Repeat?
    /// Where a `repeat` copy moved, in points (not a config key): applied
    /// before the layer's own transform, so a group's children move too.
    var displacement = (0.0, 0.0)
}
