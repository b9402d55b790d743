import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Loaders that turn: ring, dual-ring, chase, orbit.
extension ShapePresets {
    /// Material's indeterminate circular progress: the head runs ahead (the arc
    /// grows from 10° to 280°), then the tail catches up, while the whole arc
    /// turns 450°; after one period the arc is back where it started.
    static let ring = Preset(name: "ring", summary: "Material-style ring: an arc growing and shrinking as it turns") {
        o in
        let c = canvas(o)
        let period = 1.2
        let half = 0.6
        let head = keyframes(c, "end", period: period, [Key(0, 10, material), Key(half, 280)])
        let tail = keyframes(c, "start", period: period, [Key(half, 0, material), Key(period, 270)])
        let arc: ConfigJSON = [
            "arc": ["radius": c.u(38), "start": 0, "end": 10, "width": c.u(9), "cap": "round"],
            "stroke": c.colorJSON,
            "animate": [turning(c, by: 450, period: period), head, tail],
        ]
        // Frame 0 is a short dash; begin on the long arc (a still looks like a spinner).
        return c.config(fps: 40, start: 0.3, layers: [arc])
    }

    /// loading.io's dual ring: two opposite arcs turning clockwise, and inside
    /// them a lighter pair turning the other way.
    static let dualRing = Preset(
        name: "dual-ring", summary: "Two opposite arcs turning clockwise, an inner pair turning back"
    ) { o in
        let c = canvas(o)
        let period = 0.8
        let outer: ConfigJSON = [
            "arc": ["radius": c.u(40), "start": -45, "end": 45, "width": c.u(8), "cap": "round"],
            "stroke": c.colorJSON, "repeat": ["count": 2, "turn": 180],
            "animate": [turning(c, by: 180, period: period)],
        ]
        let inner: ConfigJSON = [
            "arc": ["radius": c.u(23), "start": 45, "end": 135, "width": c.u(8), "cap": "round"],
            "stroke": c.colorJSON, "opacity": 0.6, "repeat": ["count": 2, "turn": 180],
            "animate": [turning(c, by: -180, period: period)],
        ]
        return c.config(fps: 25, layers: [outer, inner])
    }

    /// NVActivityIndicatorView's ballSpinFadeLoader: eight dots on a circle,
    /// each shrinking to 0.4 and fading to 0.3 in turn, clockwise.
    static let chase = Preset(name: "chase", summary: "Eight dots on a circle shrinking and fading in turn, clockwise")
    { o in
        let c = canvas(o)
        let shrink = keyframes(c, "scale", period: 1, [Key(0, 1), Key(0.5, 0.4), Key(1, 1)])
        let fade = keyframes(c, "opacity", period: 1, [Key(0, 1), Key(0.5, 0.3), Key(1, 1)])
        return c.config(
            fps: 24,
            layers: [
                [
                    "circle": ["radius": c.u(9)], "fill": c.colorJSON,
                    "repeat": ["count": 8, "around": c.u(37), "delay": c.s(0.125)],
                    "animate": [shrink, fade],
                ]
            ])
    }

    /// A dot circling a center dot clockwise on a faint track, and a smaller,
    /// lighter one circling closer in the other direction.
    static let orbit = Preset(
        name: "orbit", summary: "A dot orbiting a center dot, a smaller one counter-orbiting inside"
    ) { o in
        let c = canvas(o)
        let track: ConfigJSON = ["arc": ["radius": c.u(36), "width": c.u(3)], "stroke": c.colorJSON, "opacity": 0.2]
        let center: ConfigJSON = ["circle": ["radius": c.u(11)], "fill": c.colorJSON]
        let outer: ConfigJSON = [
            "group": [["circle": ["radius": c.u(8)], "fill": c.colorJSON, "center": c.point(50, 14)]],
            "animate": [turning(c, by: 360, period: 1)],
        ]
        let inner: ConfigJSON = [
            "group": [["circle": ["radius": c.u(5)], "fill": c.colorJSON, "center": c.point(50, 73)]],
            "opacity": 0.6, "animate": [turning(c, by: -360, period: 1)],
        ]
        return c.config(fps: 25, layers: [track, center, outer, inner])
    }
}
