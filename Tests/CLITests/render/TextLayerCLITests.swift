import Foundation
import Glibc
import TestSupport
import Testing

/// `text` layers through `render`: the font file named in the summary
/// line and by `info`, the words kept as the SVG's names, outlines in
/// Lottie, and every bad font, family and text refused with exit 65 (66
/// for a missing file), naming the JSON path, with nothing written.
@Suite("render: text layers, their fonts and their refusals")
struct TextLayerCLITests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    static func config(_ text: String, extra: String = "") -> String {
        #"{"version": 1, "canvas": {"width": 200, "height": 60}, "timing": {"fps": 10, "duration": 0.5}, "layers": [{"text": \#(text), "fill": "black"\#(extra)}]}"#
    }

    @Test("the summary line and info name the font file; the SVG keeps the words, Lottie the outlines")
    func fontNamed() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                Self.config(
                    #"{"string": "Loading", "family": "DejaVu Sans", "size": 30, "per": "glyph", "delay": 0.1}"#,
                    extra:
                        #", "animate": [{"kind": "keyframes", "property": "translateY", "period": 0.5, "keys": [{"at": 0, "value": 0}, {"at": 0.25, "value": -4}, {"at": 0.5, "value": 0}]}]"#
                ),
                to: dir, as: "t.json")
            for name in ["t.gif", "t.svg", "out.json"] {
                let out = dir.appendingPathComponent(name)
                let r = try Throbber.run(["render", config.path, "-o", out.path])
                #expect(r.status == 0, "\(r.stderrText)")
                #expect(r.stderrText.hasSuffix("; font \(Self.dejaVu)\n"), "\(r.stderrText)")
            }
            let svg = try String(contentsOf: dir.appendingPathComponent("t.svg"), encoding: .utf8)
            // The root's name and the text's own group carry the words; no <text> element.
            #expect(svg.contains("<title>Loading</title>"))
            #expect(svg.components(separatedBy: "<title>Loading</title>").count == 3)
            #expect(!svg.contains("<text"))
            #expect(svg.components(separatedBy: "<path ").count - 1 == 7, "one path per glyph")
            let lottie = try String(contentsOf: dir.appendingPathComponent("out.json"), encoding: .utf8)
            #expect(lottie.contains(#""ty":"sh""#) && !lottie.contains(#""ty":5"#), "outlines, not a text layer")
            let info = try Throbber.run(["info", config.path, "--json"])
            #expect(
                info.status == 0 && info.stdoutText.contains(#""fonts": ["\#(Self.dejaVu)"]"#), "\(info.stdoutText)")
        }
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var status: Int32
        var message: String
        var testDescription: String { name }
    }

    static let refusals = [
        Refusal(
            name: "a family fontconfig lacks", text: #"{"string": "x", "family": "DejaVu Sanz"}"#, status: 65,
            message: #"t.json: layers[0].text.family: no font family "DejaVu Sanz" (fontconfig offers "DejaVu Sans""#),
        Refusal(
            name: "a glyph the font lacks", text: #"{"string": "Done 中", "family": "DejaVu Sans"}"#, status: 65,
            message: #"layers[0].text.string: the font has no glyph for "中" (U+4E2D)"#),
        Refusal(
            name: "a million characters", text: #"{"string": "\#(String(repeating: "a", count: 1_000_000))"}"#,
            status: 65, message: "layers[0].text.string: "),
        Refusal(
            name: "a font file that is not a font", text: #"{"string": "x", "font": "fake.ttf"}"#, status: 65,
            message: "layers[0].text.string: "),
        Refusal(
            name: "a font file outside the config's folder", text: #"{"string": "x", "font": "../outside.ttf"}"#,
            status: 65, message: "layers[0].text.font: \"../outside.ttf\" is outside the config's folder"),
        Refusal(
            name: "a missing font file", text: #"{"string": "x", "font": "missing.ttf"}"#, status: 66,
            message: "layers[0].text.font: no font file"),
        Refusal(
            name: "a FIFO as the font", text: #"{"string": "x", "font": "pipe.ttf"}"#, status: 65,
            message: "layers[0].text.string: "),
        Refusal(
            name: "a glyph delay without per glyph", text: #"{"string": "x", "delay": 0.1}"#, status: 65,
            message: #"layers[0].text.delay: a glyph delay needs "per": "glyph""#),
        Refusal(
            name: "a font and a family", text: #"{"string": "x", "font": "\#(dejaVu)", "family": "DejaVu Sans"}"#,
            status: 65, message: #"layers[0].text.family: a text has a "font" file or a "family", not both"#),
    ]

    @Test("bad fonts, families and texts are refused naming the JSON path; nothing is written", arguments: refusals)
    func refused(_ c: Refusal) throws {
        try withTemporaryDirectory { root in
            let dir = root.appendingPathComponent("config")
            let config = try SceneCLI.write(Self.config(c.text), to: dir, as: "t.json")
            try SceneCLI.write("not a font, just text\n", to: dir, as: "fake.ttf")
            try SceneCLI.write("not a font either\n", to: root, as: "outside.ttf")
            mkfifo(dir.appendingPathComponent("pipe.ttf").path, 0o600)
            let out = dir.appendingPathComponent("t.gif")
            let r = try Throbber.run(["render", config.path, "-o", out.path])
            #expect(r.status == c.status, "\(r.stderrText)")
            #expect(r.stderrText.contains(c.message), "\(r.stderrText)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }
}
