import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// ConfigDecoder (the config format of man throbber): exact numbers, defaults, relative paths, and
/// validation before drawing with file + JSON path + what was expected.
@Suite("scene config: decoding and validation")
struct SceneConfigTests {
    @Test(
        "defaults: fps 25, step 0.25 s, loop 0, no bounce, duplicate 1, scale 1, transparent, colors unset (256 for GIF, truecolor APNG), dither 1"
    )
    func defaults() throws {
        let c = try SceneTestKit.config(
            #"{"version": 1, "canvas": {"width": 10, "height": 10}, "layers": [{"circle": {"radius": 1}}]}"#)
        #expect(c.timing.fps == Rational(25) && c.timing.step == Rational(1, 4) && c.timing.duration == nil)
        #expect(c.loop == 0 && c.bounce == false && c.duplicate == .every(1))
        #expect(c.canvas.scale == 1 && c.canvas.background == .transparent)
        #expect(c.encode.colors == nil && c.encode.dither == 1 && c.encode.quality == nil && c.encode.matte == nil)
        #expect(c.encode.lossy == 0)
        let lossy = try SceneTestKit.config(
            #"{"version": 1, "canvas": {"width": 10, "height": 10}, "layers": [{"circle": {"radius": 1}}], "encode": {"lossy": 80}}"#
        )
        #expect(lossy.encode.lossy == 80)
        #expect(c.outputs.isEmpty)
        let layer = try SceneTestKit.layers(c)[0]
        #expect(layer.center == nil && layer.opacity == 1 && layer.rotate == 0 && layer.scale == 1)
        #expect(layer.fill == Color(r: 0, g: 0, b: 0))
    }

    @Test(
        "numbers are exact: 0.25 is 1/4, \"1/3\" and \"-2/3\" are thirds, 1e-2 is 1/100, 30000/1001 fps stays a fraction"
    )
    func exactNumbers() throws {
        let c = try SceneTestKit.config(
            #"""
            {"version": 1, "canvas": {"width": 10, "height": 10},
             "timing": {"fps": "30000/1001", "step": 0.25, "duration": 1e-2},
             "layers": [{"circle": {"radius": 1}, "animate": [
               {"kind": "step", "property": "opacity", "from": 1, "by": "-1/3", "bounce": [0, 1]},
               {"kind": "step", "property": "rotate", "from": "-2/3", "by": 0.5}]}]}
            """#)
        #expect(c.timing.fps == Rational(30000, 1001))
        #expect(c.timing.step == Rational(1, 4))
        #expect(c.timing.duration == Rational(1, 100))
        let a = try SceneTestKit.layers(c)[0].animations
        guard case .step(let fade) = a[0].kind, case .step(let turn) = a[1].kind else {
            Issue.record("not steps")
            return
        }
        #expect(fade.by == Rational(-1, 3) && fade.from == Rational(1))
        #expect(turn.from == Rational(-2, 3) && turn.by == Rational(1, 2))
        // 0.5° per step: a whole turn after exactly 720 steps.
        #expect(turn.periodSteps == 720)
    }

    @Test("relative paths are relative to the config's folder: images, frame folders, outputs")
    func relativePaths() throws {
        try withTemporaryDirectory { dir in
            let sub = dir.appendingPathComponent("cfg")
            try FileManager.default.createDirectory(
                at: sub.appendingPathComponent("img"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: SceneTestKit.examples.appendingPathComponent("loading_loop@2x.png"),
                to: sub.appendingPathComponent("img/ring@2x.png"))
            let file = sub.appendingPathComponent("a.json")
            try Data(
                #"{"version": 1, "canvas": {"width": 60, "height": 60}, "layers": [{"image": "img/ring@2x.png"}], "output": [{"path": "out/a.gif"}, {"path": "/abs/b.gif", "format": "gif"}]}"#
                    .utf8
            ).write(to: file)
            let c = try ConfigDecoder.load(file: file.path)
            guard case .image(let image) = try SceneTestKit.layers(c)[0].kind else {
                Issue.record("not an image")
                return
            }
            #expect(
                URL(fileURLWithPath: image.path).standardizedFileURL.path
                    == sub.appendingPathComponent("img/ring@2x.png").path)
            #expect(image.pixelScale == 2 && image.image.width == 120)
            #expect(
                c.outputs.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path } == [
                    sub.appendingPathComponent("out/a.gif").path, "/abs/b.gif",
                ])
            #expect(c.outputs[1].format == "gif")

            try Data(#"{"version": 1, "frames": {"dir": "frames"}}"#.utf8).write(to: file)
            guard case .frames(let frames) = try ConfigDecoder.load(file: file.path).content else {
                Issue.record("not frames")
                return
            }
            #expect(
                URL(fileURLWithPath: frames.dir).standardizedFileURL.path == sub.appendingPathComponent("frames").path)
        }
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var kind: ThrobberError.Kind
        /// The message must start with "ease.json: <path>: ".
        var path: String
        var says: String
        var testDescription: String { name }
    }

    static func scene(_ layer: String = #"{"circle": {"radius": 5}}"#, _ extra: String = "") -> String {
        #"{"version": 1, "canvas": {"width": 60, "height": 60}, "layers": [\#(layer)]\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    static func animated(_ animation: String) -> String {
        scene(#"{"circle": {"radius": 5}, "animate": [\#(animation)]}"#)
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "the issue's example",
            json: #"""
                {"version": 1, "canvas": {"width": 60, "height": 60},
                 "layers": [{"circle": {"radius": 5}, "animate": [{"kind": "step", "property": "rotate", "by": 120},
                                                               {"kind": "step", "property": "opacity", "by": "1/three", "bounce": [0, 1]}]}]}
                """#, kind: .data, path: "layers[0].animate[1].by", says: #"expected a number or a fraction like "1/3""#
        ),
        Refusal(
            name: "unknown key deep in a group",
            json: scene(#"{"group": [{"group": [{"circle": {"radius": 1}, "centre": [1, 1]}]}]}"#),
            kind: .data, path: "layers[0].group[0].group[0].centre", says: "unknown key"),
        Refusal(
            name: "unknown key in a keyframe",
            json: animated(
                #"{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 1, "easing": "linear"}]}"#
            ),
            kind: .data, path: "layers[0].animate[0].keys[0].easing", says: "unknown key"),
        Refusal(
            name: "negative rect width", json: scene(#"{"rect": {"width": -1, "height": 1}}"#), kind: .data,
            path: "layers[0].rect.width", says: "-1"),
        Refusal(
            name: "negative canvas height",
            json: #"{"version": 1, "canvas": {"width": 10, "height": -10}, "layers": [{"circle": {"radius": 1}}]}"#,
            kind: .data, path: "canvas.height", says: "-10"),
        Refusal(
            name: "fps 0", json: scene(#"{"circle": {"radius": 5}}"#, #""timing": {"fps": 0}"#), kind: .data,
            path: "timing.fps", says: "0"),
        Refusal(
            name: "canvas over 4096 px at scale 4",
            json:
                #"{"version": 1, "canvas": {"width": 1025, "height": 10, "scale": 4}, "layers": [{"circle": {"radius": 1}}]}"#,
            kind: .data, path: "canvas.width", says: "4096"),
        Refusal(
            name: "bad background",
            json:
                ##"{"version": 1, "canvas": {"width": 10, "height": 10, "background": "#1234"}, "layers": [{"circle": {"radius": 1}}]}"##,
            kind: .data, path: "canvas.background", says: "expected a color"),
        Refusal(
            name: "lossy over 200", json: scene(#"{"circle": {"radius": 5}}"#, #""encode": {"lossy": 201}"#),
            kind: .data, path: "encode.lossy", says: "201"),
        Refusal(
            name: "bad easing",
            json: animated(#"{"kind": "step", "property": "rotate", "by": 90, "ease": "ease-sideways"}"#),
            kind: .data, path: "layers[0].animate[0].ease", says: "expected an easing"),
        Refusal(
            name: "a rotate step that never comes round (0.1° × 3600 steps)",
            json: animated(#"{"kind": "step", "property": "rotate", "by": 0.1}"#),
            kind: .data, path: "layers[0].animate[0]", says: "never repeats"),
        Refusal(
            name: "a missing image", json: scene(#"{"image": "missing@2x.png"}"#), kind: .noInput,
            path: "layers[0].image", says: "missing@2x.png"),
        Refusal(
            name: "an image that is not an image", json: scene(#"{"image": "ease.json"}"#), kind: .data,
            path: "layers[0].image", says: "ease.json"),
    ]

    @Test("refused with the file, the JSON path and what was expected", arguments: refusals)
    func refused(_ r: Refusal) throws {
        try withTemporaryDirectory { dir in
            try Data(r.json.utf8).write(to: dir.appendingPathComponent("ease.json"))
            let e = SceneTestKit.error {
                _ = try ConfigDecoder.decode(Array(r.json.utf8), file: "ease.json", baseDirectory: dir.path)
            }
            #expect(e?.kind == r.kind, "\(String(describing: e))")
            let message = e?.message ?? ""
            #expect(message.hasPrefix("ease.json: \(r.path): "), "\(message)")
            #expect(message.contains(r.says), "\(message)")
        }
    }

    @Test("the issue's example message, exactly")
    func exactMessage() throws {
        let e = SceneTestKit.error { _ = try SceneTestKit.config(Self.refusals[0].json, file: "ease.json") }
        #expect(e?.message == #"ease.json: layers[0].animate[1].by: expected a number or a fraction like "1/3""#)
        #expect(e?.exitCode == 65)
    }

    @Test("a syntax error names the file, line and column")
    func syntax() throws {
        let e = SceneTestKit.error {
            _ = try SceneTestKit.config("{\"version\": 1,\n  \"layers\": [,]}", file: "x.json")
        }
        #expect(e?.kind == .data)
        #expect(e?.message.hasPrefix("x.json: line 2, column 14: ") == true, "\(String(describing: e))")
    }
}
