import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// The three loaders of the iOS articles Throbber grew from, as presets.
enum SeedPresets {
    static let gray = Color(r: 128, g: 128, b: 128)

    /// EaseLoadingView: a ring turning 120° per 0.25 s step and an icon whose
    /// opacity steps 1, 2/3, 1/3, 0, 1/3, 2/3. Drawn with shapes, or from the
    /// user's own two images (`--ring`, `--icon`) as the seed does.
    static let ease = Preset(
        name: "ease", summary: "EaseLoadingView (Coding.net): a turning ring and a fading icon, in 0.25 s steps"
    ) { o in
        let c = PresetCanvas(
            o, width: 60, height: 60, defaultSize: 120, defaultScale: 2, defaultColor: Color(r: 0x2E, g: 0x3A, b: 0x4B))
        let turn: ConfigJSON = [["kind": "step", "property": "rotate", "from": 0, "by": 120]]
        let fade: ConfigJSON = [["kind": "step", "property": "opacity", "from": 1, "by": "-1/3", "bounce": [0, 1]]]
        func image(_ path: String, _ animate: ConfigJSON) throws -> ConfigJSON {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            return ["image": .string(absolute), "scale": .number(c.k), "animate": animate]
        }
        let ring: ConfigJSON =
            try o.ring.map { try image($0, turn) } ?? [
                "group": [
                    [
                        "arc": ["radius": c.u(26), "start": 25, "end": 155, "width": c.u(3.5), "cap": "round"],
                        "stroke": c.colorJSON,
                    ],
                    [
                        "arc": ["radius": c.u(26), "start": 205, "end": 335, "width": c.u(3.5), "cap": "round"],
                        "stroke": c.colorJSON,
                    ],
                ], "animate": turn,
            ]
        let icon: ConfigJSON =
            try o.icon.map { try image($0, fade) } ?? [
                "group": [
                    ["circle": ["radius": c.u(5)], "fill": c.colorJSON, "center": c.point(18, 24)],
                    ["circle": ["radius": c.u(5)], "fill": c.colorJSON, "center": c.point(42, 24)],
                    ["circle": ["radius": c.u(12)], "fill": c.colorJSON, "center": c.point(30, 31)],
                ], "animate": fade,
            ]
        return c.config(fps: 20, step: Rational(1, 4), layers: [ring, icon])
    }

    /// GQCircleLoadView's three dots, as a layer description.
    static func dotsLayer(_ c: PresetCanvas) -> ConfigJSON {
        [
            "circle": ["radius": c.u(10)], "fill": c.colorJSON, "center": c.point(25, 20),
            "repeat": ["count": 3, "offset": [c.u(35), 0], "delay": c.s(0.25)],
            "animate": [
                [
                    "kind": "keyframes", "property": "scale", "period": c.s(0.75),
                    "keys": [
                        ["at": 0, "value": 1, "ease": "ease-out"],
                        ["at": c.s(0.25), "value": 1.5, "ease": "ease-out"],
                        ["at": c.s(0.5), "value": 1],
                    ],
                ]
            ],
        ]
    }

    static let dots = Preset(
        name: "dots", summary: "GQCircleLoadView: three gray dots swelling to 1.5x in turn, ease-out"
    ) { o in
        let c = PresetCanvas(o, width: 120, height: 40, defaultSize: 240, defaultScale: 2, defaultColor: gray)
        return c.config(fps: 40, layers: [dotsLayer(c)])
    }

    static let dotsFlip = Preset(
        name: "dots-flip", summary: "GQCircleLoadView's variant: the swelling dots also flip about the vertical axis"
    ) { o in
        let c = PresetCanvas(o, width: 120, height: 40, defaultSize: 240, defaultScale: 2, defaultColor: gray)
        return c.config(
            fps: 40,
            layers: [
                [
                    "group": [dotsLayer(c)],
                    "animate": [
                        [
                            "kind": "keyframes", "property": "rotateY", "period": c.s(1),
                            "keys": [["at": 0, "value": 0], ["at": c.s(1), "value": -360]],
                        ]
                    ],
                ]
            ])
    }
}
