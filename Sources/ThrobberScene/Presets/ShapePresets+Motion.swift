import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Loaders that move along a line: bars, wave, bounce, ellipsis, pacman.
extension ShapePresets {
    /// SpinKit's wave: five bars stretching from 0.4 to full height in turn, left to right.
    static let bars = Preset(name: "bars", summary: "Five bars stretching vertically in turn, left to right") { o in
        let c = canvas(o)
        let stretch = keyframes(
            c, "scaleY", period: 1.2,
            [
                Key(0, 0.4, "ease-in-out"), Key(0.24, 1, "ease-in-out"), Key(0.48, 0.4),
            ])
        return c.config(
            fps: 25,
            layers: [
                [
                    "rect": ["width": c.u(10), "height": c.u(70), "corner": c.u(2)], "fill": c.colorJSON,
                    "center": c.point(18, 50),
                    "repeat": ["count": 5, "offset": [c.u(16), 0], "delay": c.s(0.1)], "animate": [stretch],
                ]
            ])
    }

    /// Five dots rising and falling, each 1/8 period behind its left neighbour,
    /// so a wave travels to the right. A row: 100 × 50 units.
    static let wave = Preset(name: "wave", summary: "Five dots rising and falling in a wave travelling right") { o in
        let c = canvas(o, height: 50)
        let swing = keyframes(
            c, "translateY", period: 1.2,
            [
                Key(0, c.u(-12), "ease-in-out"), Key(0.6, c.u(12), "ease-in-out"), Key(1.2, c.u(-12)),
            ])
        return c.config(
            fps: 25,
            layers: [
                [
                    "circle": ["radius": c.u(7)], "fill": c.colorJSON, "center": c.point(14, 25),
                    "repeat": ["count": 5, "offset": [c.u(18), 0], "delay": c.s(0.15)], "animate": [swing],
                ]
            ])
    }

    /// A ball falling (gravity: a parabola), stretching just before it lands,
    /// squashing flat against the floor and rising again; a soft shadow grows
    /// and darkens as it comes down. One period is 24 frames at 25 fps: frame
    /// 11 touches down, 12 is the deepest squash, 13 leaves the floor.
    static let bounce = Preset(name: "bounce", summary: "A ball bouncing with squash and stretch over a soft shadow") {
        o in
        let c = canvas(o)
        let period = 0.96
        let land = 0.44
        let squash = 0.48
        let leave = 0.52
        // The group's center is the ball's lowest point, so it squashes against the floor.
        let fall = keyframes(
            c, "translateY", period: period,
            [
                Key(0, c.u(-50), gravityIn), Key(land, 0), Key(leave, 0, gravityOut), Key(period, c.u(-50)),
            ])
        let tall = keyframes(
            c, "scaleY", period: period,
            [
                Key(0, 1, "ease-in"), Key(land, 1.06, "ease-out"), Key(squash, 0.7, "ease-in"),
                Key(leave, 1.06, "ease-out"), Key(period, 1),
            ])
        let wide = keyframes(
            c, "scaleX", period: period,
            [
                Key(0, 1, "ease-in"), Key(land, 0.95, "ease-out"), Key(squash, 1.3, "ease-in"),
                Key(leave, 0.95, "ease-out"), Key(period, 1),
            ])
        let ball: ConfigJSON = [
            "group": [["circle": ["radius": c.u(12)], "fill": c.colorJSON, "center": c.point(50, 74)]],
            "center": c.point(50, 86), "animate": [fall, tall, wide],
        ]
        let near = keyframes(
            c, "scale", period: period,
            [
                Key(0, 0.5, gravityIn), Key(land, 1), Key(leave, 1, gravityOut), Key(period, 0.5),
            ])
        let dark = keyframes(
            c, "opacity", period: period,
            [
                Key(0, 0.4, gravityIn), Key(land, 1), Key(leave, 1, gravityOut), Key(period, 0.4),
            ])
        let flat = keyframes(c, "scaleY", period: period, [Key(0, 0.2)])
        let shadow: ConfigJSON = [
            "circle": ["radius": c.u(16)], "fill": c.colorJSON, "center": c.point(50, 87),
            "opacity": 0.3, "animate": [near, dark, flat],
        ]
        return c.config(fps: 25, layers: [shadow, ball])
    }

    /// A typing indicator: three dots brightening and swelling slightly in
    /// turn, then a short rest. A row: 100 × 50 units.
    static let ellipsis = Preset(name: "ellipsis", summary: "Three dots lighting up in turn, like a typing indicator") {
        o in
        let c = canvas(o, height: 50)
        let light = keyframes(
            c, "opacity", period: 1.2, [Key(0, 0.3, "ease-in-out"), Key(0.3, 1, "ease-in-out"), Key(0.6, 0.3)])
        let swell = keyframes(
            c, "scale", period: 1.2, [Key(0, 1, "ease-in-out"), Key(0.3, 1.15, "ease-in-out"), Key(0.6, 1)])
        return c.config(
            fps: 25,
            layers: [
                [
                    "circle": ["radius": c.u(10)], "fill": c.colorJSON, "center": c.point(22, 25),
                    "repeat": ["count": 3, "offset": [c.u(28), 0], "delay": c.s(0.2)], "animate": [light, swell],
                ]
            ])
    }

    /// NVActivityIndicatorView's pacman: a pie (an arc as thick as twice its
    /// radius, butt caps) facing right, chomping twice a second; dots fade in
    /// at the right and slide into its mouth, one per chomp, each eaten as the
    /// mouth closes on it.
    static let pacman = Preset(
        name: "pacman", summary: "Pac-man facing right, chomping the dots that slide into its mouth"
    ) { o in
        let c = canvas(o)
        // Pac-man's center is at x = 26, radius 24; the dots (radius 5) are 34
        // apart, so when the mouth shuts on one the next is clear of the lips.
        let slide = keyframes(c, "translateX", period: 1, [Key(0, 0), Key(1, c.u(-68))])
        let appear = keyframes(c, "opacity", period: 1, [Key(0, 0), Key(0.15, 1)])
        let dots: ConfigJSON = [
            "circle": ["radius": c.u(5)], "fill": c.colorJSON, "center": c.point(94, 50),
            "repeat": ["count": 2, "delay": c.s(0.5)], "animate": [slide, appear],
        ]
        // Mouth half-angle 0 → 45° → 0 around 3 o'clock (90°).
        let upper = keyframes(
            c, "start", period: 0.5, [Key(0, 90, "ease-out"), Key(0.25, 135, "ease-in"), Key(0.5, 90)])
        let lower = keyframes(
            c, "end", period: 0.5, [Key(0, 450, "ease-out"), Key(0.25, 405, "ease-in"), Key(0.5, 450)])
        let pac: ConfigJSON = [
            "arc": ["radius": c.u(12), "start": 135, "end": 405, "width": c.u(24), "cap": "butt"],
            "stroke": c.colorJSON, "center": c.point(26, 50), "animate": [upper, lower],
        ]
        return c.config(fps: 25, layers: [dots, pac])
    }
}
