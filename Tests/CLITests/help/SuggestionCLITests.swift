import Foundation
import TestSupport
import Testing

/// "Did you mean" on the real binary: every error that names something
/// unknown or lists the choices ends with the nearest choices, in one
/// shape (`; did you mean 'x'?`), and says nothing more when none is near.
@Suite("Did you mean: options, subcommands, presets, values, config keys")
struct SuggestionCLITests {
    /// A command line and the exact first line of its error.
    struct Case: Sendable, CustomTestStringConvertible {
        var args: [String]
        var error: String
        var testDescription: String { args.joined(separator: " ") }
    }

    static let usageCases: [Case] = [
        Case(args: ["encdoe"], error: "unknown subcommand 'encdoe'; did you mean 'encode'?"),
        Case(args: ["prest", "spinner"], error: "unknown subcommand 'prest'; did you mean 'preset'?"),
        Case(args: ["frobnicate"], error: "unknown subcommand 'frobnicate'"),
        Case(args: ["encode", "in", "--widht", "5"], error: "unknown option '--widht'; did you mean '--width'?"),
        Case(args: ["encode", "in", "--widht=5"], error: "unknown option '--widht'; did you mean '--width'?"),
        Case(args: ["encode", "in", "--colour", "8"], error: "unknown option '--colour'; did you mean '--colors'?"),
        Case(args: ["preset", "dots", "--colour", "red"], error: "unknown option '--colour'; did you mean '--color'?"),
        Case(args: ["encode", "in", "-width", "5"], error: "unknown option '-width'; did you mean '--width'?"),
        Case(args: ["encode", "in", "--frobnicate"], error: "unknown option '--frobnicate'"),
        Case(
            args: ["preset", "spinnr", "-o", "x.gif"],
            error: "unknown preset 'spinnr'; 'throbber presets' lists them; did you mean 'spinner'?"),
        Case(
            args: ["preset", "dots", "--background", "whte", "-o", "x.gif"],
            error:
                "--background expects a color like \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\", \"transparent\" or a CSS name such as \"gray\", got 'whte'; did you mean 'white'?"
        ),
        Case(
            args: ["encode", "in", "-o", "x.gif", "--matte", "blak"],
            error:
                "--matte expects a color like \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\", \"transparent\" or a CSS name such as \"gray\", got 'blak'; did you mean 'black'?"
        ),
        Case(
            args: ["encode", "in", "-o", "x.gif", "--fit", "cuver"],
            error: "--fit must be contain, cover or stretch, got 'cuver'; did you mean 'cover'?"),
        Case(
            args: ["encode", "in", "-o", "x.gif", "--resize-filter", "lanczso"],
            error: "--resize-filter must be lanczos, mitchell or nearest, got 'lanczso'; did you mean 'lanczos'?"),
        Case(
            args: ["encode", "in", "-o", "x.gif", "--sort", "nautral"],
            error: "--sort must be natural or name, got 'nautral'; did you mean 'natural'?"),
        Case(
            args: ["encode", "in", "-o", "x.gif", "--format", "wepb"],
            error: "--format must be gif, apng or webp, got 'wepb'; did you mean 'webp'?"),
        Case(
            args: ["preset", "dots", "-o", "x.gif", "--compression", "bets"],
            error: "--compression must be fast, best or max, got 'bets'; did you mean 'best'?"),
        Case(
            args: ["preset", "dots", "-o", "x.gif", "--compression", "smallest"],
            error: "--compression must be fast, best or max, got 'smallest'"),
        Case(
            args: ["completions", "bsh"],
            error: "unknown shell 'bsh'; give bash, zsh or fish; did you mean 'bash' or 'zsh'?"),
    ]

    @Test("a usage error (64) ending in the nearest choice", arguments: usageCases)
    func usage(_ c: Case) throws {
        try withTemporaryDirectory { dir in
            let r = try Throbber.run(c.args, in: dir)
            #expect(r.status == 64, "stderr: \(r.stderrText)")
            #expect(r.stderrLines.first == "throbber: error: " + c.error, "\(r.stderrText)")
            #expect(try listing(dir).isEmpty)
        }
    }

