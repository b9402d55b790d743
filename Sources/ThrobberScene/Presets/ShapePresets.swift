import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Loaders from the well-known families (NVActivityIndicatorView, SpinKit,
/// loading.io), each drawn on a 100 × 100 unit canvas (a row of dots on
/// 100 × 50). The presets themselves are in the ShapePresets+*.swift files.
enum ShapePresets {
    static let ink = Color(r: 0x55, g: 0x55, b: 0x55)

    static func canvas(
        _ o: PresetOptions, width: Rational = 100, height: Rational = 100,
        color: Color = ink
    ) -> PresetCanvas {
        PresetCanvas(o, width: width, height: height, defaultSize: 64, defaultColor: color)
    }

    static let all: [Preset] = [
        spinner, ring, dualRing, chase, orbit,
        pulse, ripple, heart, squareSpin, grid,
        bars, wave, bounce, ellipsis, pacman,
    ]

    /// One key of a `keyframes` animation: `at` in design seconds (--speed is
    /// the config's `timing.speed`), the value, and the easing of the segment it starts.
    struct Key {
        let at: Double
        let value: ConfigJSON
        let ease: String?

        init(_ at: Double, _ value: ConfigJSON, _ ease: String? = nil) {
            self.at = at
            self.value = value
            self.ease = ease
        }
    }

    /// A `keyframes` animation; `period` and `delay` in design seconds.
    static func keyframes(
        _ c: PresetCanvas, _ property: String, period: Double, delay: Double = 0,
        _ keys: [Key]
    ) -> ConfigJSON {
        var members: [(String, ConfigJSON)] = [
            ("kind", "keyframes"), ("property", .string(property)),
            ("period", c.s(period)),
        ]
        if delay != 0 { members.append(("delay", c.s(delay))) }
        let keyList: [ConfigJSON] = keys.map { k in
            var m: [(String, ConfigJSON)] = [("at", c.s(k.at)), ("value", k.value)]
            if let e = k.ease { m.append(("ease", .string(e))) }
            return .object(m)
        }
        members.append(("keys", .array(keyList)))
        return .object(members)
    }

    /// A value turning steadily from 0 to `by` over `period` (rotate, start, end).
    static func turning(_ c: PresetCanvas, _ property: String = "rotate", by: ConfigJSON, period: Double) -> ConfigJSON
    {
        keyframes(c, property, period: period, [Key(0, 0), Key(period, by)])
    }

    /// Easings written once: gravity (a true parabola: x = s, y = s² and 1 − (1 − s)²)
    /// and Material's standard curve.
    static let gravityIn = "cubic-bezier(0.333333, 0, 0.666667, 0.333333)"
    static let gravityOut = "cubic-bezier(0.333333, 0.666667, 0.666667, 1)"
    static let material = "cubic-bezier(0.4, 0, 0.2, 1)"

    /// iOS-style activity indicator: twelve spokes, the lit one moving clockwise.
    static let spinner = Preset(name: "spinner", summary: "iOS-style spinner: twelve spokes fading behind the lit one")
    { o in
        let c = canvas(o)
        return c.config(
            fps: 24,
            layers: [
                [
                    "rect": ["width": c.u(8), "height": c.u(26), "corner": c.u(4)], "fill": c.colorJSON,
                    "repeat": ["count": 12, "around": c.u(31), "delay": c.s(Rational(1, 12))],
                    "animate": [
                        [
                            "kind": "keyframes", "property": "opacity", "period": c.s(1),
                            "keys": [["at": 0, "value": 1], ["at": c.s(1), "value": 0.15]],
                        ]
                    ],
                ]
            ])
    }
}
