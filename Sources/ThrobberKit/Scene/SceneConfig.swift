/// A config file (CONFIG.md, version 1) after validation: every value has
/// its type, defaults are filled in, paths are resolved.
public struct SceneConfig: Sendable {
    public struct Canvas: Sendable {
        /// In points; nil for `frames` configs (taken from the first frame).
        public var width: Rational?, height: Rational?
        /// Pixels per point.
        public var scale = 1
        public var background = Color.transparent
    }

    public struct Timing: Sendable {
        public var fps = Rational(25)
        /// Length of one step of a `step` animation, in seconds.
        public var step = Rational(1, 4)
        /// Length of one cycle; nil: the least common multiple of the periods.
        public var duration: Rational?
    }

    public enum Duplicate: Equatable, Sendable {
        case every(Int)
        case perFrame([Int])
    }

    public struct Frames: Sendable {
        /// Resolved against the config's folder.
        public var dir: String
        public var glob: String?
        public var sort = FrameSort.natural
        /// Per-frame centiseconds, overriding fps.
        public var delays: [Int]?
    }

    public enum Content: Sendable {
        case layers([Layer])
        case frames(Frames)
    }

    public struct Encode: Equatable, Sendable {
        public var quality: Int?
        public var dither = 1.0
        /// GIF: most colors per palette (default 256). APNG: given, it asks
        /// for a palette APNG of this many colors (default: truecolor).
        public var colors: Int?
        public var matte: Color?
    }

    public struct Output: Equatable, Sendable {
        /// Resolved against the config's folder.
        public var path: String
        public var format: String?
    }

    /// The config file, for messages; its folder anchors relative paths.
    public var file: String
    public var canvas = Canvas()
    public var timing = Timing()
    public var loop = 0
    public var bounce = false
    public var duplicate = Duplicate.every(1)
    public var content: Content
    public var encode = Encode()
    public var outputs: [Output] = []
}

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

/// An image layer's picture, decoded once.
public struct SceneImage: Sendable {
    public var path: String
    public var image: RGBAImage
    /// Pixels per point, from an `@2x` / `@3x` name.
    public var pixelScale: Int
}

/// Animated properties (CONFIG.md, "Animations").
public enum AnimatedProperty: String, CaseIterable, Sendable {
    case rotate, rotateY, scale, scaleX, scaleY, opacity, translateX, translateY, start, end
}

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
