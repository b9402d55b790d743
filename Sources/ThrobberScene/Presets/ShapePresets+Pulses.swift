import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Loaders that swell, fade or flip in place: pulse, ripple, heart, square-spin, grid.
extension ShapePresets {
    /// Reduced motion for a pulse: the same beat at a quarter of the speed,
    /// a calm breathing rather than a stop (it still says "working").
    static let slowPulse = ReducedMotion.speed(Rational(1, 4))

    /// SpinKit's pulse: a disc growing from nothing while it fades out.
    static let pulse = Preset(name: "pulse", summary: "A disc growing from nothing while fading out") { o in
        let c = canvas(o)
        let grow = keyframes(c, "scale", period: 1, [Key(0, 0, "ease-out"), Key(1, 1)])
        let fade = keyframes(c, "opacity", period: 1, [Key(0, 1, "ease-in"), Key(1, 0)])
        // The cycle begins on nothing; a still shows the disc grown and still solid.
        return c.config(
            fps: 25, start: 0.4, reduced: slowPulse,
            layers: [["circle": ["radius": c.u(45)], "fill": c.colorJSON, "animate": [grow, fade]]])
    }

    /// loading.io's ripple: two rings expanding and fading, half a period apart.
    static let ripple = Preset(name: "ripple", summary: "Two rings expanding and fading, half a period apart") { o in
        let c = canvas(o)
        let grow = keyframes(c, "scale", period: 1, [Key(0, 0, "cubic-bezier(0, 0.2, 0.8, 1)"), Key(1, 1)])
        let fade = keyframes(c, "opacity", period: 1, [Key(0, 1), Key(1, 0)])
        return c.config(
            fps: 25, reduced: slowPulse,
            layers: [
                [
                    "arc": ["radius": c.u(42), "width": c.u(6)], "stroke": c.colorJSON,
                    "repeat": ["count": 2, "delay": c.s(0.5)], "animate": [grow, fade],
                ]
            ])
    }

    /// A heart (a square turned 45° and two circles on its upper sides) beating
    /// twice, strong then weak, then resting.
    static let heart = Preset(name: "heart", summary: "A heart beating twice (lub-dub), then resting") { o in
        let c = canvas(o, color: Color(r: 0xE2, g: 0x26, b: 0x4D))
        // Half-diagonal 30: side 30·√2, circles of radius 15·√2 centered on
        // the midpoints of the two upper sides, 15 left/right of and above the
        // square's center; (50, 53.1) centers the whole heart vertically.
        let beat = keyframes(
            c, "scale", period: 1.2,
            [
                Key(0, 1, "ease-out"), Key(0.12, 1.18, "ease-in-out"), Key(0.28, 1, "ease-out"),
                Key(0.4, 1.1, "ease-in-out"), Key(0.64, 1),
            ])
        let shape: [ConfigJSON] = [
            [
                "rect": ["width": c.u(42.43), "height": c.u(42.43)], "fill": c.colorJSON,
                "center": [c.u(50), c.u(53.1)], "rotate": 45,
            ],
            ["circle": ["radius": c.u(21.22)], "fill": c.colorJSON, "center": [c.u(35), c.u(38.1)]],
            ["circle": ["radius": c.u(21.22)], "fill": c.colorJSON, "center": [c.u(65), c.u(38.1)]],
        ]
        return c.config(fps: 25, reduced: slowPulse, layers: [["group": .array(shape), "animate": [beat]]])
    }

    /// SpinKit's rotating plane as the brief has it: a square flipping about
    /// its vertical axis, resting, then about its horizontal axis, resting.
    static let squareSpin = Preset(
        name: "square-spin", summary: "A square flipping about its vertical, then its horizontal axis"
    ) { o in
        let c = canvas(o)
        let aboutVertical = keyframes(c, "rotateY", period: 1.2, [Key(0, 0, "ease-in-out"), Key(0.5, 180)])
        let aboutHorizontal = keyframes(c, "scaleY", period: 1.2, [Key(0.6, 1, "ease-in-out"), Key(1.1, -1)])
        return c.config(
            fps: 25,
            layers: [
                [
                    "rect": ["width": c.u(64), "height": c.u(64), "corner": c.u(4)], "fill": c.colorJSON,
                    "animate": [aboutVertical, aboutHorizontal],
                ]
            ])
    }

    /// SpinKit's cube grid: 3 × 3 squares shrinking away and back in a
    /// diagonal wave from the bottom-left corner. Each row is one layer
    /// repeated along x (0.1 s later per column); lower rows start earlier.
    static let grid = Preset(name: "grid", summary: "3×3 squares shrinking and returning in a diagonal wave") { o in
        let c = canvas(o)
        let rows: [ConfigJSON] = (0..<3).map { row in
            let pulse = keyframes(
                c, "scale", period: 1.2, delay: 0.1 * Double(2 - row),
                [
                    Key(0, 1, "ease-in-out"), Key(0.42, 0, "ease-in-out"), Key(0.84, 1),
                ])
            return [
                "rect": ["width": c.u(28), "height": c.u(28), "corner": c.u(2)], "fill": c.colorJSON,
                "center": c.point(18, 18 + 32 * row),
                "repeat": ["count": 3, "offset": [c.u(32), 0], "delay": c.s(0.1)],
                "animate": [pulse],
            ]
        }
        return c.config(fps: 25, layers: rows)
    }
}
