import Foundation
import TestSupport
import Testing

/// Broken manifests: exit 65 (bad data) or 66 (missing), one error line that
/// names the manifest and where in it the problem is, nothing made, and the
/// manifest left as it was even with --update.
@Suite("throbber check: broken manifests")
struct CheckManifestErrorTests {
    struct Broken: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        /// Text the error message must contain (besides the file name).
        var mentions: [String]
        var testDescription: String { name }
    }

    static let sha = String(repeating: "ab", count: 32)

    static let cases: [Broken] = [
        Broken(
            name: "JSON syntax error", text: #"{"entries": [{"preset": "ring", "output": "r.gif"}"#,
            mentions: ["line", "column"]),
        Broken(
            name: "trailing comma", text: #"{"entries": [{"preset": "ring", "output": "r.gif",}]}"#, mentions: ["line"]),
        Broken(name: "empty file", text: "", mentions: []),
        Broken(name: "not an object", text: #"[{"preset": "ring", "output": "r.gif"}]"#, mentions: []),
        Broken(name: "missing entries", text: #"{"versions": {}}"#, mentions: ["entries"]),
        Broken(name: "entries not an array", text: #"{"entries": {"preset": "ring"}}"#, mentions: ["entries"]),
        Broken(name: "unknown top-level key", text: #"{"entries": [], "hashes": []}"#, mentions: ["hashes"]),
        Broken(
            name: "unknown entry key", text: #"{"entries": [{"preset": "ring", "output": "r.gif", "color": "red"}]}"#,
            mentions: ["entries[0]", "color"]),
        Broken(
            name: "misspelt output", text: #"{"entries": [{"preset": "ring", "outptu": "r.gif"}]}"#,
            mentions: ["entries[0]", "outptu"]),
        Broken(name: "entry without a kind", text: #"{"entries": [{"output": "r.gif"}]}"#, mentions: ["entries[0]"]),
        Broken(
            name: "entry with two kinds",
            text: #"{"entries": [{"preset": "ring", "render": "a.json", "output": "r.gif"}]}"#,
            mentions: ["entries[0]"]),
        Broken(name: "entry without output", text: #"{"entries": [{"preset": "ring"}]}"#, mentions: ["output"]),
        Broken(name: "empty output", text: #"{"entries": [{"preset": "ring", "output": ""}]}"#, mentions: ["output"]),
        Broken(
            name: "absolute output", text: #"{"entries": [{"preset": "ring", "output": "/tmp/r.gif"}]}"#,
            mentions: ["output"]),
        Broken(
            name: "sha256 too short",
            text: #"{"entries": [{"preset": "ring", "output": "r.gif", "sha256": "abc123"}]}"#,
            mentions: ["sha256"]),
        Broken(
            name: "sha256 not hex",
            text:
                #"{"entries": [{"preset": "ring", "output": "r.gif", "sha256": "\#(String(repeating: "zz", count: 32))"}]}"#,
            mentions: ["sha256"]),
        Broken(
            name: "sha256 too long",
            text: #"{"entries": [{"preset": "ring", "output": "r.gif", "sha256": "\#(sha)0"}]}"#,
            mentions: ["sha256"]),
        Broken(
            name: "sha256 a number", text: #"{"entries": [{"preset": "ring", "output": "r.gif", "sha256": 12}]}"#,
            mentions: ["sha256"]),
        Broken(
            name: "sha256 with fullwidth hex digits",
            text:
                #"{"entries": [{"preset": "ring", "output": "r.gif", "sha256": "\#(String(repeating: "ａ", count: 64))"}]}"#,
            mentions: ["sha256"]),
        Broken(
            name: "args a string", text: #"{"entries": [{"preset": "ring", "args": "--size 64", "output": "r.gif"}]}"#,
            mentions: ["args"]),
        Broken(
            name: "args with a number",
            text: #"{"entries": [{"preset": "ring", "args": ["--size", 64], "output": "r.gif"}]}"#,
            mentions: ["args[1]"]),
        Broken(
            name: "encode a string", text: #"{"entries": [{"encode": "frames/", "output": "f.gif"}]}"#,
            mentions: ["encode"]),
        Broken(
            name: "render not a string", text: #"{"entries": [{"render": ["a.json"], "output": "f.gif"}]}"#,
            mentions: ["render"]),
        Broken(name: "versions not an object", text: #"{"versions": "5.2.1", "entries": []}"#, mentions: ["versions"]),
        Broken(
            name: "version not a string", text: #"{"versions": {"giflib": 5}, "entries": []}"#, mentions: ["giflib"]),
        Broken(
            name: "broken second entry",
            text:
                #"{"entries": [{"preset": "ring", "output": "r.gif"}, {"preset": "ring", "output": "r.gif", "sha256": "x"}]}"#,
            mentions: ["entries[1]"]),
    ]

    @Test(
        "a broken manifest exits 65 with one error line naming it, makes nothing, and --update leaves it unchanged",
        arguments: cases)
    func broken(_ c: Broken) throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let m = dir.appendingPathComponent("manifest.json")
            try Data(c.text.utf8).write(to: m)
            let before = try CheckKit.Snapshot(dir)
            for extra in [[], ["--update"], ["--diff-dir", dir.appendingPathComponent("d").path]] {
                let r = try Throbber.run(["check", m.path] + extra)
                #expect(r.status == 65, "\(c.name) \(extra): exit \(r.status): \(r.stdoutText)\(r.stderrText)")
                #expect(r.stdout.isEmpty, "\(c.name): nothing is checked: \(r.stdoutText)")
                #expect(
                    r.stderrLines.count == 1 && r.stderrText.hasPrefix("throbber: error: \(m.path): "),
                    "\(c.name): \(r.stderrText)")
                for word in c.mentions {
                    #expect(r.stderrText.contains(word), "\(c.name): “\(word)” not in \(r.stderrText)")
                }
                #expect(
                    try CheckKit.Snapshot(dir).changes(since: before) == [], "\(c.name) \(extra) changed the folder")
            }
        }
    }

    @Test("a missing manifest exits 66 and names it")
    func missing() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let m = dir.appendingPathComponent("nope.json")
            for extra in [[], ["--update"]] {
                let r = try Throbber.run(["check", m.path] + extra)
                #expect(r.status == 66, "\(r.stderrText)")
                #expect(r.stderrText.hasPrefix("throbber: error: \(m.path): "), "\(r.stderrText)")
                #expect(r.stdout.isEmpty)
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty,
                "--update created the missing manifest")
        }
    }

    @Test("a folder as manifest exits 65; no manifest, two manifests or an unknown option exit 64")
    func usage() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            #expect(try Throbber.run(["check", dir.path]).status == 65)
            #expect(try Throbber.run(["check"]).status == 64)
            #expect(try Throbber.run(["check", "a.json", "b.json"]).status == 64)
            #expect(try Throbber.run(["check", "a.json", "--frobnicate"]).status == 64)
            #expect(try Throbber.run(["check", "a.json", "--diff-dir"]).status == 64)
        }
    }
}
