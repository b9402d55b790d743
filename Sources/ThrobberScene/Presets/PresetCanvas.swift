import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Helps presets draw in design units: a preset is designed on a canvas of
/// `width` × `height` units; `--size` scales units to points, `--speed`
/// becomes `timing.speed` (the design's seconds are written as they are), and
/// the loader's color is the theme's `accent`: the options' or the
/// preset's default, with a dark value for dark pages.
struct PresetCanvas {
    let options: PresetOptions
    let width: Rational, height: Rational
    /// Points per design unit.
    let k: Rational
    let scale: Int
    let color: Color
    /// The accent on dark pages; nil: the same as on light ones.
    let darkColor: Color?

    /// `defaultSize` in pixels of the larger side, `defaultScale` pixels per point.
    init(
        _ options: PresetOptions, width: Rational, height: Rational, defaultSize: Int, defaultScale: Int = 1,
        defaultColor: Color
    ) {
        self.options = options
        self.width = width
        self.height = height
        scale = options.scale ?? defaultScale
        let larger = max(width, height)
        k = Rational(Int64(options.size ?? defaultSize)) / (larger * Rational(Int64(scale)))
        color = options.color ?? defaultColor
        let dark = options.darkColor ?? (options.color == nil ? PresetCanvas.forDarkPages(defaultColor) : nil)
        darkColor = dark == color ? nil : dark
    }

    /// A preset's own color as it shows on a dark page: its lightness
    /// turned over (HSL), hue and saturation kept, so a dark gray becomes
    /// a light one and a mid red stays a mid red.
    static func forDarkPages(_ c: Color) -> Color {
        let channels = [c.r, c.g, c.b].map { Double($0) / 255 }
        let lightness = (channels.max()! + channels.min()!) / 2
        // L' = 1 − L keeps the chroma (1 − |2L − 1|)·S, so every channel moves by L' − L.
        let shift = 1 - 2 * lightness
        let v = channels.map { UInt8(max(0, min(255, (($0 + shift) * 255).rounded()))) }
        return Color(r: v[0], g: v[1], b: v[2], a: c.a)
    }

    /// A length in design units, as points.
    func u(_ x: Rational) -> ConfigJSON { .number(x * k) }
    func u(_ x: Int) -> ConfigJSON { u(Rational(x)) }
    func u(_ x: Double) -> ConfigJSON { u(Rational(parsing: "\(x)")!) }
    func point(_ x: Rational, _ y: Rational) -> ConfigJSON { [u(x), u(y)] }
    func point(_ x: Int, _ y: Int) -> ConfigJSON { point(Rational(x), Rational(y)) }

    /// A duration in design seconds (`timing.speed` applies --speed to all).
    func s(_ seconds: Rational) -> ConfigJSON { .number(seconds) }
    func s(_ seconds: Double) -> ConfigJSON { s(Rational(parsing: "\(seconds)")!) }
    func s(_ seconds: Int) -> ConfigJSON { s(Rational(seconds)) }

    /// The loader's color: the theme name the config defines.
    var colorJSON: ConfigJSON { "accent" }

    /// A canvas side: the design length in points, rounded to whole pixels
    /// (a canvas is a whole number of pixels; the other side sets the size).
    private func whole(_ x: Rational) -> ConfigJSON {
        let px = max(1, (x * k * Rational(Int64(scale))).roundedHalfUp)
        return .number(Rational(px, Int64(scale)))
    }

    /// The whole config around `layers`. A transparent background gets a
    /// white matte, so anti-aliased edges look right on a light page.
    /// `start`: seconds into the design's cycle of the frame shown first
    /// (`timing.start`), so a loader that begins empty begins visible.
    /// `reduced`: what plays under reduced motion; default the first frame
    /// held (the one `start` picks, which looks like the loader at rest).
    func config(
        fps: Int, step: Rational? = nil, start: Double? = nil, reduced: ReducedMotion = .hold(Rational(0)),
        layers: [ConfigJSON]
    ) -> ConfigJSON {
        let background = options.background ?? .transparent
        var timing: [(String, ConfigJSON)] = [("fps", .number(options.fps ?? Rational(fps)))]
        if let step { timing.append(("step", s(step))) }
        if let start { timing.append(("start", s(start))) }
        if options.speed != Rational(1) { timing.append(("speed", .number(options.speed))) }
        let matte = background.a == 255 ? background : Color(r: 255, g: 255, b: 255)
        return .object([
            ("version", 1),
            (
                "canvas",
                .object([
                    ("width", whole(width)), ("height", whole(height)), ("scale", .number(Rational(scale))),
                    ("background", .string(background == .transparent ? "transparent" : background.description)),
                ])
            ),
            ("timing", .object(timing)),
            ("encode", .object([("matte", .string(matte.description))])),
            ("theme", .object([("accent", accent)])),
            ("motion", .object([("reduced", motion(reduced))])),
            ("layers", .array(layers)),
        ])
    }

    /// The theme's accent: a color, or its light and dark values.
    private var accent: ConfigJSON {
        guard let darkColor else { return .string(color.description) }
        return .object([("light", .string(color.description)), ("dark", .string(darkColor.description))])
    }

    private func motion(_ reduced: ReducedMotion) -> ConfigJSON {
        switch reduced {
        case .speed(let f): .object([("speed", .number(f))])
        case .hold(let t): .object([("hold", .number(t))])
        }
    }
}
