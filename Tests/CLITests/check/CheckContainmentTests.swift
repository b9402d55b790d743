import Foundation
import TestSupport
import Testing

/// `check` with a manifest from elsewhere (issue #14): it stays inside the
/// manifest's folder, prints names so they cannot forge report lines,
/// writes the expected files on --update and a JUnit report on request.
@Suite("check: contained, escaped, golden files, JUnit")
struct CheckContainmentTests {
    @Test(
        "a path that leads out of the manifest's folder is refused (exit 65, naming the entry), unless --allow-outside",
        arguments: [
            ("output", #"{"preset": "dots", "output": "../escaped.gif"}"#),
            ("render", #"{"render": "/etc/passwd", "output": "x.gif"}"#),
            ("encode[1]", #"{"encode": ["frames", "../frames"], "output": "x.gif"}"#),
            ("args[1]", #"{"preset": "ease", "args": ["--ring", "../ring.png"], "output": "x.gif"}"#),
            ("encode[0]", #"{"encode": ["link/a.png"], "output": "x.gif"}"#),
        ])
    func outside(key: String, entry: String) throws {
        try withTemporaryDirectory { dir in
            let pins = dir.appendingPathComponent("pins")
            try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png"], width: 8, height: 8), in: dir.appendingPathComponent("frames")
            )
            try FileManager.default.createDirectory(at: pins, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: dir.appendingPathComponent("frames"), to: pins.appendingPathComponent("frames"))
            // A link inside the folder that leads out of it.
            try FileManager.default.createSymbolicLink(
                atPath: pins.appendingPathComponent("link").path,
                withDestinationPath: dir.appendingPathComponent("frames").path)
            let manifest = pins.appendingPathComponent("m.json")
            try Data(#"{"entries": [\#(entry)]}"#.utf8).write(to: manifest)
            let before = try listing(dir)
            let r = try Throbber.run(["check", manifest.path, "--update"])
            expectFailure(
                r, status: 65,
                names: [manifest.path, "entries[0].\(key)", "outside the manifest's folder", "--allow-outside"])
            #expect(try listing(dir) == before, "nothing written")
            #expect(try String(contentsOf: manifest, encoding: .utf8) == #"{"entries": [\#(entry)]}"#)
            if key == "output" {
                let allowed = try Throbber.run(["check", manifest.path, "--update", "--allow-outside"])
                #expect(allowed.status == 0, "\(allowed.stdoutText)\(allowed.stderrText)")
                #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("escaped.gif").path))
            }
        }
    }

    @Test("names with control characters are printed escaped: a manifest cannot forge an \"ok\" line")
    func escapedNames() throws {
        try withTemporaryDirectory { dir in
            let forged = "x.gif\nok      fake.gif\u{1B}[2K\r"
            let entry: [String: Any] = ["preset": "no-such-preset", "output": forged]
            try Data(try CheckKit.json(["entries": [entry]]).utf8).write(to: dir.appendingPathComponent("m.json"))
            let r = try Throbber.run(["check", dir.appendingPathComponent("m.json").path])
            #expect(r.status == 1)
            let lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(!lines.contains { $0.hasPrefix("ok") }, "\(r.stdoutText)")
            #expect(!r.stdoutText.contains("\u{1B}") && !r.stdoutText.contains("\r"))
            #expect(
                lines.first?.hasPrefix(#"FAILED  x.gif\nok      fake.gif\u{1b}[2K\r: cannot be made"#) == true,
                "\(r.stdoutText)")
            #expect(CheckKit.summary(r) == "0 passed, 1 failed")
        }
    }

    @Test(
        "--update writes every output at its path as the expected file; a later regression is explained, not 'no expected file'"
    )
    func goldenFiles() throws {
        try withTemporaryDirectory { dir in
            let p = try CheckProject(in: dir)
            let up = try p.check(["--update"])
            #expect(up.status == 0, "\(up.stdoutText)\(up.stderrText)")
            for e in try p.recordedEntries() {
                let output = p.pins.appendingPathComponent(e["output"] as! String)
                #expect(try CheckKit.sha256sum(output) == e["sha256"] as? String, "\(output.lastPathComponent)")
            }
            // The ring changes color: the report decodes both files.
            var changed = try p.recordedEntries()
            changed[2]["args"] = ["--size", "48", "--color", "#FF3B30"]
            try p.write(entries: changed)
            let diffs = dir.appendingPathComponent("diffs")
            let r = try p.check(["--diff-dir", diffs.path])
            #expect(r.status == 1 && CheckKit.summary(r) == "4 passed, 1 failed", "\(r.stdoutText)")
            #expect(r.stdoutText.contains("first differing frame"), "\(r.stdoutText)")
            #expect(!r.stdoutText.contains("no expected file"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: diffs.path).count == 3)
        }
    }

    @Test("--hashes-only records hashes and writes no expected file; alone it is a usage error")
    func hashesOnly() throws {
        try withTemporaryDirectory { dir in
            let p = try CheckProject(in: dir)
            let before = try FileManager.default.contentsOfDirectory(atPath: p.pins.path).sorted()
            #expect(try p.check(["--update", "--hashes-only"]).status == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: p.pins.path).sorted() == before)
            #expect(try p.recordedEntries().allSatisfy { ($0["sha256"] as? String)?.count == 64 })
            #expect(try p.check(["--hashes-only"]).status == 64)
        }
    }

    @Test("--junit writes a JUnit XML report that Python's XML parser reads: a test case per entry, failures with why")
    func junit() throws {
        try withTemporaryDirectory { dir in
            let p = try CheckProject(in: dir)
            #expect(try p.check(["--update", "--hashes-only"]).status == 0)
            var entries = try p.recordedEntries()
            entries[0]["sha256"] = String(repeating: "0", count: 64)
            entries.append(["preset": "no-such-preset", "output": "a&b <c>.gif"])
            try p.write(entries: entries)
            let report = dir.appendingPathComponent("report.xml")
            let r = try p.check(["--junit", report.path])
            #expect(r.status == 1)
            let script = """
                import json, sys, xml.etree.ElementTree as E
                root = E.parse(sys.argv[1]).getroot()
                suite = root.find("testsuite")
                cases = [{"name": c.get("name"), "failure": (c.find("failure").get("message") if c.find("failure") is not None else None)} for c in suite.findall("testcase")]
                print(json.dumps({"tests": suite.get("tests"), "failures": suite.get("failures"), "cases": cases}))
                """
            let out = try Command.run(Pillow.python, ["-c", script, report.path])
            #expect(out.status == 0, "\(out.stderrText)")
            let parsed = try JSONSerialization.jsonObject(with: out.stdout) as! [String: Any]
            #expect(parsed["tests"] as? String == "6" && parsed["failures"] as? String == "2")
            let cases = parsed["cases"] as! [[String: Any]]
            #expect(cases.map { $0["name"] as? String } == entries.map { $0["output"] as? String })
            #expect((cases[0]["failure"] as? String)?.hasPrefix("sha256 ") == true)
            #expect((cases[5]["failure"] as? String)?.contains("cannot be made") == true)
            #expect(cases[1...4].allSatisfy { $0["failure"] is NSNull })
        }
    }
}
