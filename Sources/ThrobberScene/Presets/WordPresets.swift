import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Loaders with words and drawn lines: a word whose letters wave, a
/// spinner over its label, a checkmark that draws itself, and a spinner
/// that ends in one. Their words are outlines of a font file the preset
/// names (DejaVu Sans, Debian's fonts-dejavu-core), so their bytes are
/// the same wherever that file is.
enum WordPresets {
    /// The font file the presets' words are drawn from.
    static let fontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let boldFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    /// The success color of the checkmarks: iOS's green.
    static let green = Color(r: 0x34, g: 0xC7, b: 0x59)

    static let all: [Preset] = [wave, label, checkmark, spinnerCheck]

    private typealias Key = ShapePresets.Key

    /// "Loading" whose letters rise and fall one after another.
    static let wave = Preset(name: "text-wave", summary: "The word Loading, its letters rising one after another") {
        o in
        let c = PresetCanvas(o, width: 160, height: 50, defaultSize: 160, defaultColor: ShapePresets.ink)
        let rise = ShapePresets.keyframes(
            c, "translateY", period: 1.4,
            [Key(0, 0, "ease-out"), Key(0.3, c.u(-7), "ease-in"), Key(0.6, 0), Key(1.4, 0)])
        let word: ConfigJSON = [
            "text": [
                "string": "Loading", "font": .string(boldFontFile), "size": c.u(30), "per": "glyph",
                "delay": c.s(0.1),
            ],
            "fill": c.colorJSON, "animate": [rise],
        ]
        return c.config(fps: 30, layers: [word])
    }

    /// A turning ring over the word "Loading…".
    static let label = Preset(name: "label", summary: "A turning ring over the label Loading…") { o in
        let c = PresetCanvas(o, width: 100, height: 100, defaultSize: 96, defaultColor: ShapePresets.ink)
        let ring: ConfigJSON = [
            "arc": ["radius": c.u(22), "start": 0, "end": 270, "width": c.u(6), "cap": "round"],
            "center": c.point(50, 36), "stroke": c.colorJSON,
            "animate": [ShapePresets.turning(c, by: 360, period: 1)],
        ]
        let words: ConfigJSON = [
            "text": ["string": "Loading…", "font": .string(fontFile), "size": c.u(15)],
            "center": c.point(50, 82), "fill": c.colorJSON,
        ]
        return c.config(fps: 30, layers: [ring, words])
    }

    /// A circle that draws itself, then the check inside it.
    static let checkmark = Preset(name: "checkmark", summary: "A circle drawing itself, then a checkmark inside it") {
        o in
        let c = PresetCanvas(o, width: 100, height: 100, defaultSize: 64, defaultColor: green)
        let circle: ConfigJSON = [
            "path": ["d": "M50 12 A38 38 0 1 1 50 88 A38 38 0 1 1 50 12", "width": 7, "cap": "round"],
            "stroke": c.colorJSON, "center": c.point(50, 50), "scale": .number(c.k),
            "animate": [ShapePresets.keyframes(c, "end", period: 2, [Key(0, 0, "ease-in-out"), Key(0.6, 1)])],
        ]
        let check: ConfigJSON = [
            "path": [
                "d": "M30 52 L44 66 L71 37", "origin": [50, 50], "width": 8, "cap": "round", "join": "round",
            ],
            "stroke": c.colorJSON, "center": c.point(50, 50), "scale": .number(c.k),
            "animate": [
                ShapePresets.keyframes(c, "end", period: 2, [Key(0, 0), Key(0.5, 0, "ease-out"), Key(0.9, 1)])
            ],
        ]
        // Frame 0 is empty; begin on the finished check (a still looks done).
        return c.config(fps: 30, start: 1, layers: [circle, check])
    }

    /// A spinner that closes into a ring and ends in a checkmark, then
    /// fades and starts again: loading and done in one loop.
    static let spinnerCheck = Preset(
        name: "spinner-check", summary: "A spinner closing into a ring that ends in a checkmark"
    ) { o in
        let c = PresetCanvas(o, width: 100, height: 100, defaultSize: 64, defaultColor: green)
        let period = 2.6
        let ring: ConfigJSON = [
            "arc": ["radius": c.u(38), "start": 0, "end": 90, "width": c.u(7), "cap": "round"],
            "stroke": c.colorJSON,
            "animate": [
                ShapePresets.keyframes(c, "rotate", period: period, [Key(0, 0), Key(1.2, 720), Key(period, 720)]),
                ShapePresets.keyframes(
                    c, "end", period: period,
                    [Key(0, 90), Key(1.2, 90, "ease-in-out"), Key(1.6, 360), Key(period, 360)]),
            ],
        ]
        let check: ConfigJSON = [
            "path": [
                "d": "M30 52 L44 66 L71 37", "origin": [50, 50], "width": 8, "cap": "round", "join": "round",
            ],
            "stroke": c.colorJSON, "center": c.point(50, 50), "scale": .number(c.k),
            "animate": [
                ShapePresets.keyframes(
                    c, "end", period: period, [Key(0, 0), Key(1.55, 0, "ease-out"), Key(1.9, 1), Key(period, 1)])
            ],
        ]
        let fade = ShapePresets.keyframes(
            c, "opacity", period: period, [Key(0, 1), Key(2.3, 1, "ease-in"), Key(period, 0)])
        return c.config(
            fps: 30, reduced: .hold(Rational(2)), layers: [["group": [ring, check], "animate": [fade]]])
    }
}
