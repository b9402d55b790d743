import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// A config file (version 1 of the format in man throbber, CONFIG FORMAT) after validation: every value has
/// its type, defaults are filled in, paths are resolved.
public struct SceneConfig: Sendable {
    /// `canvas`: size, pixel scale and background.
    public struct Canvas: Sendable {
        /// In points; nil for `frames` configs (taken from the first frame).
        public var width: Rational?, height: Rational?
        /// Pixels per point.
        public var scale = 1
        /// Painted under the layers, or composited under the frames; default
        /// transparent.
        public var background = Color.transparent
        /// The theme name `background` was given as; nil: a color.
        public var backgroundName: String?
    }

    /// `timing`: how time is sampled into frames.
    public struct Timing: Sendable {
        /// Frames sampled per second, above 0 and at most 1000; default 25
        /// (GIF accepts at most 50 when encoding).
        public var fps = Rational(25)
        /// Length of one step of a `step` animation, in seconds.
        public var step = Rational(1, 4)
        /// Length of one cycle; nil: the least common multiple of the periods.
        public var duration: Rational?
        /// Seconds into the cycle of the frame shown first (the frame
        /// nearest that time): the loop is rotated, not changed, so viewers
        /// that show only the first frame show that one. nil: from 0.
        public var start: Rational?
        /// How many times as fast the scene plays, above 0 and at most
        /// ``ConfigDecoder/maxSpeed``, in thousandths at the finest; default
        /// 1. Every time of the config (periods, key times, delays, `step`,
        /// `duration`, `start`, a Lottie layer's loop, `frames.delays`) is
        /// divided by it exactly; `fps` counts the frames of a second
        /// played, so it is not.
        public var speed = Rational(1)
    }

    /// `duplicate`: how many times frames are shown in a row.
    public enum Duplicate: Equatable, Sendable {
        /// Every frame shown this many times (1…1000); default 1.
        case every(Int)
        /// Frame i shown `counts[i]` times; one count per frame.
        case perFrame([Int])
    }

    /// `frames`: a folder of frame images instead of layers.
    public struct Frames: Sendable {
        /// Resolved against the config's folder.
        public var dir: String
        /// A shell pattern picking the folder's files; nil: its PNG, JPEG
        /// and GIF files.
        public var glob: String?
        /// The order of the files; default natural.
        public var sort = FrameSort.natural
        /// Per-frame centiseconds, overriding fps.
        public var delays: [Int]?
    }

    /// What the frames come from: exactly one of `layers` and `frames`.
    public enum Content: Sendable {
        /// A scene drawn at each frame's time; the first layer is the bottom.
        case layers([Layer])
        /// Frame images read from a folder.
        case frames(Frames)
    }

    /// `encode`: palette and quality settings, as for `throbber encode`.
    public struct Encode: Equatable, Sendable {
        /// libimagequant quality 1…100; nil: lossless when every frame fits
        /// in 256 colors.
        public var quality: Int?
        /// Dithering strength 0…1; default 1.
        public var dither = 1.0
        /// GIF: most colors per palette (default 256). APNG: given, it asks
        /// for a palette APNG of this many colors (default: truecolor).
        public var colors: Int?
        /// The page color GIF composites partial alpha onto; nil: alpha is
        /// cut at 50%.
        public var matte: Color?
        /// GIF lossy LZW 0…200 (default 0, off); APNG ignores it.
        public var lossy = 0
    }

    /// One entry of `output`: where `throbber render` writes without `-o`.
    public struct Output: Equatable, Sendable {
        /// Resolved against the config's folder.
        public var path: String
        /// `"gif"`, `"apng"`, `"webp"`, `"lottie"`, `"dotlottie"` or `"svg"`; nil: from the path's extension.
        public var format: String?
    }

    /// The config file, for messages; its folder anchors relative paths.
    public var file: String
    /// Size, scale and background.
    public var canvas = Canvas()
    /// Frame rate, step length and cycle length.
    public var timing = Timing()
    /// 0 = forever (the default), N = play N times; at most 65535.
    public var loop = 0
    /// Play forward, then backward without repeating the end frames.
    public var bounce = false
    /// How many times frames are shown in a row.
    public var duplicate = Duplicate.every(1)
    /// The layers to draw, or the frame folder to read.
    public var content: Content
    /// Palette and quality settings.
    public var encode = Encode()
    /// The config's own `output` list; empty when it has none.
    public var outputs: [Output] = []
    /// Named colors the layers and canvas may use.
    public var theme = SceneTheme()
    /// The loader's accessible name (an SVG's `<title>`); nil: "Loading".
    public var title: String?
    /// `motion.reduced`: what plays where less motion is asked for; nil:
    /// the same loop.
    public var reducedMotion: ReducedMotion?

    /// The accessible name written into vector files: `title`, else the
    /// words of its text layers, else "Loading".
    public var accessibleName: String {
        if let title { return title }
        guard case .layers(let layers) = content else { return "Loading" }
        let words = SceneConfig.texts(layers)
        return words.isEmpty ? "Loading" : words.joined(separator: " ")
    }

    /// The font files the text layers are drawn from, each once, in layer order.
    public var fontFiles: [String] {
        guard case .layers(let layers) = content else { return [] }
        var out: [String] = []
        func visit(_ layers: [Layer]) {
            for layer in layers {
                switch layer.kind {
                case .path(let p): if let f = p.font, !out.contains(f) { out.append(f) }
                case .group(let children): visit(children)
                default: break
                }
            }
        }
        visit(layers)
        return out
    }

    private static func texts(_ layers: [Layer]) -> [String] {
        layers.flatMap { layer -> [String] in
            if let text = layer.text { return [text] }
            if case .group(let children) = layer.kind { return texts(children) }
            return []
        }
    }
}

/// What a loader does where the viewer asked for less motion
/// (`prefers-reduced-motion: reduce`, `--reduced-motion`).
public enum ReducedMotion: Equatable, Sendable {
    /// The same loop played this many times as fast, above 0 and below 1.
    case speed(Rational)
    /// One still picture: the frame shown this many seconds into the loop.
    case hold(Rational)
}
