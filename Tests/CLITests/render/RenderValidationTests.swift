import Foundation
import TestSupport
import Testing

/// `throbber render` checks the whole config before drawing anything: every
/// error names the config file, the JSON path and what was expected, exits
/// 65 (bad data) or 66 (missing input), and leaves no output file.
@Suite("render: config validation through the CLI")
struct RenderValidationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var status: Int32
        /// The JSON path the message must name right after the file name.
        var path: String
        /// Text the message must contain after the path.
        var says: String
        var testDescription: String { name }
    }

    static let canvas = #""canvas": {"width": 60, "height": 60}"#
    static let dot = #"{"circle": {"radius": 5}}"#

    /// A scene with `layer` as its only layer and `extra` top-level members.
    static func scene(_ layer: String = dot, _ extra: String = "") -> String {
        #"{"version": 1, \#(canvas), "layers": [\#(layer)]\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    static func animated(_ animation: String) -> String {
        scene(#"{"circle": {"radius": 5}, "animate": [\#(animation)]}"#)
    }

    static let cases: [Case] = [
        // The example of the issue, verbatim.
        Case(
            name: "a word where a fraction belongs",
            json: """
                {"version": 1, "canvas": {"width": 60, "height": 60, "scale": 2},
                 "layers": [{"circle": {"radius": 5},
                   "animate": [{"kind": "step", "property": "rotate", "by": 120},
                               {"kind": "step", "property": "opacity", "from": 1, "by": "third", "bounce": [0, 1]}]}]}
                """, status: 65, path: "layers[0].animate[1].by", says: #"expected a number or a fraction like "1/3""#),
        Case(
            name: "a boolean where a number belongs",
            json: animated(#"{"kind": "step", "property": "rotate", "by": true}"#),
            status: 65, path: "layers[0].animate[0].by", says: "expected a number or a fraction"),
        Case(
            name: "a decimal written as a string", json: scene(#"{"circle": {"radius": 5}, "opacity": "0.5"}"#),
            status: 65, path: "layers[0].opacity", says: "expected a number or a fraction"),
        Case(
            name: "a fraction with a zero denominator", json: scene(#"{"circle": {"radius": "1/0"}}"#),
            status: 65, path: "layers[0].circle.radius", says: "expected a number or a fraction"),
        Case(
            name: "a fraction where a whole number belongs",
            json: #"{"version": 1, "canvas": {"width": 60, "height": 60, "scale": 1.5}, "layers": [\#(dot)]}"#,
            status: 65, path: "canvas.scale", says: "whole number"),

        // Unknown keys, at every depth.
        Case(
            name: "unknown top-level key", json: scene(dot, #""colour": "red""#), status: 65, path: "colour",
            says: "unknown key"),
        Case(
            name: "unknown canvas key",
            json: #"{"version": 1, "canvas": {"width": 60, "height": 60, "widht": 3}, "layers": [\#(dot)]}"#,
            status: 65, path: "canvas.widht", says: "unknown key"),
        Case(
            name: "unknown timing key", json: scene(dot, #""timing": {"fps": 20, "stepp": 0.25}"#),
            status: 65, path: "timing.stepp", says: "unknown key"),
        Case(
            name: "unknown layer key", json: scene(#"{"circle": {"radius": 5}, "radius": 5}"#),
            status: 65, path: "layers[0].radius", says: "unknown key"),
        Case(
            name: "unknown circle key", json: scene(#"{"circle": {"radius": 5, "r": 5}}"#),
            status: 65, path: "layers[0].circle.r", says: "unknown key"),
        Case(
            name: "unknown animation key",
            json: animated(#"{"kind": "step", "property": "rotate", "form": 0, "by": 90}"#),
            status: 65, path: "layers[0].animate[0].form", says: "unknown key"),
        Case(
            name: "unknown keyframe key",
            json: animated(
                #"{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 1}, {"at": 1, "value": 2, "eas": "linear"}]}"#
            ),
            status: 65, path: "layers[0].animate[0].keys[1].eas", says: "unknown key"),
        Case(
            name: "unknown repeat key", json: scene(#"{"circle": {"radius": 5}, "repeat": {"count": 3, "cnt": 3}}"#),
            status: 65, path: "layers[0].repeat.cnt", says: "unknown key"),
        Case(
            name: "unknown key inside a group",
            json: scene(#"{"group": [\#(dot), {"circle": {"radius": 2}, "opactiy": 0.5}]}"#),
            status: 65, path: "layers[0].group[1].opactiy", says: "unknown key"),
        Case(
            name: "unknown arc key", json: scene(#"{"arc": {"radius": 5, "caps": "round"}}"#),
            status: 65, path: "layers[0].arc.caps", says: "unknown key"),
        Case(
            name: "unknown frames key", json: #"{"version": 1, "frames": {"dir": ".", "globb": "*.png"}}"#,
            status: 65, path: "frames.globb", says: "unknown key"),
        Case(
            name: "unknown encode key", json: scene(dot, #""encode": {"qualty": 80}"#), status: 65,
            path: "encode.qualty", says: "unknown key"),
        Case(
            name: "unknown output key", json: scene(dot, #""output": [{"path": "a.gif", "fmt": "gif"}]"#),
            status: 65, path: "output[0].fmt", says: "unknown key"),

        // Impossible values.
        Case(
            name: "negative canvas width",
            json: #"{"version": 1, "canvas": {"width": -60, "height": 60}, "layers": [\#(dot)]}"#,
            status: 65, path: "canvas.width", says: "-60"),
        Case(
            name: "negative circle radius", json: scene(#"{"circle": {"radius": -5}}"#), status: 65,
            path: "layers[0].circle.radius", says: "-5"),
        Case(
            name: "negative rect height", json: scene(#"{"rect": {"width": 5, "height": -1}}"#), status: 65,
            path: "layers[0].rect.height", says: "-1"),
        Case(
            name: "negative arc width", json: scene(#"{"arc": {"radius": 5, "width": "-1/2"}}"#), status: 65,
            path: "layers[0].arc.width", says: "-1/2 is out of range (0…100000 points)"),
        Case(
            name: "negative repeat radius",
            json: scene(#"{"circle": {"radius": 5}, "repeat": {"count": 3, "around": -4}}"#),
            status: 65, path: "layers[0].repeat.around", says: "-4"),
        Case(
            name: "fps of zero", json: scene(dot, #""timing": {"fps": 0}"#), status: 65, path: "timing.fps", says: "0"),
        Case(
            name: "negative fps", json: scene(dot, #""timing": {"fps": -25}"#), status: 65, path: "timing.fps",
            says: "-25"),
        Case(
            name: "fps over 50 for GIF", json: scene(dot, #""timing": {"fps": 60}"#), status: 65, path: "timing.fps",
            says: "50"),
        Case(
            name: "zero step", json: scene(dot, #""timing": {"step": 0}"#), status: 65, path: "timing.step", says: "0"),
        Case(
            name: "negative duration", json: scene(dot, #""timing": {"duration": -1}"#), status: 65,
            path: "timing.duration", says: "-1"),
        Case(
            name: "canvas 4097 px wide",
            json: #"{"version": 1, "canvas": {"width": 4097, "height": 60}, "layers": [\#(dot)]}"#,
            status: 65, path: "canvas.width", says: "4096"),
        Case(
            name: "canvas 2049 pt at scale 2 (4098 px)",
            json: #"{"version": 1, "canvas": {"width": 2049, "height": 60, "scale": 2}, "layers": [\#(dot)]}"#,
            status: 65, path: "canvas.width", says: "4096"),
        Case(
            name: "canvas 5000 px tall",
            json: #"{"version": 1, "canvas": {"width": 60, "height": 5000}, "layers": [\#(dot)]}"#,
            status: 65, path: "canvas.height", says: "4096"),
        Case(
            name: "canvas not a whole number of pixels",
            json: #"{"version": 1, "canvas": {"width": 10.5, "height": 60}, "layers": [\#(dot)]}"#,
            status: 65, path: "canvas.width", says: "whole number of pixels"),
        Case(
            name: "a 41 s cycle at 25 fps (1025 frames)", json: scene(dot, #""timing": {"duration": 41}"#),
            status: 65, path: "timing", says: "1000"),
        Case(
            name: "periods of 7 s and 11 s: a 77 s cycle",
            json: scene(
                #"{"circle": {"radius": 5}, "animate": [{"kind": "keyframes", "property": "scale", "period": 7, "keys": [{"at": 0, "value": 1}]}, {"kind": "keyframes", "property": "opacity", "period": 11, "keys": [{"at": 0, "value": 1}]}]}"#
            ),
            status: 65, path: "timing", says: "1000"),
        Case(
            name: "opacity over 1", json: scene(#"{"circle": {"radius": 5}, "opacity": 1.5}"#), status: 65,
            path: "layers[0].opacity", says: "at most 1"),
        Case(name: "negative loop", json: scene(dot, #""loop": -1"#), status: 65, path: "loop", says: "-1"),
        Case(name: "duplicate 0", json: scene(dot, #""duplicate": 0"#), status: 65, path: "duplicate", says: "0"),
        Case(
            name: "duplicate array with a 0", json: scene(dot, #""duplicate": [1, 0]"#), status: 65,
            path: "duplicate[1]", says: "0"),
        Case(
            name: "duplicate array longer than the cycle", json: scene(dot, #""duplicate": [1, 2, 3]"#), status: 65,
            path: "duplicate", says: "3"),
        Case(
            name: "repeat count 0", json: scene(#"{"circle": {"radius": 5}, "repeat": {"count": 0}}"#), status: 65,
            path: "layers[0].repeat.count", says: "0"),
        Case(
            name: "encode colors 1", json: scene(dot, #""encode": {"colors": 1}"#), status: 65, path: "encode.colors",
            says: "1"),
        Case(
            name: "encode quality 101", json: scene(dot, #""encode": {"quality": 101}"#), status: 65,
            path: "encode.quality", says: "101"),
        Case(
            name: "encode dither 2", json: scene(dot, #""encode": {"dither": 2}"#), status: 65, path: "encode.dither",
            says: "2"),

        // Colors and easings.
        Case(
            name: "unknown color name", json: scene(#"{"circle": {"radius": 5}, "fill": "blurple"}"#), status: 65,
            path: "layers[0].fill", says: "expected a color"),
        Case(
            name: "five hex digits",
            json:
                ##"{"version": 1, "canvas": {"width": 60, "height": 60, "background": "#12345"}, "layers": [\##(dot)]}"##,
            status: 65, path: "canvas.background", says: "expected a color"),
        Case(
            name: "non-hex digits", json: scene(##"{"arc": {"radius": 5}, "stroke": "#GGG"}"##), status: 65,
            path: "layers[0].stroke", says: "expected a color"),
        Case(
            name: "a color that is a number", json: scene(dot, #""encode": {"matte": 255}"#), status: 65,
            path: "encode.matte", says: "expected a color"),
        Case(
            name: "unknown easing name",
            json: animated(
                #"{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 1, "ease": "bouncy"}, {"at": 1, "value": 2}]}"#
            ),
            status: 65, path: "layers[0].animate[0].keys[0].ease", says: "expected an easing"),
        Case(
            name: "cubic-bezier with x1 outside 0…1",
            json: animated(
                #"{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 1, "ease": "cubic-bezier(1.5, 0, 0.5, 1)"}]}"#
            ),
            status: 65, path: "layers[0].animate[0].keys[0].ease",
            says: #""cubic-bezier(1.5, 0, 0.5, 1)": x1 1.5 is out of range (0…1)"#),
        Case(
            name: "cubic-bezier with three numbers",
            json: animated(
                #"{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 1, "ease": "cubic-bezier(0.5, 0, 0.5)"}]}"#
            ),
            status: 65, path: "layers[0].animate[0].keys[0].ease", says: "expected an easing"),
        Case(
            name: "steps(0)", json: animated(#"{"kind": "step", "property": "rotate", "by": 90, "ease": "steps(0)"}"#),
            status: 65, path: "layers[0].animate[0].ease", says: #""steps(0)": n 0 is out of range (1…1000)"#),

        // Structure.
        Case(
            name: "unsupported version", json: #"{"version": 2, \#(canvas), "layers": [\#(dot)]}"#, status: 65,
            path: "version", says: "2"),
        Case(
            name: "both layers and frames", json: scene(dot, #""frames": {"dir": "."}"#), status: 65, path: "frames",
            says: "not both"),
        Case(
            name: "no layers", json: #"{"version": 1, \#(canvas), "layers": []}"#, status: 65, path: "layers",
            says: "at least one"),
        Case(
            name: "a layer with two kinds",
            json: scene(#"{"circle": {"radius": 5}, "rect": {"width": 2, "height": 2}}"#),
            status: 65, path: "layers[0]", says: "exactly one"),
        Case(
            name: "a layer with no kind", json: scene(#"{"opacity": 1}"#), status: 65, path: "layers[0]",
            says: "needs one of"),
        Case(
            name: "a scene without a canvas width",
            json: #"{"version": 1, "canvas": {"height": 60}, "layers": [\#(dot)]}"#,
            status: 65, path: "canvas", says: "width"),
        Case(
            name: "keys out of time order",
            json: animated(
                #"{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0.5, "value": 1}, {"at": 0.25, "value": 2}]}"#
            ),
            status: 65, path: "layers[0].animate[0].keys[1].at", says: "order"),
        Case(
            name: "a key after the period",
            json: animated(
                #"{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 1.5, "value": 1}]}"#),
            status: 65, path: "layers[0].animate[0].keys[0].at", says: "1"),
        Case(
            name: "a step of opacity that never comes back",
            json: animated(#"{"kind": "step", "property": "opacity", "by": 0.25}"#),
            status: 65, path: "layers[0].animate[0]", says: "bounce"),
        Case(
            name: "bounce bounds the wrong way round",
            json: animated(#"{"kind": "step", "property": "opacity", "by": 0.25, "bounce": [1, 0]}"#),
            status: 65, path: "layers[0].animate[0].bounce", says: "less than"),
        Case(
            name: "arc start animated on a circle", json: animated(#"{"kind": "step", "property": "start", "by": 90}"#),
            status: 65, path: "layers[0].animate[0].property", says: "arc"),
        Case(
            name: "unknown property", json: animated(#"{"kind": "step", "property": "rotation", "by": 90}"#),
            status: 65, path: "layers[0].animate[0].property", says: "rotation"),
        Case(
            name: "unknown animation kind", json: animated(#"{"kind": "tween", "property": "rotate", "by": 90}"#),
            status: 65, path: "layers[0].animate[0].kind", says: "tween"),
        Case(
            name: "a center with three numbers", json: scene(#"{"circle": {"radius": 5}, "center": [1, 2, 3]}"#),
            status: 65, path: "layers[0].center", says: "[x, y]"),
        Case(
            name: "an unknown output format", json: scene(dot, #""output": [{"path": "a.avif", "format": "avif"}]"#),
            status: 65, path: "output[0].format", says: "avif"),
        Case(
            name: "an unknown frame sort", json: #"{"version": 1, "frames": {"dir": ".", "sort": "random"}}"#,
            status: 65, path: "frames.sort", says: "random"),
        Case(
            name: "a top level that is an array", json: "[1, 2]", status: 65, path: "(top level)",
            says: "expected an object"),

        // Missing inputs.
        Case(
            name: "a missing image", json: scene(#"{"image": "nope@2x.png"}"#), status: 66, path: "layers[0].image",
            says: "nope@2x.png"),
        // Like a missing image, a missing frame folder is named with the config and its JSON path.
        Case(
            name: "a missing frame folder", json: #"{"version": 1, "frames": {"dir": "no-such-folder"}}"#,
            status: 66, path: "frames.dir", says: "no-such-folder"),
    ]

    @Test("refused before drawing: exit status, file and JSON path in the message, no output file", arguments: cases)
    func refused(_ c: Case) throws { try Self.expectRefused(c) }

    /// Runs `render` on the case's config and checks the refusal.
    static func expectRefused(_ c: Case) throws {
        try withTemporaryDirectory { dir in
            let file = "case.json"
            try SceneCLI.write(c.json, to: dir, as: file)
            let r = try Throbber.run(["render", file, "-o", "out.gif"], in: dir)
            #expect(r.status == c.status, "\(r.stderrText)")
            #expect(r.stdout.isEmpty)
            let lines = r.stderrLines
            #expect(lines.count == 1, "one line of error expected: \(r.stderrText)")
            let line = lines.first ?? ""
            let prefix = "throbber: error: \(file): " + (c.path.isEmpty ? "" : "\(c.path): ")
            #expect(line.hasPrefix(prefix), "expected the message to start with '\(prefix)': \(line)")
            #expect(line.dropFirst(prefix.count).contains(c.says), "expected '\(c.says)' in: \(line)")
            #expect(
                !FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.gif").path),
                "an output file was left behind")
        }
    }

    @Test(
        "the issue's example message, exactly: ease.json: layers[0].animate[1].by: expected a number or a fraction like \"1/3\""
    )
    func exactMessage() throws {
        try withTemporaryDirectory { dir in
            try SceneCLI.write(Self.cases[0].json, to: dir, as: "ease.json")
            let r = try Throbber.run(["render", "ease.json", "-o", "ease.gif"], in: dir)
            #expect(r.status == 65)
            #expect(
                r.stderrText
                    == "throbber: error: ease.json: layers[0].animate[1].by: expected a number or a fraction like \"1/3\"\n"
            )
        }
    }
}
