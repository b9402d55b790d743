import Foundation
import TestSupport
import Testing

/// `--theme`, `--reduced-motion` and `preset --dark-color`, read back by
/// Pillow and Python's XML parser.
@Suite("render and preset: --theme, --reduced-motion, --dark-color")
struct SceneThemeCLITests {
    /// A disc in the theme's accent (light #0A84FF, dark #64D2FF) growing
    /// over 1 s at 10 fps; reduced motion as `reduced`.
    static func config(in dir: URL, reduced: String) throws -> URL {
        let file = dir.appendingPathComponent("disc.json")
        try #"""
        {"version": 1, "canvas": {"width": 20, "height": 20}, "timing": {"fps": 10},
         "theme": {"accent": {"light": "#0A84FF", "dark": "#64D2FF"}},
         "motion": {"reduced": \#(reduced)},
         "layers": [{"circle": {"radius": 8}, "fill": "accent",
                     "animate": [{"kind": "keyframes", "property": "scale", "period": 1,
                                  "keys": [{"at": 0, "value": 0.5}, {"at": 1, "value": 1}]}]}]}
        """#.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Pillow's frame count, total duration (ms) and the first frame's center pixel.
    static func read(_ file: URL) throws -> (frames: Int, ms: Int, center: [Int]) {
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            px = im.convert("RGBA").getpixel((10, 10))
            total = 0
            for i in range(getattr(im, "n_frames", 1)):
                im.seek(i); total += im.info.get("duration", 0)
            print(getattr(im, "n_frames", 1), int(round(total)), *px)
            """
        let r = try Command.run(Pillow.python, ["-c", script, file.path])
        try #require(r.status == 0, "\(r.stderrText)")
        let v = r.stdoutText.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (v[0], v[1], Array(v[2...]))
    }

    @Test("--theme dark draws the dark values; the SVG carries both, a --theme dark SVG only the dark")
    func theme() throws {
        try withTemporaryDirectory { dir in
            let config = try Self.config(in: dir, reduced: #"{"hold": 0}"#)
            for (scheme, rgb) in [("light", [0x0A, 0x84, 0xFF]), ("dark", [0x64, 0xD2, 0xFF])] {
                let out = dir.appendingPathComponent("\(scheme).png")
                let r = try Throbber.run(["render", config.path, "--theme", scheme, "-o", out.path, "-q"])
                try #require(r.status == 0, "\(r.stderrText)")
                let got = try Self.read(out)
                #expect(got.center == rgb + [255], "--theme \(scheme): \(got)")
            }
            let svg = dir.appendingPathComponent("both.svg")
            let darkSVG = dir.appendingPathComponent("dark.svg")
            #expect(try Throbber.run(["render", config.path, "-o", svg.path, "-q"]).status == 0)
            #expect(try Throbber.run(["render", config.path, "--theme", "dark", "-o", darkSVG.path, "-q"]).status == 0)
            for file in [svg, darkSVG] { #expect(try VectorKit.parse(file, as: "svg").root == "svg") }
            let both = try String(contentsOf: svg, encoding: .utf8)
            let dark = try String(contentsOf: darkSVG, encoding: .utf8)
            #expect(both.contains("var(--throbber-accent,#0a84ff)") && both.contains("var(--throbber-accent,#64d2ff)"))
            #expect(both.contains("@media (prefers-color-scheme:dark)"))
            #expect(dark.contains("var(--throbber-accent,#64d2ff)") && !dark.contains("#0a84ff"))
            #expect(!dark.contains("prefers-color-scheme"))
            let bad = try Throbber.run(["render", config.path, "--theme", "dim", "-o", svg.path])
            #expect(bad.status == 64 && bad.stderrText.contains("--theme must be light or dark"), "\(bad.stderrText)")
        }
    }

    @Test("--reduced-motion: a held frame is a one-frame still; a speed plays the same frames that much slower")
    func reducedMotion() throws {
        try withTemporaryDirectory { dir in
            let held = try Self.config(in: dir, reduced: #"{"hold": 0.5}"#)
            let still = dir.appendingPathComponent("still.png")
            let loop = dir.appendingPathComponent("loop.png")
            #expect(try Throbber.run(["render", held.path, "--reduced-motion", "-o", still.path, "-q"]).status == 0)
            #expect(try Throbber.run(["render", held.path, "-o", loop.path, "-q"]).status == 0)
            let s = try Self.read(still)
            let l = try Self.read(loop)
            #expect(s.frames == 1 && l.frames == 10, "still \(s), loop \(l)")
            // Refused for a vector file, nothing written.
            let svg = dir.appendingPathComponent("still.svg")
            let r = try Throbber.run(["render", held.path, "--reduced-motion", "-o", svg.path])
            #expect(r.status == 64 && r.stderrText.contains("still frame"), "\(r.stderrText)")
            #expect(!FileManager.default.fileExists(atPath: svg.path))

            let slowed = try Self.config(in: dir, reduced: #"{"speed": 0.25}"#)
            let gif = dir.appendingPathComponent("slow.gif")
            #expect(try Throbber.run(["render", slowed.path, "--reduced-motion", "-o", gif.path, "-q"]).status == 0)
            let g = try Self.read(gif)
            #expect(g.frames == 10 && g.ms == 4000, "\(g)")
            // The SVG made with it plays 4 s loops and has no reduced-motion rule left.
            let slowSVG = dir.appendingPathComponent("slow.svg")
            #expect(
                try Throbber.run(["render", slowed.path, "--reduced-motion", "-o", slowSVG.path, "-q"]).status == 0)
            let text = try String(contentsOf: slowSVG, encoding: .utf8)
            #expect(VectorSupport.cssDurations(text) == [4], "\(VectorSupport.cssDurations(text))")
            #expect(!text.contains("prefers-reduced-motion"))
        }
    }

    @Test("preset --color sets the accent on both schemes unless --dark-color gives the dark one")
    func presetColors() throws {
        func theme(_ options: [String]) throws -> String {
            let r = try Throbber.run(["preset", "ring", "--print-config"] + options)
            try #require(r.status == 0, "\(r.stderrText)")
            let json = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
            let theme = try #require(json["theme"] as? [String: Any])
            return "\(theme["accent"]!)"
        }
        #expect(try theme([]).contains("#aaaaaa"), "the preset's own gray turned light for dark pages")
        #expect(try theme(["--color", "#0a84ff"]) == "#0a84ff")
        let both = try theme(["--color", "#0a84ff", "--dark-color", "#64d2ff"])
        #expect(both.contains("#0a84ff") && both.contains("#64d2ff"), "\(both)")
    }
}
