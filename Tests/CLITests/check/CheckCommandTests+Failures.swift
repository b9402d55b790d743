import Foundation
import TestSupport
import Testing

extension CheckCommandTests {
    @Test("a mismatch without an expected file at its output path says so and still exits 1")
    func mismatchWithoutExpectedFile() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let entries: [[String: Any]] = [["preset": "ring", "args": ["--size", "32"], "output": "ring.gif"]]
            let p = try CheckProject(in: dir, entries: entries)
            #expect(try p.check(["--update", "--hashes-only"]).status == 0)
            var changed = entries
            changed[0]["args"] = ["--size", "32", "--color", "red"]
            changed[0]["sha256"] = try p.recordedHash("ring.gif")
            try p.write(entries: changed)
            let r = try p.check(["--diff-dir", dir.appendingPathComponent("diffs").path])
            #expect(r.status == 1)
            #expect(r.stdoutText.contains("FAILED  ring.gif: sha256 "))
            #expect(r.stdoutText.contains("no expected file"), "\(r.stdoutText)")
            #expect(CheckKit.summary(r) == "0 passed, 1 failed")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("diffs").path).isEmpty)
        }
    }

    @Test(
        "--diff-dir keeps the images of every mismatching entry, also when two outputs share a base name (dots.gif, dots.png)"
    )
    func diffDirPerEntry() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let entries: [[String: Any]] = [
                ["render": "configs/dots.json", "output": "dots.gif"],
                ["render": "configs/dots.json", "output": "dots.png"],
            ]
            let p = try CheckProject(in: dir, entries: entries)
            #expect(try p.check(["--update"]).status == 0)
            try p.makeExpectedFiles(entries)
            let dots = p.configs.appendingPathComponent("dots.json")
            try (try String(contentsOf: dots, encoding: .utf8)).replacingOccurrences(of: "\"gray\"", with: "\"blue\"")
                .write(to: dots, atomically: true, encoding: .utf8)
            let diffs = dir.appendingPathComponent("diffs")
            let r = try p.check(["--diff-dir", diffs.path])
            #expect(r.status == 1 && CheckKit.summary(r) == "0 passed, 2 failed", "\(r.stdoutText)")
            let files = try FileManager.default.contentsOfDirectory(atPath: diffs.path)
            #expect(files.count == 6, "two mismatching entries, three images each; --diff-dir holds \(files.sorted())")
            let wrote = r.stdoutText.split(separator: "\n").filter { $0.contains("wrote ") }
            #expect(
                Set(wrote.map { $0.trimmingCharacters(in: .whitespaces) }).count == 2,
                "both entries name the same files: \(wrote)")
        }
    }

    @Test(
        "recorded library versions that differ from the running ones give a note on stderr; the hashes still decide the status"
    )
    func versionNote() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let entries: [[String: Any]] = [["preset": "dots", "args": ["--size", "24"], "output": "dots.gif"]]
            let p = try CheckProject(in: dir, entries: entries)
            #expect(try p.check(["--update"]).status == 0)
            let recorded = try p.recordedEntries()
            let current = try #require(CheckKit.readManifest(p.manifest)["versions"] as? [String: String])

            // Same versions: no note.
            let same = try p.check()
            #expect(same.status == 0 && same.stderr.isEmpty, "\(same.stderrText)")

            var old = current
            old["giflib"] = "4.1.6"
            old["cairo"] = "1.10.2"
            try p.write(entries: recorded, versions: old)
            let r = try p.check()
            #expect(r.status == 0, "\(r.stdoutText)\(r.stderrText)")
            #expect(CheckKit.summary(r) == "1 passed, 0 failed")
            #expect(r.stderrText.contains("giflib 4.1.6 → \(current["giflib"]!)"), "\(r.stderrText)")
            #expect(r.stderrText.contains("cairo 1.10.2 → \(current["cairo"]!)"), "\(r.stderrText)")
            #expect(!r.stderrText.contains("libpng"), "unchanged versions are not named: \(r.stderrText)")
            #expect(r.stderrText.contains("hashes may"), "\(r.stderrText)")

            // With a mismatch too: the note and exit 1.
            var bad = recorded
            bad[0]["sha256"] = String(repeating: "0", count: 64)
            try p.write(entries: bad, versions: old)
            let r2 = try p.check()
            #expect(r2.status == 1 && r2.stderrText.contains("giflib 4.1.6"))

            // --update records the running versions again.
            #expect(try p.check(["--update"]).status == 0)
            #expect(try CheckKit.readManifest(p.manifest)["versions"] as? [String: String] == current)
        }
    }

    @Test(
        "an entry that cannot be made fails (exit 1, over an entry with no hash, which is NEW); the other entries are still checked"
    )
    func entryFailures() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let good: [String: Any] = ["preset": "pulse", "args": ["--size", "24"], "output": "pulse.gif"]
            let p = try CheckProject(in: dir, entries: [good])
            #expect(try p.check(["--update"]).status == 0)
            let goodRecorded = try p.recordedEntries()[0]
            let zeros = String(repeating: "0", count: 64)
            try p.write(entries: [
                ["render": "configs/missing.json", "output": "missing.gif", "sha256": zeros],
                ["preset": "no-such-preset", "output": "nope.gif", "sha256": zeros],
                ["preset": "ring", "args": ["--size", "1"], "output": "tiny.gif", "sha256": zeros],
                ["encode": ["nothing-here"], "output": "enc.gif", "sha256": zeros],
                ["preset": "ring", "output": "unpinned.gif"],
                goodRecorded,
            ])
            let r = try p.check()
            #expect(r.status == 1)
            #expect(CheckKit.summary(r) == "1 passed, 4 failed, 1 new", "\(r.stdoutText)")
            for name in ["missing.gif", "nope.gif", "tiny.gif", "enc.gif"] {
                #expect(r.stdoutText.contains("FAILED  \(name): cannot be made: "), "\(name): \(r.stdoutText)")
            }
            #expect(r.stdoutText.contains("missing.json"))
            #expect(
                r.stdoutText.contains(
                    "NEW     unpinned.gif: no hash recorded yet; run 'throbber check --update' to record it\n"),
                "\(r.stdoutText)")
            #expect(r.stdoutText.contains("ok      pulse.gif\n"))
        }
    }

    @Test(
        "an entry that writes no file (--print-config, --help) cannot be made; it is not pinned as the empty file's hash"
    )
    func entryWithoutOutput() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let entries: [[String: Any]] = [
                ["preset": "ring", "args": ["--print-config"], "output": "ring.gif"],
                ["render": "configs/dots.json", "args": ["--help"], "output": "dots.gif"],
            ]
            let p = try CheckProject(in: dir, entries: entries)
            let up = try p.check(["--update"])
            let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  // SHA-256 of no bytes
            #expect(up.status == 1, "--update of entries that make nothing exits \(up.status): \(CheckKit.summary(up))")
            for output in ["ring.gif", "dots.gif"] {
                #expect(try p.recordedHash(output) != empty, "\(output): pinned the hash of an empty file")
            }
            try p.write(
                entries: entries.map {
                    var e = $0
                    e["sha256"] = empty
                    return e
                })
            let r = try p.check()
            #expect(r.status == 1, "check passes entries that write nothing: \(CheckKit.summary(r))")
        }
    }

    @Test("a bad --jobs value is a usage error (64), not a failed entry")
    func badJobs() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let p = try CheckProject(in: dir, entries: [["preset": "ring", "output": "ring.gif"]])
            for value in ["0", "abc", "1000"] {
                let r = try p.check(["--jobs", value])
                #expect(r.status == 64, "--jobs \(value): exit \(r.status): \(r.stdoutText)\(r.stderrText)")
            }
        }
    }

    @Test("hashes are compared case-insensitively; --jobs 1 gives the same hashes")
    func upperCaseAndJobs() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let entries: [[String: Any]] = [["render": "configs/ease.json", "output": "ease.gif"]]
            let p = try CheckProject(in: dir, entries: entries)
            #expect(try p.check(["--update", "--jobs", "1"]).status == 0)
            var e = try p.recordedEntries()
            e[0]["sha256"] = (e[0]["sha256"] as! String).uppercased()
            try p.write(entries: e)
            let r = try p.check(["--jobs", "2"])
            #expect(r.status == 0, "\(r.stdoutText)\(r.stderrText)")
        }
    }

    @Test("an empty entries list passes with nothing to do")
    func emptyManifest() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let m = dir.appendingPathComponent("m.json")
            try Data(#"{"entries": []}"#.utf8).write(to: m)
            let r = try Throbber.run(["check", m.path])
            #expect(r.status == 0 && CheckKit.summary(r) == "0 passed, 0 failed")
        }
    }
}
