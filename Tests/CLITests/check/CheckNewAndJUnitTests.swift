import Foundation
import TestSupport
import Testing

/// `check` on entries with no recorded hash (NEW, exit 2) and the details
/// its JUnit report carries, read back with Python's XML parser.
@Suite("throbber check: NEW entries and the JUnit report", .serialized)
struct CheckNewAndJUnitTests {
    /// One test case of a JUnit report as Python's ElementTree reads it.
    struct Case: Decodable {
        var name: String
        var failureType: String?
        var message: String?
        var text: String?
    }

    /// The suite's counts and its test cases, parsed by /usr/bin/python3.
    struct Report: Decodable {
        var tests: String
        var failures: String
        var cases: [Case]
    }

    static func parse(_ report: URL) throws -> Report {
        let script = """
            import json, sys, xml.etree.ElementTree as E
            suite = E.parse(sys.argv[1]).getroot().find("testsuite")
            def case(c):
                f = c.find("failure")
                return {"name": c.get("name"), "failureType": None if f is None else f.get("type"),
                        "message": None if f is None else f.get("message"), "text": None if f is None else f.text}
            print(json.dumps({"tests": suite.get("tests"), "failures": suite.get("failures"),
                              "cases": [case(c) for c in suite.findall("testcase")]}))
            """
        let out = try Command.run(Pillow.python, ["-c", script, report.path])
        #expect(out.status == 0, "\(out.stderrText)")
        return try JSONDecoder().decode(Report.self, from: out.stdout)
    }

    static let newLine = "no hash recorded yet; run 'throbber check --update' to record it"

    @Test(
        "entries without a hash are NEW: their own word and message, exit 2 when nothing failed, a JUnit failure of type new; --update records them, then exit 0"
    )
    func newEntries() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let entries: [[String: Any]] = [
                ["preset": "ring", "args": ["--size", "24"], "output": "ring.gif"],
                ["preset": "dots", "args": ["--size", "24"], "output": "dots.gif"],
            ]
            let p = try CheckProject(in: dir, entries: entries)
            let report = dir.appendingPathComponent("report.xml")
            let r = try p.check(["--junit", report.path])
            #expect(r.status == 2, "\(r.stdoutText)\(r.stderrText)")
            #expect(
                r.stdoutText
                    == "NEW     ring.gif: \(Self.newLine)\nNEW     dots.gif: \(Self.newLine)\n0 passed, 0 failed, 2 new\n",
                "\(r.stdoutText)")
            #expect(r.stderr.isEmpty, "\(r.stderrText)")
            let parsed = try Self.parse(report)
            #expect(parsed.tests == "2" && parsed.failures == "2")
            #expect(parsed.cases.map(\.name) == ["ring.gif", "dots.gif"])
            for c in parsed.cases {
                #expect(c.failureType == "new" && c.message == Self.newLine && c.text == Self.newLine, "\(c)")
            }

            // One recorded, one still NEW: still exit 2.
            let up = try p.check(["--update", "--hashes-only"])
            #expect(up.status == 0, "\(up.stdoutText)")
            var recorded = try p.recordedEntries()
            recorded[1]["sha256"] = nil
            try p.write(entries: recorded)
            let half = try p.check()
            #expect(half.status == 2 && CheckKit.summary(half) == "1 passed, 0 failed, 1 new", "\(half.stdoutText)")
            #expect(half.stdoutText.contains("ok      ring.gif\n") && half.stdoutText.contains("NEW     dots.gif: "))

            #expect(try p.check(["--update", "--hashes-only"]).status == 0)
            let all = try p.check()
            #expect(all.status == 0 && CheckKit.summary(all) == "2 passed, 0 failed", "\(all.stdoutText)")
        }
    }

    @Test(
        "a mismatch's JUnit failure carries what the terminal says: both hashes and the first differing frame (1-based, as Pillow finds it), its pixels and rectangle"
    )
    func mismatchDetails() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let entry: [String: Any] = ["render": "configs/dots.json", "output": "dots.gif"]
            let p = try CheckProject(in: dir, entries: [entry])
            #expect(try p.check(["--update"]).status == 0)
            let expectedFile = p.pins.appendingPathComponent("dots.gif")
            let old = try #require(try p.recordedHash("dots.gif"))
            let dots = p.configs.appendingPathComponent("dots.json")
            let text = try String(contentsOf: dots, encoding: .utf8)
            try #require(text.contains("\"gray\""))
            try text.replacingOccurrences(of: "\"gray\"", with: "\"#FF3B30\"").write(
                to: dots, atomically: true, encoding: .utf8)
            let report = dir.appendingPathComponent("report.xml")
            let r = try p.check(["--junit", report.path])
            #expect(r.status == 1, "\(r.stdoutText)\(r.stderrText)")

            let actual = dir.appendingPathComponent("actual.gif")
            _ = try p.runDirectly(entry, to: actual)
            let hash = try CheckKit.sha256sum(actual)
            let d = try CheckKit.frameDiff(expectedFile, actual)
            // A new color for every dot changes the very first frame: Pillow's frame 0, frame 1 to people.
            #expect(d.first == 0, "Pillow's first differing frame: \(d.first.map(String.init) ?? "none")")
            let box = try #require(d.box)
            let lines = [
                "sha256 \(hash), expected \(old)",
                "first differing frame 1: \(d.pixels!) pixels differ within \(box[2])x\(box[3])+\(box[0])+\(box[1]), largest channel difference \(d.largest!)",
            ]
            #expect(
                r.stdoutText == "FAILED  dots.gif: \(lines[0])\n        \(lines[1])\n0 passed, 1 failed\n",
                "\(r.stdoutText)")
            let parsed = try Self.parse(report)
            #expect(parsed.tests == "1" && parsed.failures == "1")
            let c = try #require(parsed.cases.first)
            #expect(c.failureType == "mismatch")
            #expect(c.message == lines.joined(separator: "; "), "\(c.message ?? "no message")")
            #expect(c.text == lines.joined(separator: "\n"), "\(c.text ?? "no text")")
        }
    }
}
