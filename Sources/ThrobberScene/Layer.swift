import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// One layer of a procedural scene (man throbber, CONFIG FORMAT: layers).
public struct Layer: Sendable {
    /// What the layer draws. Sizes are in points, centered on the layer's
    /// position.
    public enum Kind: Sendable {
        /// A picture at its point size (pixels divided by its @Nx scale).
        case image(SceneImage)
        /// A disc of `radius` points, filled with ``Layer/fill``.
        case circle(radius: Double)
        /// An arc stroked with ``Layer/stroke``.
        case arc(Arc)
        /// A rectangle filled with ``Layer/fill``, its corners rounded with
        /// radius `corner` (0: square; at most half the shorter side).
        case rect(width: Double, height: Double, corner: Double)
        /// A shape from SVG path data, or a glyph of a text layer.
        case path(ScenePath)
        /// A Lottie animation drawn by rlottie at its `w`×`h` in points,
        /// playing on the scene's clock.
        case lottie(SceneLottie)
        /// Child layers drawn in order (first = bottom), with this layer's
        /// transform, opacity and animations applied to them all.
        case group([Layer])
    }

    /// An arc of a circle, stroked.
    public struct Arc: Sendable {
        /// Radius of the stroke's center line, in points.
        public var radius: Double
        /// Degrees, 0 at 12 o'clock, clockwise.
        public var start = 0.0, end = 360.0
        /// Stroke width in points; default 2.
        public var width = 2.0
        /// Round line caps when true, butt caps (the default) when false.
        public var roundCap = false
    }

    /// `repeat`: the layer drawn `count` times, each copy moved (and its
    /// animations delayed) a little more than the one before.
    public struct Repeat: Sendable {
        /// How many copies, 1…1000.
        public var count: Int
        /// (dx, dy) in points: copy i is moved by i times this, so copy 0
        /// stays where the layer is.
        public var offset: (Double, Double)?
        /// Radius in points of a circle the copies are spread around, copy i
        /// at i · 360°/count clockwise from 12 o'clock.
        public var around: Double?
        /// Degrees each copy turns; nil with `around`: face outward.
        public var turn: Double?
        /// Seconds each copy's animations start later.
        public var delay = Rational(0)
    }

    /// What the layer draws.
    public var kind: Kind
    /// In points; nil: the canvas center.
    public var center: (Double, Double)?
    /// 0 (invisible) to 1 (opaque, the default); a group is faded as a whole.
    public var opacity = 1.0
    /// Degrees, clockwise, about ``center``; default 0.
    public var rotate = 0.0
    /// A factor about ``center``; default 1.
    public var scale = 1.0
    /// The color of circles and rectangles; default opaque black.
    public var fill = Color(r: 0, g: 0, b: 0)
    /// The color of arcs; default opaque black.
    public var stroke = Color(r: 0, g: 0, b: 0)
    /// A text layer's words, which vector files keep as the drawing's
    /// accessible name (the glyphs are outlines); nil for other layers.
    public var text: String?
    /// The theme names `fill` and `stroke` were given as; nil: a color.
    public var fillName: String?, strokeName: String?
    /// Animations applied on top of the static values, in order.
    public var animations: [Animation] = []
    /// Copies of the layer (`repeat`); nil: drawn once.
    public var repeats: Repeat?
    /// Where a `repeat` copy moved, in points (not a config key): applied
    /// before the layer's own transform, so a group's children move too.
    var displacement = (0.0, 0.0)
}
