import Foundation
import TestSupport
import Testing

/// `render` and `preset` write Lottie (`.json`) and animated SVG (`.svg`):
/// the files parse with Python's own parsers, say the canvas and the loop
/// that the GIF of the same command has (read by Pillow), and are the same
/// bytes on every run.
@Suite("Vector export on the command line")
struct VectorExportCLITests {
    static let dots = SceneCLI.examples.appendingPathComponent("dots.json")

    @Test("preset to .svg and .json: exit 0, the files parse, at the GIF's size and loop, with a summary line")
    func presetFiles() throws {
        try withTemporaryDirectory { dir in
            let gif = dir.appendingPathComponent("s.gif")
            let made = try Throbber.run(["preset", "spinner", "--size", "48", "--scale", "1", "-o", gif.path, "-q"])
            #expect(made.status == 0, "\(made.stderrText)")
            let gifSeconds = try VectorKit.gifSeconds(gif)
            let size = try SceneOutputOptionsTests.decode(gif).size
            for (name, kind, label) in [("s.svg", "svg", "SVG"), ("s.json", "lottie", "Lottie")] {
                let file = dir.appendingPathComponent(name)
                let r = try Throbber.run(["preset", "spinner", "--size", "48", "--scale", "1", "-o", file.path])
                #expect(r.status == 0, "\(name): \(r.stderrText)")
                let parsed = try VectorKit.parse(file, as: kind)
                #expect([parsed.width, parsed.height] == size.map { Double($0) }, "\(name): \(parsed)")
                let line = "wrote \(file.path): \(label) \(size[0])x\(size[1]) pt, loop of "
                #expect(r.stderrText.hasPrefix(line), "\(name): \(r.stderrText)")
                #expect(r.stderrText.contains(String(format: "%.2f s, ", gifSeconds)), "\(r.stderrText)")
                #expect(r.stdout.isEmpty)
                if kind == "svg" {
                    #expect(parsed.root == "svg")
                } else {
                    #expect(Set(["v", "fr", "ip", "op", "w", "h", "layers"]).isSubset(of: parsed.keys ?? []))
                    #expect((parsed.layers ?? 0) > 0)
                    #expect(abs((parsed.seconds ?? 0) - gifSeconds) < 0.011, "Lottie loop \(parsed), GIF \(gifSeconds)")
                }
            }
        }
    }

    @Test(
        "render to Lottie: the options that change the scene give the GIF's loop (Pillow)",
        arguments: [[], ["--speed", "1.25"], ["--bounce"], ["--fps", "10"], ["--speed", "1/3", "--bounce"]])
    func renderTiming(options: [String]) throws {
        try withTemporaryDirectory { dir in
            let gif = dir.appendingPathComponent("d.gif")
            let lottie = dir.appendingPathComponent("d.json")
            try SceneCLI.render(Self.dots, to: gif, extra: options)
            try SceneCLI.render(Self.dots, to: lottie, extra: options)
            let parsed = try VectorKit.parse(lottie, as: "lottie")
            let seconds = try VectorKit.gifSeconds(gif)
            #expect(abs((parsed.seconds ?? 0) - seconds) < 0.011, "\(options): Lottie \(parsed), GIF \(seconds) s")
            #expect([parsed.width, parsed.height] == [120, 40])
            let svg = dir.appendingPathComponent("d.svg")
            try SceneCLI.render(Self.dots, to: svg, extra: options)
            #expect(try VectorKit.parse(svg, as: "svg").root == "svg")
        }
    }

    @Test("same bytes twice, with --jobs 1 and 2, from another working directory, and on standard output")
    func determinism() throws {
        try withTemporaryDirectory { dir in
            let other = dir.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            let config = dir.appendingPathComponent("dots.json")
            try FileManager.default.copyItem(at: Self.dots, to: config)
            for ext in ["svg", "json"] {
                let a = dir.appendingPathComponent("a.\(ext)")
                let b = dir.appendingPathComponent("b.\(ext)")
                let c = other.appendingPathComponent("c.\(ext)")
                try SceneCLI.render(config, to: a, extra: ["--jobs", "1"])
                try SceneCLI.render(config, to: b, extra: ["--jobs", "2"])
                let r = try Throbber.run(["render", "dots.json", "-o", c.path, "-q"], in: dir)
                #expect(r.status == 0, "\(r.stderrText)")
                let piped = try Throbber.run([
                    "render", config.path, "-o", "-", "--format", ext == "svg" ? "svg" : "lottie",
                ])
                #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderrText)")
                let bytes = try Data(contentsOf: a)
                #expect(bytes == (try Data(contentsOf: b)), ".\(ext): --jobs 1 and 2 differ")
                #expect(bytes == (try Data(contentsOf: c)), ".\(ext): another working directory differs")
                #expect(bytes == piped.stdout, ".\(ext): standard output differs")
                let p1 = dir.appendingPathComponent("p1.\(ext)")
                let p2 = other.appendingPathComponent("p2.\(ext)")
                for p in [p1, p2] {
                    let r = try Throbber.run(["preset", "dots", "-o", p.path, "-q"], in: p.deletingLastPathComponent())
                    #expect(r.status == 0, "\(r.stderrText)")
                }
                #expect(try Data(contentsOf: p1) == Data(contentsOf: p2), ".\(ext): preset differs between runs")
            }
        }
    }

    @Test("--format svg and lottie name the format where the file name does not; --sha256 prints sha256sum's hash")
    func formatOption() throws {
        try withTemporaryDirectory { dir in
            let svg = dir.appendingPathComponent("loader.anim")
            let lottie = dir.appendingPathComponent("loader.txt")
            try SceneCLI.render(Self.dots, to: svg, extra: ["--format", "svg"])
            try SceneCLI.render(Self.dots, to: lottie, extra: ["--format", "lottie"])
            #expect(try VectorKit.parse(svg, as: "svg").root == "svg")
            #expect(try VectorKit.parse(lottie, as: "lottie").layers ?? 0 > 0)
            let hashed = dir.appendingPathComponent("h.svg")
            let r = try Throbber.run(["preset", "ring", "-o", hashed.path, "--sha256", "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(r.stdoutText == "\(try sha256sum([hashed])[0])  \(hashed.path)\n", "\(r.stdoutText)")
        }
    }

    @Test("a config's output list writes .svg, .json and --format entries beside its GIF")
    func outputList() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                """
                {"version": 1, "canvas": {"width": 20, "height": 20}, "timing": {"fps": 10},
                 "layers": [{"circle": {"radius": 5}, "fill": "red", "center": [10, 10],
                   "animate": [{"kind": "keyframes", "property": "scale", "period": 1,
                                "keys": [{"at": 0, "value": 1}, {"at": 0.5, "value": 1.5}]}]}],
                 "output": [{"path": "o.gif"}, {"path": "o.svg"}, {"path": "o-lottie.json"},
                            {"path": "o.vec", "format": "svg"}]}
                """, to: dir, as: "c.json")
            let r = try Throbber.run(["render", config.path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try VectorKit.listing(dir) == ["c.json", "o-lottie.json", "o.gif", "o.svg", "o.vec"])
            #expect(try VectorKit.parse(dir.appendingPathComponent("o-lottie.json"), as: "lottie").seconds == 1)
            #expect(
                try Data(contentsOf: dir.appendingPathComponent("o.vec"))
                    == Data(contentsOf: dir.appendingPathComponent("o.svg")))
        }
    }
}
