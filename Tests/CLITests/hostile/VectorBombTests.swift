import Foundation
import TestSupport
import Testing

/// Configs whose vector export (SVG, Lottie) or drawing would take far more
/// time, memory or bytes than the config suggests (docs/reliability.md,
/// "Vector export"): refused when the config is read or before anything is
/// written, at once, with a small peak RSS, naming the file and the JSON
/// path; nothing is left in the output folder.
@Suite("Hostile vector exports: empty-group bombs, huge step counts, repeated pictures, extreme numbers", .tags(.slow))
struct VectorBombTests {
    /// The three outputs every bomb is tried with.
    static let outputs = ["out.svg", "out.json", "out.gif"]

    /// `depth` groups nested one in the next, each repeated `count` times,
    /// the innermost empty: a config of a few hundred bytes.
    static func emptyGroups(depth: Int, count: Int) -> String {
        var group = #"{"group": [], "repeat": {"count": \#(count)}}"#
        for _ in 1..<depth { group = #"{"group": [\#(group)], "repeat": {"count": \#(count)}}"# }
        return #"{"version": 1, "canvas": {"width": 32, "height": 32}, "timing": {"fps": 10}, "layers": [\#(group)]}"#
    }

    /// The JSON path of the group `level` levels inside the first layer.
    static func groupPath(_ level: Int) -> String {
        "layers[0]" + String(repeating: ".group[0]", count: level)
    }

    /// Runs `render CONFIG -o out/NAME` under /usr/bin/time in `dir`:
    /// the result, wall seconds and peak RSS in KB.
    static func render(_ config: URL, to name: String, in dir: URL, _ extra: [String] = []) throws -> (
        result: CommandResult, seconds: Double, kilobytes: Int
    ) {
        try APNGCLITests.measured(
            ["render", config.path, "-o", dir.appendingPathComponent("out/\(name)").path] + extra)
    }

    /// Makes `dir/out`, empty, for a run's output.
    static func outputFolder(in dir: URL) throws -> URL {
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        return out
    }

    @Test(
        "nested repeated empty groups (10^5 to 10^9 copies in under 400 bytes) are refused at read for SVG, Lottie and GIF",
        arguments: [(5, 10, 0), (6, 10, 1), (7, 10, 2), (2, 1000, 0), (3, 1000, 1)])
    func emptyGroupBomb(depth: Int, count: Int, refusedAt level: Int) throws {
        try withTemporaryDirectory { dir in
            let text = Self.emptyGroups(depth: depth, count: count)
            #expect(text.utf8.count < 400)
            let config = try SceneCLI.write(text, to: dir, as: "bomb.json")
            let out = try Self.outputFolder(in: dir)
            for name in Self.outputs {
                let m = try Self.render(config, to: name, in: dir)
                expectFailure(
                    m.result, status: 65,
                    names: [
                        config.path, Self.groupPath(level) + ".repeat.count", "drawn items a frame, more than 100000",
                    ])
                #expect(m.seconds < 2, "\(name): \(m.seconds) s")
                #expect(m.kilobytes < 100_000, "\(name): peak RSS \(m.kilobytes) KB")
                #expect(try listing(out).isEmpty, "\(name)")
            }
        }
    }

    @Test("11,110 empty group copies, within the budget, export to SVG and Lottie and draw, fast")
    func emptyGroupsWithinBudget() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.emptyGroups(depth: 4, count: 10), to: dir, as: "groups.json")
            let out = try Self.outputFolder(in: dir)
            for name in Self.outputs {
                let m = try Self.render(config, to: name, in: dir, ["-q"])
                #expect(m.result.status == 0, "\(name): \(m.result.stderrText)")
                #expect(m.seconds < 10, "\(name): \(m.seconds) s")
            }
            #expect(try VectorKit.parse(out.appendingPathComponent("out.svg"), as: "svg").root == "svg")
            #expect(try VectorKit.parse(out.appendingPathComponent("out.json"), as: "lottie").fr == 10)
            #expect(try listing(out) == Self.outputs.sorted())
        }
    }

    /// Writes `pic.png`, a 400×400 picture of a gradient with noise in its
    /// low bits (about 430 KB as PNG; noise does not compress), and
    /// `pics.json`: the picture repeated 50 times, one point apart, fading
    /// in turn, and once more in a layer of its own. Returns the config.
    static func repeatedPicture(in dir: URL) throws -> URL {
        let script = """
            import random, sys
            from PIL import Image
            rng = random.Random(1)
            w = h = 400
            im = Image.new("RGBA", (w, h))
            im.putdata([(x * 255 // w ^ rng.randrange(32), y * 255 // h ^ rng.randrange(32), 128 ^ rng.randrange(64), 255)
                        for y in range(h) for x in range(w)])
            im.save(sys.argv[1])
            """
        let made = try Command.run(Pillow.python, ["-c", script, dir.appendingPathComponent("pic.png").path])
        guard made.status == 0 else { throw HarnessError("Pillow: \(made.stderrText)") }
        let fade =
            #"{"kind": "keyframes", "property": "opacity", "period": 1, "keys": [{"at": 0, "value": 1}, {"at": 0.5, "value": 0.3}, {"at": 1, "value": 1}]}"#
        return try SceneCLI.write(
            #"""
            {"version": 1, "canvas": {"width": 200, "height": 200}, "timing": {"fps": 10}, "layers": [
              {"image": "pic.png", "center": [60, 60], "repeat": {"count": 50, "offset": [2, 1], "delay": 0.02},
               "animate": [\#(fade)]},
              {"image": "pic.png", "center": [150, 150]}]}
            """#, to: dir, as: "pics.json")
    }

    @Test("one picture shown 51 times (a 50-copy repeat and a layer) is embedded once in SVG and Lottie")
    func repeatedPictureEmbeddedOnce() throws {
        try withTemporaryDirectory { dir in
            let config = try Self.repeatedPicture(in: dir)
            let picture = try Data(contentsOf: dir.appendingPathComponent("pic.png")).count
            #expect(picture > 400_000, "\(picture) bytes")
            let out = try Self.outputFolder(in: dir)
            for name in ["out.svg", "out.json"] {
                let m = try Self.render(config, to: name, in: dir, ["-q"])
                #expect(m.result.status == 0, "\(name): \(m.result.stderrText)")
                #expect(m.seconds < 5, "\(name): \(m.seconds) s")
                // The picture once (base64: 4/3 of its PNG), and little else.
                let size = try Data(contentsOf: out.appendingPathComponent(name)).count
                #expect(size < picture * 2, "\(name): \(size) bytes for a picture of \(picture)")
            }
            // Python's parsers: the data URI once, every use pointing at it.
            let script = """
                import json, sys, xml.etree.ElementTree as ET
                svg = ET.parse(sys.argv[1]).getroot()
                ns = "{http://www.w3.org/2000/svg}"
                images = [e for e in svg.iter(ns + "image") if e.get("href", "").startswith("data:image/png;base64,")]
                uses = [e.get("href") for e in svg.iter(ns + "use")]
                lottie = json.load(open(sys.argv[2]))
                assets = [a for a in lottie["assets"] if str(a.get("p", "")).startswith("data:image/png;base64,")]
                refs = [l["refId"] for l in lottie["layers"] if l.get("ty") == 2]
                print(json.dumps({"svgImages": len(images), "svgIds": [e.get("id") for e in images], "uses": uses,
                                  "assets": len(assets), "assetIds": [a["id"] for a in assets], "refs": refs}))
                """
            let r = try Command.run(
                Pillow.python,
                ["-c", script, out.appendingPathComponent("out.svg").path, out.appendingPathComponent("out.json").path])
            try #require(r.status == 0, "\(r.stderrText)")
            struct Embedded: Decodable {
                var svgImages: Int
                var svgIds: [String?]
                var uses: [String?]
                var assets: Int
                var assetIds: [String]
                var refs: [String]
            }
            let e = try JSONDecoder().decode(Embedded.self, from: r.stdout)
            #expect(e.svgImages == 1 && e.assets == 1, "\(e.svgImages) SVG images, \(e.assets) Lottie assets")
            let id = try #require(e.svgIds.first ?? nil)
            #expect(e.uses == Array(repeating: "#" + id, count: 51))
            #expect(e.refs == Array(repeating: e.assetIds[0], count: 51))
        }
    }

    @Test(
        "the same picture drawn 20,100 times (2010 copies, 10 frames) renders to GIF in seconds, not minutes, and to SVG and Lottie at once"
    )
    func repeatedPictureDrawn() throws {
        try withTemporaryDirectory { dir in
            _ = try Self.repeatedPicture(in: dir)
            let config = try SceneCLI.write(
                #"""
                {"version": 1, "canvas": {"width": 200, "height": 64}, "timing": {"fps": 10}, "layers": [
                  {"group": [{"image": "pic.png", "repeat": {"count": 200, "offset": [0.5, 0.25]}},
                             {"image": "pic.png", "center": [14, 33]}],
                   "repeat": {"count": 10}, "animate": [{"kind": "keyframes", "property": "opacity", "period": 1,
                    "keys": [{"at": 0, "value": 1}, {"at": 0.5, "value": 0.5}]}]}]}
                """#, to: dir, as: "many.json")
            let out = try Self.outputFolder(in: dir)
            let m = try Self.render(config, to: "out.gif", in: dir, ["-q", "--jobs", "1"])
            #expect(m.result.status == 0, "\(m.result.stderrText)")
            #expect(m.seconds < 10, "\(m.seconds) s")
            let gif = try Pillow.decode(out.appendingPathComponent("out.gif"))
            // Ten frames of one second; neighbours that look the same are merged.
            #expect(gif.frames.count >= 2 && gif.width == 200 && gif.height == 64, "\(gif.frames.count) frames")
            #expect(try VectorKit.gifSeconds(out.appendingPathComponent("out.gif")) == 1)
            // Each of the 2010 uses looks its picture up by file, not by its 0.6 MB of data.
            for name in ["out.svg", "out.json"] {
                let v = try Self.render(config, to: name, in: dir, ["-q"])
                #expect(v.result.status == 0, "\(name): \(v.result.stderrText)")
                #expect(v.seconds < 3, "\(name): \(v.seconds) s")
                let text = try Data(contentsOf: out.appendingPathComponent(name))
                #expect(text.count < 1_000_000, "\(name): \(text.count) bytes")
            }
        }
    }

    @Test("a config's Lottie layer repeated 3 times is embedded once: one composition, three layers showing it")
    func lottieLayerEmbeddedOnce() throws {
        try withTemporaryDirectory { dir in
            try SceneCLI.write(VectorKit.tinyLottie, to: dir, as: "bar.json")
            let config = try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 40, "height": 40}, "layers": [{"lottie": "bar.json", "repeat": {"count": 3, "offset": [5, 0]}}]}"#,
                to: dir, as: "scene.json")
            let out = try Self.outputFolder(in: dir)
            let m = try Self.render(config, to: "out.json", in: dir, ["-q"])
            #expect(m.result.status == 0, "\(m.result.stderrText)")
            let script = """
                import json, sys
                d = json.load(open(sys.argv[1]))
                comps = [a["id"] for a in d["assets"] if "layers" in a]
                refs = [l["refId"] for l in d["layers"] if l.get("ty") == 0]
                print(json.dumps([comps, refs]))
                """
            let r = try Command.run(Pillow.python, ["-c", script, out.appendingPathComponent("out.json").path])
            try #require(r.status == 0, "\(r.stderrText)")
            let found = try JSONDecoder().decode([[String]].self, from: r.stdout)
            #expect(found[0].count == 1 && found[1] == Array(repeating: found[0][0], count: 3), "\(found)")
        }
    }

    @Test(
        "a config's Lottie layer with expressions exports to Lottie without them; its tangents stay, and it plays"
    )
    func lottieExpressionsDropped() throws {
        try withTemporaryDirectory { dir in
            // A bar turned by keyframes (tangents "x": [0.5]) and by an
            // expression, its color set by another expression.
            let lottie = #"""
                {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 20, "h": 20, "layers": [{"ty": 4, "ind": 1, "ip": 0,
                 "op": 10, "st": 0, "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [10, 10]},
                 "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                 "r": {"a": 1, "k": [{"t": 0, "s": [0], "i": {"x": [0.5], "y": [0.5]}, "o": {"x": [0.5], "y": [0.5]}},
                                     {"t": 10, "s": [90]}], "x": "var $bm_rt; $bm_rt = time * 3600;"}},
                 "shapes": [{"ty": "rc", "p": {"a": 0, "k": [0, -5]}, "s": {"a": 0, "k": [4, 8]}, "r": {"a": 0, "k": 0}},
                  {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1], "x": "fetch('https://example.invalid/'); [0, 0, 1, 1]"},
                   "o": {"a": 0, "k": 100}}]}]}
                """#
            try SceneCLI.write(lottie, to: dir, as: "bar.json")
            let config = try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 40, "height": 40}, "layers": [{"lottie": "bar.json"}]}"#, to: dir,
                as: "scene.json")
            let out = try Self.outputFolder(in: dir)
            let m = try Self.render(config, to: "out.json", in: dir, ["-q"])
            #expect(m.result.status == 0, "\(m.result.stderrText)")
            let script = """
                import json, sys
                strings, tangents = [], 0
                def walk(v):
                    global tangents
                    if isinstance(v, dict):
                        for k, x in v.items():
                            if k == "x" and isinstance(x, str):
                                strings.append(x)
                            if k == "x" and isinstance(x, list):
                                tangents += 1
                            walk(x)
                    elif isinstance(v, list):
                        for x in v:
                            walk(x)
                d = json.load(open(sys.argv[1]))
                comp = [a for a in d["assets"] if "layers" in a]
                walk(comp)
                refs = sorted(set(l["refId"] for l in d["layers"] if l.get("ty") == 0))
                shown = sum(1 for l in d["layers"] if l.get("ty") == 0)
                print(json.dumps({"expressions": strings, "tangents": tangents, "comps": len(comp), "refs": refs,
                                  "shown": shown, "comp": comp[0]["id"]}))
                """
            let r = try Command.run(Pillow.python, ["-c", script, out.appendingPathComponent("out.json").path])
            try #require(r.status == 0, "\(r.stderrText)")
            struct Found: Decodable {
                var expressions: [String]
                var tangents: Int
                var comps: Int
                var refs: [String]
                var shown: Int
                var comp: String
            }
            let found = try JSONDecoder().decode(Found.self, from: r.stdout)
            #expect(found.comps == 1 && found.shown == 1 && found.refs == [found.comp], "\(found)")
            #expect(found.expressions.isEmpty, "\(found.expressions)")
            #expect(found.tangents == 2, "the key's tangents: \(found.tangents)")
            // The file still plays: rlottie draws it.
            let played = try Throbber.run([
                "encode", out.appendingPathComponent("out.json").path, "-o", dir.appendingPathComponent("p.gif").path,
                "-q",
            ])
            #expect(played.status == 0, "\(played.stderrText)")
        }
    }

    /// A scene of `copies` discs moving by `steps(n)` jumps, each copy
    /// a thousandth of a second later than the one before.
    static func steps(copies: Int, n: Int = 1000, timing: String = #"{"fps": 10}"#, period: String = "1") -> String {
        let keys = #"[{"at": 0, "value": 0, "ease": "steps(\#(n))"}, {"at": \#(period), "value": 30}]"#
        return #"""
            {"version": 1, "canvas": {"width": 64, "height": 64}, "timing": \#(timing), "layers": [
              {"circle": {"radius": 2}, "repeat": {"count": \#(copies), "delay": 0.001},
               "animate": [{"kind": "keyframes", "property": "translateX", "period": \#(period), "keys": \#(keys)}]}]}
            """#
    }

    @Test(
        "steps(1000) on 900 copies, or on one value laid 1000 times over a 100 s loop: over a million keyframes, refused at once"
    )
    func tooManyKeyframes() throws {
        try withTemporaryDirectory { dir in
            let out = try Self.outputFolder(in: dir)
            for (name, text) in [
                ("copies.json", Self.steps(copies: 900)),
                ("loop.json", Self.steps(copies: 1, timing: #"{"fps": 10, "duration": 100}"#, period: "0.1")),
            ] {
                let config = try SceneCLI.write(text, to: dir, as: name)
                let m = try Self.render(config, to: "out.json", in: dir)
                expectFailure(
                    m.result, status: 65,
                    names: [config.path, "layers[0]: the Lottie file needs more than 1000000 keyframes"])
                #expect(m.seconds < 2, "\(name): \(m.seconds) s")
                #expect(m.kilobytes < 100_000, "\(name): peak RSS \(m.kilobytes) KB")
                #expect(try listing(out).isEmpty)
                // SVG says steps(1000) in one CSS function per copy: it is small, and written.
                let svg = try Self.render(config, to: "out.svg", in: dir, ["-q"])
                #expect(svg.result.status == 0, "\(svg.result.stderrText)")
                try FileManager.default.removeItem(at: out.appendingPathComponent("out.svg"))
            }
        }
    }

    @Test("steps(1000) on 40 copies: over 40,000 hold keyframes in Lottie, every one written, quickly")
    func manyHoldsWithinTheLimit() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.steps(copies: 40), to: dir, as: "steps.json")
            let out = try Self.outputFolder(in: dir)
            let m = try Self.render(config, to: "out.json", in: dir, ["-q"])
            #expect(m.result.status == 0, "\(m.result.stderrText)")
            #expect(m.seconds < 10, "\(m.seconds) s")
            let script = """
                import json, sys
                d = json.load(open(sys.argv[1]))
                def keys(p):  # a position's keys: a pair, or x and y apart ("s": true)
                    parts = [p["x"], p["y"]] if p.get("s") else [p]
                    return [k for q in parts if q.get("a") for k in q["k"]]
                holds = [k for l in d["layers"] for k in keys(l["ks"]["p"]) if isinstance(k, dict) and k.get("h") == 1]
                print(len(holds))
                """
            let r = try Command.run(Pillow.python, ["-c", script, out.appendingPathComponent("out.json").path])
            try #require(r.status == 0, "\(r.stderrText)")
            // Each copy's loop of 1 s shows parts of two repetitions of 1000 holds.
            let holds = Int(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(holds > 40 * 1000 && holds <= 40 * 2002, "\(holds) holds")
        }
    }
}
