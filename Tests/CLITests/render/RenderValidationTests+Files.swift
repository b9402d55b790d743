import Foundation
import TestSupport
import Testing

extension RenderValidationTests {
    struct SyntaxCase: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var line: Int
        /// Where the column may point (one column, or the whole offending token).
        var columns: ClosedRange<Int>
        var testDescription: String { name }

        init(name: String, json: String, line: Int, column: Int) {
            self.init(name: name, json: json, line: line, columns: column...column)
        }
        init(name: String, json: String, line: Int, columns: ClosedRange<Int>) {
            self.name = name
            self.json = json
            self.line = line
            self.columns = columns
        }
    }

    /// Lines and columns counted by hand from the text (1-based, the column
    /// of the first character that cannot be valid).
    static let syntaxCases: [SyntaxCase] = [
        SyntaxCase(
            name: "a trailing comma in an object", json: "{\n  \"version\": 1,\n  \"canvas\": {\"width\": 60,}\n}",
            line: 3, column: 26),
        SyntaxCase(
            name: "a trailing comma in an array", json: "{\"version\": 1,\n \"layers\": [1, 2,]}", line: 2, column: 18),
        SyntaxCase(name: "a single-quoted key", json: "{\n\n    'version': 1}", line: 3, column: 5),
        SyntaxCase(name: "a missing colon", json: "{\"version\" 1}", line: 1, column: 12),
        SyntaxCase(name: "a bare word", json: "{\"version\": 1,\n \"bounce\": yes}", line: 2, column: 12),
        SyntaxCase(name: "text after the document", json: "{\"version\": 1}\n}", line: 2, column: 1),
        SyntaxCase(name: "an empty file", json: "", line: 1, column: 1),
        SyntaxCase(name: "a file cut short", json: "{\"version\": 1,\n \"layers\": [\n", line: 3, column: 1),
        SyntaxCase(
            name: "an unterminated string", json: "{\"version\": 1,\n\t\"canvas\": {\"background\": \"white}}", line: 2,
            columns: 27...35),  // the opening quote … the end of the file
        // Anywhere from the repeated key to its colon.
        SyntaxCase(name: "a duplicate key", json: "{\"version\": 1,\n \"version\": 1}", line: 2, columns: 2...11),
    ]

    @Test("a JSON syntax error names the file, the line and the column", arguments: syntaxCases)
    func syntax(_ c: SyntaxCase) throws {
        try withTemporaryDirectory { dir in
            try SceneCLI.write(c.json, to: dir, as: "broken.json")
            let r = try Throbber.run(["render", "broken.json", "-o", "out.gif"], in: dir)
            #expect(r.status == 65, "\(r.stderrText)")
            let located = c.columns.contains {
                r.stderrText.hasPrefix("throbber: error: broken.json: line \(c.line), column \($0): ")
            }
            #expect(located, "expected line \(c.line), column \(c.columns): \(r.stderrText)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.gif").path))
        }
    }

    @Test("a config file that does not exist exits 66 and names it")
    func missingConfig() throws {
        try withTemporaryDirectory { dir in
            let r = try Throbber.run(["render", "absent.json", "-o", "out.gif"], in: dir)
            #expect(r.status == 66, "\(r.stderrText)")
            #expect(r.stderrText.hasPrefix("throbber: error: absent.json"), "\(r.stderrText)")
        }
    }

    @Test("an invalid config never touches an existing output file")
    func existingOutputKept() throws {
        try withTemporaryDirectory { dir in
            try SceneCLI.write(Self.scene(#"{"circle": {"radius": -1}}"#), to: dir, as: "bad.json")
            let out = try SceneCLI.write("precious", to: dir, as: "out.gif")
            let r = try Throbber.run(["render", "bad.json", "-o", out.path], in: dir)
            #expect(r.status == 65)
            #expect(try String(contentsOf: out, encoding: .utf8) == "precious")
        }
    }

    @Test("limits are inclusive: 4096 px, 1000 frames and 50 fps are accepted")
    func limitsAccepted() throws {
        try withTemporaryDirectory { dir in
            // 1000 frames exactly (40 s at 25 fps) on a 1×1 canvas; a 4096 px wide, 1 px tall canvas; 50 fps.
            let configs = [
                #"{"version": 1, "canvas": {"width": 1, "height": 1}, "timing": {"duration": 40}, "layers": [{"circle": {"radius": 1}}]}"#,
                #"{"version": 1, "canvas": {"width": 2048, "height": 1, "scale": 2}, "layers": [{"circle": {"radius": 1}}]}"#,
                #"{"version": 1, "canvas": {"width": 4, "height": 4}, "timing": {"fps": 50}, "layers": [{"circle": {"radius": 1}}]}"#,
            ]
            for (i, json) in configs.enumerated() {
                let config = try SceneCLI.write(json, to: dir, as: "ok\(i).json")
                try SceneCLI.render(config, to: dir.appendingPathComponent("ok\(i).gif"))
            }
            #expect(try Pillow.decode(dir.appendingPathComponent("ok1.gif")).width == 4096)
        }
    }
}
