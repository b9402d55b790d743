import Foundation
import TestSupport
import Testing

/// Where `render` writes: the config's `output` list (paths relative to the
/// config file), unless `-o` overrides it.
@Suite("render: the output list and -o")
struct RenderOutputTests {
    static func config(outputs: String?) -> String {
        let output = outputs.map { #", "output": \#($0)"# } ?? ""
        return
            #"{"version": 1, "canvas": {"width": 20, "height": 10}, "timing": {"fps": 10}, "layers": [{"rect": {"width": 8, "height": 4}, "fill": "red", "animate": [{"kind": "step", "property": "rotate", "by": 90}]}]\#(output)}"#
    }

    @Test("without -o every entry of \"output\" is written, relative to the config's folder (not the working folder)")
    func outputListRelativeToConfig() throws {
        try withTemporaryDirectory { dir in
            let sub = dir.appendingPathComponent("configs/loader")
            let cwd = dir.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
            let config = try SceneCLI.write(
                Self.config(outputs: #"[{"path": "a.gif"}, {"path": "../b.gif", "format": "gif"}]"#),
                to: sub, as: "spin.json")
            let r = try Throbber.run(["render", config.path, "-q"], in: cwd)
            #expect(r.status == 0, "\(r.stderrText)")
            let a = sub.appendingPathComponent("a.gif")
            let b = dir.appendingPathComponent("configs/b.gif")
            let bytesA = try Data(contentsOf: a)
            let bytesB = try Data(contentsOf: b)
            #expect(bytesA == bytesB)
            let decoded = try Pillow.decode(a)
            #expect(decoded.width == 20 && decoded.height == 10)
            // rotate 90° per 0.25 s step: 4 steps = 1 s = 10 frames at 10 fps.
            #expect(decoded.durations.reduce(0, +) == 1000)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: cwd.path).isEmpty,
                "nothing may be written to the working folder")
        }
    }

    @Test("-o overrides the output list: only the -o file is written")
    func dashOOverrides() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                Self.config(outputs: #"[{"path": "listed.gif"}]"#), to: dir, as: "spin.json")
            let chosen = dir.appendingPathComponent("chosen.gif")
            try SceneCLI.render(config, to: chosen)
            #expect(FileManager.default.fileExists(atPath: chosen.path))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("listed.gif").path))
        }
    }

    @Test("-o - writes the same bytes to standard output")
    func stdout() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.config(outputs: nil), to: dir, as: "spin.json")
            let file = dir.appendingPathComponent("spin.gif")
            try SceneCLI.render(config, to: file)
            let r = try Throbber.run(["render", config.path, "-o", "-"])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(r.stdout == (try Data(contentsOf: file)))
        }
    }

    @Test("no -o and no output list is a usage error (64) that says how to fix it")
    func noOutput() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.config(outputs: nil), to: dir, as: "spin.json")
            let r = try Throbber.run(["render", config.path])
            #expect(r.status == 64, "\(r.stderrText)")
            #expect(r.stderrText.contains("-o") && r.stderrText.contains("output"), "\(r.stderrText)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["spin.json"])
        }
    }

    @Test(
        "\"loop\": 0 loops forever; N plays N times (NETSCAPE count N − 1, none for 1), read by Pillow",
        arguments: [(0, 0), (1, nil), (3, 2)] as [(Int, Int?)])
    func loop(_ loop: Int, _ netscape: Int?) throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                Self.config(outputs: nil).replacingOccurrences(
                    of: #""version": 1,"#, with: #""version": 1, "loop": \#(loop),"#),
                to: dir, as: "loop.json")
            let gif = dir.appendingPathComponent("loop.gif")
            try SceneCLI.render(config, to: gif)
            #expect(try Pillow.decode(gif).loop == netscape)
        }
    }

    @Test(
        "a config's encode block serves every output it lists: lossy and dither apply where the format has them; as options, a format that cannot use them refuses before any output is written"
    )
    func encodeBlockServesEveryOutput() throws {
        try withTemporaryDirectory { dir in
            let outputs = #"[{"path": "a.gif"}, {"path": "a.webp"}]"#
            let lossy = Self.config(outputs: outputs).replacingOccurrences(
                of: #""version": 1,"#, with: #""version": 1, "encode": {"lossy": 200, "dither": 0},"#)
            let config = try SceneCLI.write(lossy, to: dir, as: "spin.json")
            let r = try Throbber.run(["render", config.path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            // The WebP is the lossless one a config without the block makes.
            let plain = try SceneCLI.write(Self.config(outputs: nil), to: dir, as: "plain.json")
            let webp = dir.appendingPathComponent("plain.webp")
            #expect(try Throbber.run(["render", plain.path, "-o", webp.path, "-q"]).status == 0)
            #expect(try Data(contentsOf: dir.appendingPathComponent("a.webp")) == Data(contentsOf: webp))
            #expect(try Pillow.decode(dir.appendingPathComponent("a.gif")).durations.count == 10)

            // Given as an option, --lossy is refused by the WebP output, and
            // the GIF listed before it is not written either.
            let clean = dir.appendingPathComponent("clean")
            try FileManager.default.createDirectory(at: clean, withIntermediateDirectories: true)
            let again = try SceneCLI.write(Self.config(outputs: outputs), to: clean, as: "spin.json")
            let refused = try Throbber.run(["render", again.path, "--lossy", "20"])
            #expect(refused.status == 64, "\(refused.stderrText)")
            #expect(refused.stderrText.contains("--lossy: lossy LZW is for GIF"), "\(refused.stderrText)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: clean.path) == ["spin.json"])
        }
    }
}
