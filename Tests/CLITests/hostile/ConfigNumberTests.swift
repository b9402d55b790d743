import Foundation
import TestSupport
import Testing

/// Numbers a config may not hold (docs/reliability.md, "Vector export"):
/// 1e308, −1e308, 1e400 (which JSON readers make infinite), 10³⁰ written out
/// and 1e-320 in every numeric key, and easings with such numbers, are
/// refused when the config is read, exit 65, naming the file, the JSON path,
/// "out of range" and the range; never "expected a number", never a cairo
/// error (exit 70), never a file written.
@Suite("Hostile numbers in configs: out of range at read, for SVG, Lottie and GIF")
struct ConfigNumberTests {
    /// One numeric key: the config with `@` where the number goes, the
    /// key's JSON path and the range the message must give.
    struct Field: CustomTestStringConvertible, Sendable {
        var json: String
        var path: String
        var range: String
        /// Whether the key holds a whole number (1e-320 is then a fraction).
        var whole = false
        /// A number the key takes.
        var ordinary = "1"
        var testDescription: String { path }
    }

    static let canvas = #""canvas": {"width": 32, "height": 32}"#

    /// A scene with `layer` as its only layer.
    static func scene(_ layer: String, timing: String = #"{"fps": 10}"#, extra: String = "") -> String {
        #"{"version": 1, \#(canvas), "timing": \#(timing), \#(extra)"layers": [\#(layer)]}"#
    }

