import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

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
