import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Helps presets draw in design units: a preset is designed on a canvas of
/// `width` × `height` units; `--size` scales units to points, `--speed`
/// becomes `timing.speed` (the design's seconds are written as they are), and
/// colors come from the options or the preset's default.
struct PresetCanvas {
    let options: PresetOptions
    let width: Rational, height: Rational
    /// Points per design unit.
    let k: Rational
    let scale: Int
    let color: Color

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

    var colorJSON: ConfigJSON { .string(color.description) }

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
    func config(fps: Int, step: Rational? = nil, start: Double? = nil, layers: [ConfigJSON]) -> ConfigJSON {
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
            ("layers", .array(layers)),
        ])
    }
}
