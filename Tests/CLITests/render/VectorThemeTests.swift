import Foundation
import TestSupport
import Testing

/// Theme colors in Lottie and dotLottie, drawn by players Throbber did not
/// write: ThorVG applies the dark theme of a `.lottie` archive (its rules,
/// read with Python's zipfile) as slot values and draws the `--theme dark`
/// frames; rlottie, which knows no slots, draws the file exactly as it
/// draws it without them.
@Suite("Lottie slots and dotLottie themes in ThorVG and rlottie", .tags(.slow))
struct VectorThemeTests {
    static let presets = ["ring", "chase", "pulse", "bars"]

    /// The dark theme's rules of `archive` as ThorVG slot values, read by
    /// Python's zipfile and json.
    static func darkSlots(_ archive: URL) throws -> String {
        let script = """
            import json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            manifest = json.loads(z.read("manifest.json"))
            assert {"id": "dark"} in manifest["themes"], manifest
            rules = json.loads(z.read("t/dark.json"))["rules"]
            print(json.dumps({r["id"]: {"p": {"a": 0, "k": r["value"]}} for r in rules if r["type"] == "Color"}))
            """
        let r = try Command.run(Pillow.python, ["-c", script, archive.path])
        guard r.status == 0 else { throw HarnessError("zipfile: \(r.stderrText)") }
        return r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Drawn: Decodable {
        var available: Bool
        var why: String?
        var slotsApplied: Bool?
    }

    @Test(
        "ThorVG with the .lottie's dark theme set as slots draws the --theme dark frames; without it, the light ones",
        .enabled(
            if: VectorPlayerTests.thorvg || Fixtures.onCI,
            "skipped: thorvg-python is not in .build/pylib (scripts/install-deps)"),
        arguments: presets)
    func darkThemeInThorVG(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let archive = dir.appendingPathComponent("\(name).lottie")
            let lottie = dir.appendingPathComponent("\(name).json")
            let light = dir.appendingPathComponent("\(name).png")
            let dark = dir.appendingPathComponent("\(name)-dark.png")
            for (out, extra) in [(archive, []), (lottie, []), (light, []), (dark, ["--theme", "dark"])] {
                let r = try Throbber.run(["preset", name, "--size", "240", "-o", out.path, "-q"] + extra)
                try #require(r.status == 0, "\(r.stderrText)")
            }
            let top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lottie)) as? [String: Any])
            let frames = try #require(top["op"] as? Int)
            let size = try VectorSupport.apngLoop(dark)
            let list = "[" + (0..<frames).map(String.init).joined(separator: ",") + "]"
            let slots = try Self.darkSlots(archive)
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            for (ref, extra, what) in [(dark, ["--slots", slots], "dark theme"), (light, [], "no theme")] {
                let out = dir.appendingPathComponent("thorvg-\(what)")
                let drawn = try decoder.decode(
                    Drawn.self,
                    from: Pillow.script(
                        "vector_render.py",
                        ["lottie-thorvg", lottie.path, list, "\(size.width)", "\(size.height)", out.path] + extra))
                try #require(drawn.available, "thorvg-python: \(drawn.why ?? "")")
                if !extra.isEmpty { #expect(drawn.slotsApplied == true, "ThorVG did not take \(slots)") }
                let result = try VectorSupport.compare(ref, out, frames: frames, on: "30,30,30")
                #expect(result.minPsnr >= 35, "\(name), \(what), in ThorVG: \(result.worst)")
            }
        }
    }

    @Test(
        "rlottie, which has no slots, draws a file with theme slots exactly as the same file without them",
        arguments: presets)
    func slotsChangeNothingInRlottie(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let lottie = dir.appendingPathComponent("\(name).json")
            let bare = dir.appendingPathComponent("\(name)-bare.json")
            let r = try Throbber.run(["preset", name, "-o", lottie.path, "-q"])
            try #require(r.status == 0, "\(r.stderrText)")
            let strip = """
                import json, sys
                d = json.load(open(sys.argv[1]))
                assert "slots" in d, "no slots"
                del d["slots"]
                def walk(x):
                    if isinstance(x, dict):
                        x.pop("sid", None)
                        for v in x.values(): walk(v)
                    elif isinstance(x, list):
                        for v in x: walk(v)
                walk(d)
                json.dump(d, open(sys.argv[2], "w"))
                """
            let s = try Command.run(Pillow.python, ["-c", strip, lottie.path, bare.path])
            try #require(s.status == 0, "\(s.stderrText)")
            let top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lottie)) as? [String: Any])
            let frames = try #require(top["op"] as? Int)
            let (w, h) = (try #require(top["w"] as? Int), try #require(top["h"] as? Int))
            let list = "[" + (0..<frames).map(String.init).joined(separator: ",") + "]"
            var dirs: [URL] = []
            for (i, file) in [lottie, bare].enumerated() {
                let out = dir.appendingPathComponent("rl\(i)")
                _ = try Pillow.script(
                    "vector_render.py", ["lottie-rlottie", file.path, list, "\(w)", "\(h)", out.path])
                dirs.append(out)
            }
            let same = try VectorSupport.compare(dirs[1], dirs[0], frames: frames, loopFrames: false)
            #expect(same.minPsnr == 99, "\(name): \(same.worst)")
        }
    }
}