    /// A circle layer with `keys` added.
    static func circle(_ keys: String) -> String { #"{"circle": {"radius": 4}, \#(keys)}"# }

    /// A keyframe animation of `property` whose keys are `keys`.
    static func keyframes(_ property: String, _ keys: String, period: String = "1") -> String {
        circle(
            #""animate": [{"kind": "keyframes", "property": "\#(property)", "period": \#(period), "keys": \#(keys)}]"#)
    }

    static let points = "-100000…100000 points"
    static let degrees = "-1000000…1000000 degrees"

    static let fields: [Field] = [
        Field(
            json: scene(circle(#""opacity": 1"#), timing: #"{"fps": @}"#), path: "timing.fps",
            range: "greater than 0, at most 1000"),
        Field(
            json: scene(circle(#""opacity": 1"#), timing: #"{"fps": 10, "step": @}"#), path: "timing.step",
            range: "greater than 0, at most 1000000"),
        Field(
            json: scene(circle(#""opacity": 1"#), timing: #"{"fps": 10, "duration": @}"#), path: "timing.duration",
            range: "greater than 0, at most 1000000"),
        Field(
            json: scene(circle(#""opacity": 1"#), timing: #"{"fps": 10, "start": @}"#), path: "timing.start",
            range: "at least 0, at most 1000000"),
        Field(
            json: scene(circle(#""opacity": 1"#), timing: #"{"fps": 10, "speed": @}"#), path: "timing.speed",
            range: "greater than 0, at most 100"),
        Field(
            json: #"{"version": 1, "canvas": {"width": @, "height": 32}, "layers": [{"circle": {"radius": 4}}]}"#,
            path: "canvas.width", range: "greater than 0, at most 4096"),
        Field(
            json:
                #"{"version": 1, "canvas": {"width": 32, "height": 32, "scale": @}, "layers": [{"circle": {"radius": 4}}]}"#,
            path: "canvas.scale", range: "1…16", whole: true),
        Field(
            json: scene(circle(#""opacity": 1"#), extra: #""loop": @, "#), path: "loop", range: "0…65535", whole: true),
        Field(json: scene(circle(#""center": [16, @]"#)), path: "layers[0].center[1]", range: points),
        Field(json: scene(circle(#""opacity": @"#)), path: "layers[0].opacity", range: "at least 0, at most 1"),
        Field(json: scene(circle(#""rotate": @"#)), path: "layers[0].rotate", range: degrees),
        Field(json: scene(circle(#""scale": @"#)), path: "layers[0].scale", range: "-10000…10000"),
        Field(json: scene(#"{"circle": {"radius": @}}"#), path: "layers[0].circle.radius", range: "0…100000 points"),
        Field(json: scene(#"{"arc": {"radius": 8, "start": @}}"#), path: "layers[0].arc.start", range: degrees),
        Field(
            json: scene(#"{"arc": {"radius": 8, "width": @}}"#), path: "layers[0].arc.width",
            range: "0…100000 points"),
        Field(
            json: scene(#"{"rect": {"width": 8, "height": @}}"#), path: "layers[0].rect.height",
            range: "0…100000 points"),
        Field(
            json: scene(#"{"rect": {"width": 8, "height": 8, "corner": @}}"#), path: "layers[0].rect.corner",
            range: "0…100000 points"),
        Field(
            json: scene(circle(#""repeat": {"count": @}"#)), path: "layers[0].repeat.count", range: "1…1000",
            whole: true),
        Field(
            json: scene(circle(#""repeat": {"count": 3, "offset": [@, 0]}"#)), path: "layers[0].repeat.offset[0]",
            range: points),
        Field(
            json: scene(circle(#""repeat": {"count": 3, "around": @}"#)), path: "layers[0].repeat.around",
            range: "0…100000 points"),
        Field(
            json: scene(circle(#""repeat": {"count": 3, "turn": @}"#)), path: "layers[0].repeat.turn",
            range: degrees),
        Field(
            json: scene(circle(#""repeat": {"count": 3, "delay": @}"#)), path: "layers[0].repeat.delay",
            range: "-1000000…1000000 seconds"),
        Field(
            json: scene(keyframes("scale", #"[{"at": 0, "value": 1}]"#, period: "@")),
            path: "layers[0].animate[0].period", range: "greater than 0, at most 1000000"),
        Field(
            json: scene(keyframes("scale", #"[{"at": @, "value": 1}]"#)), path: "layers[0].animate[0].keys[0].at",
            range: "at least 0, at most 1"),
        Field(
            json: scene(keyframes("translateX", #"[{"at": 0, "value": @}]"#)),
            path: "layers[0].animate[0].keys[0].value", range: points),
        Field(
            json: scene(keyframes("opacity", #"[{"at": 0, "value": 1}, {"at": 1, "value": @}]"#)),
            path: "layers[0].animate[0].keys[1].value", range: "-10000…10000"),
        Field(
            json: scene(keyframes("rotate", #"[{"at": 0, "value": @}]"#)),
            path: "layers[0].animate[0].keys[0].value", range: degrees),
        Field(
            json: scene(circle(#""animate": [{"kind": "step", "property": "rotate", "by": @}]"#)),
            path: "layers[0].animate[0].by", range: degrees),
        Field(
            json: scene(circle(#""animate": [{"kind": "step", "property": "opacity", "by": 1, "bounce": [0, @]}]"#)),
            path: "layers[0].animate[0].bounce[1]", range: "-10000…10000"),
        Field(
            json: scene(circle(#""animate": [{"kind": "step", "property": "rotate", "by": 90, "delay": @}]"#)),
            path: "layers[0].animate[0].delay", range: "-1000000…1000000 seconds"),
        Field(
            json: scene(circle(#""opacity": 1"#), extra: #""encode": {"dither": @}, "#), path: "encode.dither",
            range: "at least 0, at most 1"),
        Field(
            json: scene(circle(#""opacity": 1"#), extra: #""encode": {"colors": @}, "#), path: "encode.colors",
            range: "2…256", whole: true, ordinary: "2"),
    ]

    /// Extreme numbers as written in JSON.
    static let extremes = ["1e308", "-1e308", "1e400", "-1e400", "1000000000000000000000000000000"]

    /// Runs `render CONFIG -o out/out.EXT` for `text` in `dir`.
    static func render(_ text: String, ext: String, in dir: URL) throws -> (CommandResult, URL) {
        let config = try SceneCLI.write(text, to: dir, as: "numbers.json")
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        return (try Throbber.run(["render", config.path, "-o", out.appendingPathComponent("out.\(ext)").path]), config)
    }

    @Test("an extreme number in any numeric key: exit 65, out of range, the range, nothing written", arguments: fields)
    func extremeNumbers(_ field: Field) throws {
        try withTemporaryDirectory { dir in
            for (i, number) in Self.extremes.enumerated() {
                let ext = VectorBombTests.outputs[i % 3].split(separator: ".")[1]
                let (r, config) = try Self.render(field.json.replacing("@", with: number), ext: String(ext), in: dir)
                expectFailure(
                    r, status: 65,
                    names: [config.path, "\(field.path): \(number.prefix(40))", "is out of range (\(field.range))"])
                #expect(!r.stderrText.contains("expected a"), "\(r.stderrText)")
                #expect(try listing(dir.appendingPathComponent("out")).isEmpty)
            }
        }
    }

    @Test(
        "1e-320 in any numeric key: exit 65, too finely divided (or a fraction where a whole number goes)",
        arguments: fields)
    func tinyNumbers(_ field: Field) throws {
        try withTemporaryDirectory { dir in
            let (r, config) = try Self.render(field.json.replacing("@", with: "1e-320"), ext: "svg", in: dir)
            let says = field.whole ? "expected a whole number, found a fraction" : #""1e-320" is too finely divided"#
            expectFailure(r, status: 65, names: [config.path, "\(field.path): \(says)"])
            #expect(try listing(dir.appendingPathComponent("out")).isEmpty)
        }
    }

    @Test("the fields within range render: the table's configs are valid with an ordinary number", arguments: fields)
    func ordinaryNumbers(_ field: Field) throws {
        try withTemporaryDirectory { dir in
            let (r, _) = try Self.render(field.json.replacing("@", with: field.ordinary), ext: "svg", in: dir)
            #expect(r.status == 0, "\(r.stderrText)")
        }
    }

    @Test(
        "cubic-bezier with 1e308: out of range when the config is read, for frames, SVG and Lottie alike",
        arguments: [
            ("cubic-bezier(0.5,1e308,0.5,1e308)", "y1 1e308 is out of range (-100…100)"),
            ("cubic-bezier(0.5, 0, 0.5, -1e400)", "y2 -1e400 is out of range (-100…100)"),
            ("cubic-bezier(0.5, 100.5, 0.5, 1)", "y1 100.5 is out of range (-100…100)"),
            ("cubic-bezier(2, 0, 0.5, 1)", "x1 2 is out of range (0…1)"),
            ("steps(2147483647)", "n 2147483647 is out of range (1…1000)"),
            ("steps(99999999999999999999999)", "n 99999999999999999999999 is out of range (1…1000)"),
            ("steps(1001)", "n 1001 is out of range (1…1000)"),
        ])
    func easings(_ ease: String, says: String) throws {
        try withTemporaryDirectory { dir in
            let keys = #"[{"at": 0, "value": 0, "ease": "\#(ease)"}, {"at": 1, "value": 10}]"#
            for output in VectorBombTests.outputs {
                let ext = String(output.split(separator: ".")[1])
                let (r, config) = try Self.render(Self.scene(Self.keyframes("translateX", keys)), ext: ext, in: dir)
                expectFailure(
                    r, status: 65, names: [config.path, "layers[0].animate[0].keys[0].ease: \"\(ease)\": \(says)"])
                #expect(try listing(dir.appendingPathComponent("out")).isEmpty)
            }
        }
    }

    @Test("a fraction whose numbers no config number can hold is out of range too, not malformed")
    func hugeFractions() throws {
        try withTemporaryDirectory { dir in
            for fraction in ["99999999999999999999/1", "-1/99999999999999999999"] {
                let json = Self.scene(
                    Self.circle(#""animate": [{"kind": "step", "property": "rotate", "by": "\#(fraction)"}]"#))
                let (r, config) = try Self.render(json, ext: "svg", in: dir)
                expectFailure(
                    r, status: 65, names: [config.path, "layers[0].animate[0].by: \"\(fraction)\" is out of range"])
                #expect(!r.stderrText.contains("expected a"), "\(r.stderrText)")
            }
            // A string that is no fraction, or divides by zero, is still malformed.
            for malformed in ["1/x", "1/0", "5/00"] {
                let json = Self.scene(
                    Self.circle(#""animate": [{"kind": "step", "property": "rotate", "by": "\#(malformed)"}]"#))
                let (r, _) = try Self.render(json, ext: "svg", in: dir)
                #expect(r.stderrText.contains("expected a number or a fraction"), "\(malformed): \(r.stderrText)")
            }
        }
    }

    @Test("the widest values in range draw and export: y of ±100, steps(1000), 100000 points, 10^6 degrees")
    func edgesOfTheRanges() throws {
        try withTemporaryDirectory { dir in
            let keys = #"""
                [{"at": 0, "value": -100000, "ease": "cubic-bezier(0.2, 100, 0.8, -100)"},
                 {"at": 0.5, "value": 100000, "ease": "steps(1000)"}, {"at": 1, "value": 0}]
                """#
            let layers = [
                Self.keyframes("translateX", keys),
                #"{"circle": {"radius": 4}, "rotate": 1000000, "scale": 10000, "center": [-100000, 100000]}"#,
            ]
            for output in VectorBombTests.outputs {
                let ext = String(output.split(separator: ".")[1])
                let config = #"{"version": 1, \#(Self.canvas), "layers": [\#(layers.joined(separator: ","))]}"#
                let (r, _) = try Self.render(config, ext: ext, in: dir)
                #expect(r.status == 0, "\(output): \(r.stderrText)")
                // Every number written is short: no 309-digit numbers.
                let text = String(
                    decoding: try Data(contentsOf: dir.appendingPathComponent("out/\(output)")), as: UTF8.self)
                if ext != "gif" {
                    let longest = text.split(whereSeparator: { !"0123456789".contains($0) }).map(\.count).max() ?? 0
                    #expect(longest < 16, "\(output): a number of \(longest) digits")
                }
            }
        }
    }
}
