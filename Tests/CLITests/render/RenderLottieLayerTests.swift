import Foundation
import TestSupport
import Testing

/// A config's Lottie layer (`{"type": "lottie", "src": …}` or
/// `{"lottie": …}`): drawn by rlottie at its w×h in points times the canvas
/// scale, on the scene's clock, composited with the other layers. Checked
/// against rlottie's own frames drawn through Python ctypes
/// (Tests/tools/rlottie_render.py, a fresh rlottie object per frame).
@Suite("render: Lottie layers", .needsFixtures, .tags(.slow))
struct RenderLottieLayerTests {
    struct Entry: Decodable {
        var decoded: Int
        var frame: Int
        var diff: Int
        var maxdiff: Int
    }
    struct Check: Decodable {
        var decoded: Int
        var width: Int
        var height: Int
        var entries: [Entry]
    }

    /// simple_loader (200×200 points, 25 fps, 15 frames: a 0.6 s loop) at
    /// canvas scale 2, centered at (110, 100): 400×400 pixels at (20, 0).
    /// Below it a bar moving on a 0.4 s period, so the scene's cycle is
    /// lcm(0.6, 0.4) = 1.2 s: 60 frames at 50 fps.
    static func config(_ src: String, background: String = "transparent", form: String = "type") -> String {
        let layer = form == "type" ? #""type": "lottie", "src": "\#(src)""# : #""lottie": "\#(src)""#
        return #"""
            {"version": 1, "canvas": {"width": 220, "height": 240, "scale": 2, "background": "\#(background)"},
             "timing": {"fps": 50},
             "layers": [
               {\#(layer), "center": [110, 100]},
               {"rect": {"width": 100, "height": 20}, "fill": "#3366cc", "center": [110, 225],
                "animate": [{"kind": "keyframes", "property": "translateX", "period": 0.4,
                             "keys": [{"at": 0, "value": 0}, {"at": 0.2, "value": 50}, {"at": 0.4, "value": 0}]}]}]}
            """#
    }

    /// The Lottie frame scene frame k shows: t = k/50 s, the loop 0.6 s,
    /// frame ⌊(t mod 0.6) · 25⌋ = ⌊k/2⌋ mod 15.
    static func lottieFrame(_ k: Int) -> Int { (k / 2) % 15 }

    static func check(_ anim: URL, _ lottie: URL, background: [Int]?, frames: [(Int, Int)]) throws -> Check {
        let spec: [String: Any] = [
            "x": 20, "y": 0, "w": 400, "h": 400, "background": background.map { $0 as Any } ?? NSNull(),
            "frames": frames.map { [$0.0, $0.1] },
        ]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        return try JSONDecoder().decode(
            Check.self, from: Pillow.script("rlottie_render.py", ["layer", anim.path, lottie.path, text]))
    }

    static let sampled = [0, 1, 7, 29, 30, 31, 44, 59]

    @Test(
        "on a transparent canvas the Lottie layer's pixels are rlottie's exactly, at the frame the scene's time shows",
        arguments: ["type", "kind key"])
    func exactOnTransparent(form: String) throws {
        let lottie = try LottieExpectation.fixture("simple_loader")
        try withTemporaryDirectory { dir in
            try FileManager.default.copyItem(at: lottie, to: dir.appendingPathComponent("loader.json"))
            let config = try SceneCLI.write(Self.config("loader.json", form: form), to: dir, as: "scene.json")
            let out = dir.appendingPathComponent("scene.png")
            try SceneCLI.render(config, to: out)
            let c = try Self.check(
                out, lottie, background: nil, frames: Self.sampled.map { ($0, Self.lottieFrame($0)) })
            #expect(c.width == 440 && c.height == 480, "canvas 220x240 points at scale 2")
            #expect(c.decoded == 60, "lcm(0.6 s, 0.4 s) = 1.2 s at 50 fps is 60 frames")
            let bad = c.entries.filter { $0.diff != 0 }
            #expect(
                bad.isEmpty,
                "frames differing from rlottie's: \(bad.map { "\($0.decoded)->\($0.frame): \($0.diff) px" })")
            // The comparison can tell neighbouring Lottie frames apart.
            let off = try Self.check(out, lottie, background: nil, frames: [(7, 4), (7, 2), (31, 1)])
            #expect(off.entries.allSatisfy { $0.diff > 0 }, "a neighbouring frame matched too: \(off.entries)")
        }
    }

    /// cairo composites rlottie's premultiplied pixels over white in 8 bits;
    /// the reference composites the straight pixels rlottie_render.py gives
    /// (premultiplied rounded to straight) with Pillow. The two roundings can
    /// differ by one level; more would mean a wrong place, size or frame.
    @Test("on white, the Lottie layer is rlottie's frame over white within 1 level")
    func withinOneOnWhite() throws {
        let lottie = try LottieExpectation.fixture("simple_loader")
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.config(lottie.path, background: "white"), to: dir, as: "scene.json")
            let out = dir.appendingPathComponent("scene.png")
            try SceneCLI.render(config, to: out)
            let c = try Self.check(
                out, lottie, background: [255, 255, 255], frames: Self.sampled.map { ($0, Self.lottieFrame($0)) })
            let bad = c.entries.filter { $0.maxdiff > 1 }
            #expect(bad.isEmpty, "more than 1 level off: \(bad.map { "\($0.decoded): \($0.maxdiff)" })")
        }
    }

    @Test("--jobs 1 and 2 give the same bytes, APNG and GIF")
    func deterministic() throws {
        let lottie = try LottieExpectation.fixture("simple_loader")
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.config(lottie.path), to: dir, as: "scene.json")
            for ext in ["png", "gif"] {
                var outputs: [Data] = []
                for jobs in ["1", "2"] {
                    let out = dir.appendingPathComponent("j\(jobs).\(ext)")
                    try SceneCLI.render(config, to: out, extra: ["--jobs", jobs])
                    outputs.append(try Data(contentsOf: out))
                }
                #expect(outputs[0] == outputs[1], "--jobs changed the \(ext) bytes")
            }
        }
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var name: String
        var src: String
        var status: Int32
        var says: String
        var testDescription: String { name }
    }

    static let bad = [
        Bad(name: "a missing file", src: "nope.json", status: 66, says: "nope.json"),
        Bad(name: "JSON that is not Lottie", src: "other.json", status: 65, says: "not a Lottie file"),
        Bad(name: "a PNG", src: "pic.png", status: 65, says: "not a Lottie file"),
        Bad(name: "a Throbber config", src: "scene.json", status: 65, says: "is a Throbber config"),
    ]

    @Test("a bad src is refused before drawing, naming the config and the JSON path", arguments: bad)
    func refused(_ b: Bad) throws {
        try withTemporaryDirectory { dir in
            try SceneCLI.write(#"{"v": "5.0", "layers": []}"#, to: dir, as: "other.json")
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: dir.appendingPathComponent("pic.png"))
            try SceneCLI.write(Self.config(b.src), to: dir, as: "scene.json")
            let r = try Throbber.run(["render", "scene.json", "-o", "out.gif"], in: dir)
            #expect(r.status == b.status, "\(r.stderrText)")
            let line = r.stderrLines.first ?? ""
            #expect(r.stderrLines.count == 1, "\(r.stderrText)")
            #expect(line.hasPrefix("throbber: error: scene.json: layers[0].src: "), "\(line)")
            #expect(line.contains(b.says) && line.contains(b.src), "\(line)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.gif").path))
        }
    }
}

/// The JSON Schema knows both spellings of a Lottie layer, and refuses a
/// mix of them with another kind.
@Suite("render: Lottie layers in the JSON Schema")
struct RenderLottieLayerSchemaTests {
    static func scene(_ layer: String) -> String {
        #"{"version": 1, "canvas": {"width": 60, "height": 60}, "layers": [\#(layer)]}"#
    }

    @Test("both spellings validate")
    func valid() throws {
        try withTemporaryDirectory { dir in
            let files = try [
                #"{"type": "lottie", "src": "a.json", "center": [30, 30], "scale": 0.5}"#,
                #"{"lottie": "a.tgs", "opacity": 0.5, "repeat": {"count": 2, "delay": 0.1}}"#,
            ].enumerated().map { try SceneCLI.write(Self.scene($1), to: dir, as: "ok\($0).json") }
            let result = try RenderExamplesTests.validate(files)
            #expect(result.schemaErrors.isEmpty, "\(result.schemaErrors)")
            for f in result.files {
                #expect(f.errors.isEmpty, "\(f.file): \(f.errors.map { "\($0.path): \($0.message)" })")
            }
        }
    }

    @Test(
        "a wrong type, a type without src, and a Lottie with another kind are refused by the schema and by Throbber",
        arguments: [
            #"{"type": "image", "src": "a.png"}"#, #"{"type": "lottie"}"#, #"{"src": "a.json"}"#,
            #"{"lottie": "a.json", "circle": {"radius": 5}}"#,
            #"{"type": "lottie", "src": "a.json", "rect": {"width": 1, "height": 1}}"#,
        ])
    func refused(_ layer: String) throws {
        try withTemporaryDirectory { dir in
            let file = try SceneCLI.write(Self.scene(layer), to: dir, as: "broken.json")
            let errors = try #require(try RenderExamplesTests.validate([file]).files.first).errors
            #expect(!errors.isEmpty, "the schema accepts \(layer)")
            let r = try Throbber.run(["render", file.path, "-o", dir.appendingPathComponent("x.gif").path])
            #expect(r.status == 65, "\(r.stderrText)")
            #expect(r.stderrText.contains("layers[0]"), "\(r.stderrText)")
        }
    }
}
