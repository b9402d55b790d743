import Foundation
import TestSupport
import Testing

/// Every example in examples/ renders, and every example and preset config
/// validates against schema/throbber.schema.json with python-jsonschema's
/// Draft202012Validator (an independent reading of the format).
@Suite("render: the examples, and the JSON Schema", .tags(.slow))
struct RenderExamplesTests {
    static func exampleConfigs() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: SceneCLI.examples.path)
            .filter { $0.hasSuffix(".json") }.sorted()
            .map { SceneCLI.examples.appendingPathComponent($0) }
    }

    /// What the man page's config format and the seed articles say the seed examples are: size, frames, total ms.
    static let known: [String: (width: Int, height: Int, frames: Int?, ms: Int)] = [
        "ease.json": (120, 120, 30, 1500),
        "dots.json": (240, 80, 30, 750),
        "dots-flip.json": (240, 80, 120, 3000),
        "dropdown.json": (100, 100, nil, 12_000),
    ]

    @Test("every examples/*.json renders with the CLI; the seed examples have their documented size, frames and length")
    func everyExampleRenders() throws {
        let configs = try Self.exampleConfigs()
        #expect(Set(Self.known.keys).isSubset(of: Set(configs.map(\.lastPathComponent))), "a seed example is missing")
        try withTemporaryDirectory { dir in
            for config in configs {
                let gif = dir.appendingPathComponent(config.deletingPathExtension().lastPathComponent + ".gif")
                try SceneCLI.render(config, to: gif)
                let d = try Pillow.decode(gif)
                #expect(!d.frames.isEmpty, "\(config.lastPathComponent)")
                if let k = Self.known[config.lastPathComponent] {
                    #expect(
                        d.width == k.width && d.height == k.height,
                        "\(config.lastPathComponent): \(d.width)x\(d.height)")
                    if let n = k.frames {
                        #expect(d.frames.count == n, "\(config.lastPathComponent): \(d.frames.count) frames")
                    }
                    #expect(d.durations.reduce(0, +) == k.ms, "\(config.lastPathComponent): \(d.durations)")
                }
            }
        }
    }

    struct SchemaResult: Decodable {
        struct Issue: Decodable {
            var path: String
            var message: String
        }
        struct File: Decodable {
            var file: String
            var errors: [Issue]
        }
        var schemaErrors: [String]
        var files: [File]
    }

    static func validate(_ files: [URL]) throws -> SchemaResult {
        try JSONDecoder().decode(
            SchemaResult.self,
            from: Pillow.script("scene_schema_check.py", [SceneCLI.schema.path] + files.map(\.path)))
    }

    @Test("the schema is a valid Draft 2020-12 schema, and every example validates against it")
    func examplesValidate() throws {
        let result = try Self.validate(try Self.exampleConfigs())
        #expect(result.schemaErrors.isEmpty, "\(result.schemaErrors)")
        #expect(result.files.count == (try Self.exampleConfigs()).count)
        for f in result.files {
            #expect(f.errors.isEmpty, "\(f.file): \(f.errors.map { "\($0.path): \($0.message)" })")
        }
    }

    @Test("every preset's --print-config validates against the schema, with and without options")
    func presetsValidate() throws {
        let names = try SceneCLI.presetNames()
        #expect(names.count >= 18)
        try withTemporaryDirectory { dir in
            var files: [URL] = []
            for name in names {
                for (i, options) in [
                    [],
                    [
                        "--size", "100", "--color", "#0A84FF", "--background", "white", "--speed", "3/2", "--fps", "30",
                        "--scale", "2",
                    ],
                ].enumerated() {
                    let r = try Throbber.run(["preset", name, "--print-config"] + options)
                    #expect(r.status == 0, "\(name): \(r.stderrText)")
                    files.append(try SceneCLI.write(r.stdoutText, to: dir, as: "\(name)-\(i).json"))
                }
            }
            let result = try Self.validate(files)
            for f in result.files {
                #expect(f.errors.isEmpty, "\(f.file): \(f.errors.map { "\($0.path): \($0.message)" })")
            }
        }
    }

    struct Broken: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        /// A JSON path the schema must complain about.
        var path: String
        var testDescription: String { name }
    }

    static let dot = #"{"circle": {"radius": 5}}"#
    static func scene(_ layer: String = dot, _ extra: String = "") -> String {
        #"{"version": 1, "canvas": {"width": 60, "height": 60}, "layers": [\#(layer)]\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    static let broken: [Broken] = [
        Broken(name: "unknown top-level key", json: scene(dot, #""colour": "red""#), path: ""),
        Broken(name: "unknown layer key", json: scene(#"{"circle": {"radius": 5}, "radius": 5}"#), path: "layers[0]"),
        Broken(
            name: "bad color", json: scene(##"{"circle": {"radius": 5}, "fill": "#blurple"}"##), path: "layers[0].fill"),
        Broken(name: "no version", json: #"{"canvas": {"width": 60, "height": 60}, "layers": [\#(dot)]}"#, path: ""),
        Broken(
            name: "version 2", json: #"{"version": 2, "canvas": {"width": 60, "height": 60}, "layers": [\#(dot)]}"#,
            path: "version"),
        Broken(name: "both layers and frames", json: scene(dot, #""frames": {"dir": "."}"#), path: ""),
        Broken(
            name: "a layer with two kinds",
            json: scene(#"{"circle": {"radius": 5}, "rect": {"width": 1, "height": 1}}"#), path: "layers[0]"),
        Broken(name: "negative radius", json: scene(#"{"circle": {"radius": -5}}"#), path: "layers[0].circle.radius"),
        Broken(name: "fps 0", json: scene(dot, #""timing": {"fps": 0}"#), path: "timing.fps"),
        Broken(
            name: "an easing that does not exist",
            json: scene(
                #"{"circle": {"radius": 5}, "animate": [{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 1, "ease": "bouncy"}]}]}"#
            ),
            path: "layers[0].animate[0]"),
        Broken(
            name: "a word where a fraction belongs",
            json: scene(
                #"{"circle": {"radius": 5}, "animate": [{"kind": "step", "property": "rotate", "by": "third"}]}"#),
            path: "layers[0].animate[0]"),
        Broken(name: "duplicate 0", json: scene(dot, #""duplicate": 0"#), path: "duplicate"),
        Broken(
            name: "unknown frame sort", json: #"{"version": 1, "frames": {"dir": ".", "sort": "random"}}"#,
            path: "frames.sort"),
    ]

    @Test("broken configs fail schema validation at the right place", arguments: broken)
    func brokenFailsSchema(_ b: Broken) throws {
        try withTemporaryDirectory { dir in
            let file = try SceneCLI.write(b.json, to: dir, as: "broken.json")
            let result = try Self.validate([file])
            let errors = try #require(result.files.first).errors
            #expect(!errors.isEmpty, "the schema accepts \(b.name)")
            #expect(
                errors.contains { $0.path == b.path },
                "no error at '\(b.path)': \(errors.map { "\($0.path): \($0.message)" })")
            // And Throbber refuses it too.
            let r = try Throbber.run(["render", file.path, "-o", dir.appendingPathComponent("x.gif").path])
            #expect(r.status == 65, "\(r.stderrText)")
        }
    }
}