    /// A config's mistake and the exact message after `throbber: error: bad.json: `.
    struct ConfigCase: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var error: String
        var testDescription: String { name }
    }

    static func scene(timing: String = "{}", layer: String, top: String = "") -> String {
        #"{"version": 1, "canvas": {"width": 20, "height": 20}, "timing": \#(timing), "layers": [\#(layer)]\#(top)}"#
    }

    static let colorSyntax =
        ##"expected a color like "#RGB", "#RRGGBB", "#RRGGBBAA", "transparent" or a CSS name such as "gray""##

    static let configCases: [ConfigCase] = [
        ConfigCase(
            name: "unknown key",
            json: scene(timing: #"{"sped": 2}"#, layer: #"{"circle": {"radius": 5}}"#),
            error:
                #"timing.sped: unknown key (expected one of "fps", "step", "duration", "start", "speed"); did you mean "speed"?"#
        ),
        ConfigCase(
            name: "misspelt required key",
            json: scene(
                layer:
                    #"{"circle": {"radius": 5}, "animate": [{"kind": "keyframes", "property": "scale", "perod": 1, "keys": [{"at": 0, "value": 1}]}]}"#
            ),
            error: #"layers[0].animate[0].perod: unknown key; did you mean "period"?"#),
        ConfigCase(
            name: "misspelt layer kind",
            json: scene(layer: #"{"circel": {"radius": 5}}"#),
            error:
                #"layers[0]: a layer needs one of "image", "circle", "arc", "rect", "path", "text", "group", "lottie"; did you mean "circle"?"#
        ),
        ConfigCase(
            name: "color name in the canvas",
            json:
                #"{"version": 1, "canvas": {"width": 20, "height": 20, "background": "whte"}, "layers": [{"circle": {"radius": 5}}]}"#,
            error: #"canvas.background: \#(colorSyntax), got "whte"; did you mean "white"?"#),
        ConfigCase(
            name: "bad hex color in a layer",
            json: scene(layer: ##"{"circle": {"radius": 5}, "fill": "#12345"}"##),
            error: ##"layers[0].fill: \##(colorSyntax), got "#12345""##),
        ConfigCase(
            name: "color that is no string",
            json: scene(layer: #"{"arc": {"radius": 5}, "stroke": 255}"#),
            error: #"layers[0].stroke: \#(colorSyntax), found a number"#),
        ConfigCase(
            name: "matte color",
            json: scene(layer: #"{"circle": {"radius": 5}}"#, top: #", "encode": {"matte": "Whiet"}"#),
            error: #"encode.matte: \#(colorSyntax), got "Whiet"; did you mean "white"?"#),
        ConfigCase(
            name: "animated property",
            json: scene(
                layer:
                    #"{"circle": {"radius": 5}, "animate": [{"kind": "step", "property": "opacty", "by": 1}]}"#),
            error:
                #"layers[0].animate[0].property: expected "rotate", "rotateY", "scale", "scaleX", "scaleY", "opacity", "translateX", "translateY", "start", "end", "offset" or "d", got "opacty"; did you mean "opacity"?"#
        ),
        ConfigCase(
            name: "animation kind",
            json: scene(
                layer:
                    #"{"circle": {"radius": 5}, "animate": [{"kind": "keyframe", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 1}]}]}"#
            ),
            error:
                #"layers[0].animate[0].kind: expected "step" or "keyframes", got "keyframe"; did you mean "keyframes"?"#
        ),
        ConfigCase(
            name: "easing name",
            json: scene(
                layer:
                    #"{"circle": {"radius": 5}, "animate": [{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 1, "ease": "ease-inout"}]}]}"#
            ),
            error:
                #"layers[0].animate[0].keys[0].ease: expected an easing: "linear", "ease", "ease-in", "ease-out", "ease-in-out", "cubic-bezier(x1, y1, x2, y2)" with x1 and x2 in 0…1, or "steps(n)", got "ease-inout"; did you mean "ease-in-out"?"#
        ),
        ConfigCase(
            name: "arc cap",
            json: scene(layer: #"{"arc": {"radius": 5, "cap": "rond"}}"#),
            error: #"layers[0].arc.cap: expected "round" or "butt", got "rond"; did you mean "round"?"#),
        ConfigCase(
            name: "output format",
            json: scene(
                layer: #"{"circle": {"radius": 5}}"#, top: #", "output": [{"path": "a.gif", "format": "gfi"}]"#),
            error: #"output[0].format: expected "gif", "apng", "webp", "lottie", "dotlottie" or "svg", got "gfi"; "#
                + #"did you mean "gif"?"#),
        ConfigCase(
            name: "frames sort",
            json: #"{"version": 1, "frames": {"dir": "f", "sort": "nmae"}}"#,
            error: #"frames.sort: expected "natural" or "name", got "nmae"; did you mean "name"?"#),
        ConfigCase(
            name: "layer type",
            json: scene(layer: #"{"type": "lotie", "src": "a.json"}"#),
            error:
                #"layers[0].type: only "lottie" is written with "type" (and "src"), got "lotie"; other layers are written with their kind key, like {"circle": {"radius": 5}}; did you mean "lottie"?"#
        ),
    ]

    @Test(
        "a config's mistake (65) names the file and path, echoes the value and ends in the nearest choice",
        arguments: configCases)
    func config(_ c: ConfigCase) throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(c.json, to: dir, as: "bad.json")
            let r = try Throbber.run(["render", config.path, "-o", dir.appendingPathComponent("out.gif").path])
            #expect(r.status == 65, "stderr: \(r.stderrText)")
            #expect(r.stderrLines == ["throbber: error: \(config.path): \(c.error)"], "\(r.stderrText)")
            #expect(try listing(dir) == ["bad.json"])
        }
    }
}
