import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Animated properties (man throbber, CONFIG FORMAT: animations).
public enum AnimatedProperty: String, CaseIterable, Sendable {
    /// Degrees, clockwise on screen; added to the layer's `rotate`.
    case rotate
    /// Degrees about the vertical axis, drawn as a horizontal scale by
    /// cos θ (a card flip without perspective).
    case rotateY
    /// A factor on both axes; multiplies the layer's `scale`.
    case scale
    /// A factor on the horizontal axis only.
    case scaleX
    /// A factor on the vertical axis only.
    case scaleY
    /// A factor on the layer's opacity; the result is kept in 0…1.
    case opacity
    /// Points to the right, added to the layer's position.
    case translateX
    /// Points downwards, added to the layer's position.
    case translateY
    /// An arc's start angle in degrees (0 at 12 o'clock, clockwise), or
    /// where a path's stroke starts, in fractions of its length; replaces
    /// the layer's own. Arc and path layers only.
    case start
    /// An arc's end angle in degrees, or where a path's stroke ends, in
    /// fractions of its length; replaces the layer's own. Arc and path layers only.
    case end
    /// How far a path's trimmed stroke is moved along it, in fractions of
    /// its length (1: once round); replaces the path's own. Path layers only.
    case offset
    /// A path's shape: keys whose values are path data of the same
    /// commands, morphed point by point. The animation's value is the key
    /// index (2.5: halfway from the third key's shape to the fourth's).
    /// Path layers only, `keyframes` only.
    case d
}
