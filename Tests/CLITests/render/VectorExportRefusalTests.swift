import Foundation
import TestSupport
import Testing

/// What vector export refuses, and that a refusal writes nothing: `encode`
/// to a vector name (64), options only frames have (64, naming the
/// option), configs a vector file cannot say (65, naming the JSON path),
/// and an output that is the config itself (64, the config untouched).
@Suite("Vector export refusals")
struct VectorExportRefusalTests {
    static let dots = SceneCLI.examples.appendingPathComponent("dots.json")

    /// Runs throbber in `dir` and expects `status`, every text of `mentions`
    /// on stderr, and no new file in `dir`.
    static func refused(
        _ args: [String], in dir: URL, status: Int32, mentions: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try VectorKit.listing(dir)
        let r = try Throbber.run(args, in: dir)
        #expect(r.status == status, "\(args): exit \(r.status): \(r.stderrText)", sourceLocation: sourceLocation)
        for text in mentions {
            #expect(
                r.stderrText.contains(text), "\(args): '\(text)' not in: \(r.stderrText)",
                sourceLocation: sourceLocation)
        }
        #expect(try VectorKit.listing(dir) == before, "\(args) left files", sourceLocation: sourceLocation)
    }

    @Test("encode to .svg, .json or --format svg|lottie is a usage error pointing to render and preset")
    func encodeRefuses() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("f"))
            #expect(frames.count == 2)
            for out in [
                ["-o", "x.svg"], ["-o", "x.json"], ["-o", "x.gif", "--format", "svg"],
                ["-o", "-", "--format", "lottie"],
            ] {
                try Self.refused(
                    ["encode", "f"] + out, in: dir, status: 64,
                    mentions: ["made from configs and presets", "throbber render", "throbber preset"])
            }
        }
    }

    /// Each option that only frames have, with a value it takes.
    static let framesOnly: [[String]] = [
        ["--quality", "50"], ["--colors", "16"], ["--dither", "0.5"], ["--lossy", "20"], ["--max-bytes", "10k"],
        ["--matte", "white"], ["--compression", "max"], ["--frames", "1-3"], ["--reverse"],
        ["--crop", "10x10+0+0"], ["--trim"], ["--width", "32"], ["--height", "32"], ["--scale", "0.5"],
        ["--fit", "cover"], ["--resize-filter", "nearest"], ["--duplicate", "2"], ["--poster-frame", "2"],
    ]

    @Test("render to .svg or .json refuses each option that only frames have, naming it", arguments: framesOnly)
    func renderRefusesFramesOptions(option: [String]) throws {
        try withTemporaryDirectory { dir in
            for out in ["x.svg", "x.json"] {
                try Self.refused(
                    ["render", Self.dots.path, "-o", out] + option, in: dir, status: 64,
                    mentions: ["\(option[0]) is for GIF, APNG and WebP"])
            }
        }
    }

    @Test("preset to .svg refuses --quality, --matte and --width, and takes --scale, --size, --color and --background")
    func presetOptions() throws {
        try withTemporaryDirectory { dir in
            for option in [["--quality", "50"], ["--matte", "white"], ["--width", "32"]] {
                try Self.refused(
                    ["preset", "spinner", "-o", "x.svg"] + option, in: dir, status: 64,
                    mentions: ["\(option[0]) is for GIF, APNG and WebP", "x.svg is SVG"])
            }
            let r = try Throbber.run(
                [
                    "preset", "spinner", "-o", "ok.svg", "--scale", "2", "--size", "40", "--color", "red",
                    "--background", "#ffeedd", "--fps", "20", "--speed", "2", "--loop", "3", "-q",
                ], in: dir)
            #expect(r.status == 0, "\(r.stderrText)")
            let svg = try String(contentsOf: dir.appendingPathComponent("ok.svg"), encoding: .utf8)
            #expect(svg.lowercased().contains("#ffeedd"), "the background is not in the SVG")
        }
    }

    @Test("what a vector file cannot say exits 65 naming the JSON path, and nothing is written")
    func badConfigs() throws {
        try withTemporaryDirectory { dir in
            _ = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("f"))
            try SceneCLI.write(
                #"{"version": 1, "frames": {"dir": "f"}, "timing": {"fps": 10}}"#, to: dir, as: "fr.json")
            try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 20, "height": 20}, "duplicate": 2, "layers": [{"circle": {"radius": 5}}]}"#,
                to: dir, as: "dup.json")
            try SceneCLI.write(VectorKit.tinyLottie, to: dir, as: "tiny.json")
            try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 40, "height": 40}, "layers": [{"lottie": "tiny.json"}]}"#,
                to: dir, as: "lot.json")
            _ = try VectorKit.noisePNG(in: dir)
            try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 350, "height": 350, "scale": 2}, "layers": [{"image": "noise.png"}]}"#,
                to: dir, as: "big.json")
            let cases: [(String, String, [String])] = [
                ("fr.json", "x.svg", ["fr.json: frames"]), ("fr.json", "x-l.json", ["fr.json: frames"]),
                ("dup.json", "x.svg", ["dup.json: duplicate"]), ("lot.json", "x.svg", ["lot.json: layers[0]", "SVG"]),
                ("big.json", "x.svg", ["big.json: layers[0].image", "1 MB"]),
                ("big.json", "x-l.json", ["big.json: layers[0].image", "1 MB"]),
            ]
            for (config, out, mentions) in cases {
                try Self.refused(["render", config, "-o", out], in: dir, status: 65, mentions: mentions)
            }
            // A Lottie layer is embedded in Lottie.
            let r = try Throbber.run(["render", "lot.json", "-o", "lot-l.json", "-q"], in: dir)
            #expect(r.status == 0, "\(r.stderrText)")
            // In an output list, a refused vector file stops the GIF too: nothing is written.
            try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 40, "height": 40}, "layers": [{"lottie": "tiny.json"}], "output": [{"path": "a.gif"}, {"path": "b.svg"}]}"#,
                to: dir, as: "both.json")
            try Self.refused(["render", "both.json"], in: dir, status: 65, mentions: ["both.json: layers[0]"])
        }
    }

    @Test("an output that is the config itself is refused (64) and the config is untouched")
    func configIsNotOverwritten() throws {
        try withTemporaryDirectory { dir in
            let config = dir.appendingPathComponent("c.json")
            try FileManager.default.copyItem(at: Self.dots, to: config)
            let original = try Data(contentsOf: config)
            for args in [
                ["render", "c.json", "-o", "c.json"], ["render", "c.json", "-o", "./c.json"],
                ["render", config.path, "-o", "c.json", "--format", "lottie"],
            ] {
                try Self.refused(args, in: dir, status: 64, mentions: ["c.json: is also an input"])
                #expect(try Data(contentsOf: config) == original, "\(args) changed the config")
            }
            // The config's own output list naming the config.
            let text = try String(contentsOf: config, encoding: .utf8)
            let end = try #require(text.lastIndex(of: "}"))
            try Data((text[..<end] + #", "output": [{"path": "c.json"}]}"#).utf8).write(to: config)
            let listed = try Data(contentsOf: config)
            try Self.refused(["render", "c.json"], in: dir, status: 64, mentions: ["is also an input"])
            #expect(try Data(contentsOf: config) == listed, "the output list overwrote the config")
        }
    }
}
