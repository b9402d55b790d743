import Foundation
import TestSupport
import Testing

/// `check MANIFEST --update ENTRY…`: only the entries named are recorded,
/// the others are checked; each recorded entry says whether its hash
/// changed; names that match nothing are refused before anything is made.
/// Hashes are compared with sha256sum of the same commands run directly.
@Suite("throbber check --update ENTRY", .serialized)
struct CheckUpdateEntriesTests {
    static var entries: [[String: Any]] {
        [
            ["preset": "ring", "args": ["--size", "24"], "output": "ring.gif"],
            ["preset": "dots", "args": ["--size", "24"], "output": "sub/dots.gif"],
            ["preset": "pulse", "args": ["--size", "24"], "output": "pulse.gif"],
        ]
    }
    static let zeros = String(repeating: "0", count: 64)

    /// The hash of each entry's output, made by its command run directly.
    static func directHashes(_ p: CheckProject, in dir: URL) throws -> [String] {
        try entries.enumerated().map { i, e in
            let out = dir.appendingPathComponent("direct/\(i).gif")
            _ = try p.runDirectly(e, to: out)
            return try CheckKit.sha256sum(out)
        }
    }

    /// A project whose three entries are recorded with their true hashes
    /// (no expected files written), and those hashes.
    static func recordedProject(in dir: URL) throws -> (CheckProject, [String]) {
        let p = try CheckProject(in: dir, entries: entries)
        let up = try p.check(["--update", "--hashes-only"])
        #expect(up.status == 0, "\(up.stdoutText)\(up.stderrText)")
        let hashes = try directHashes(p, in: dir)
        #expect(try p.recordedEntries().map { $0["sha256"] as? String } == hashes)
        return (p, hashes)
    }

    @Test(
        "--update ENTRY records that entry only: the others keep their hashes and are checked, an unintended change still fails"
    )
    func recordsOnlyTheNamedEntry() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let (p, hashes) = try Self.recordedProject(in: dir)
            var changed = try p.recordedEntries()
            changed[0]["sha256"] = Self.zeros  // an intended change, to accept
            changed[1]["sha256"] = Self.zeros  // an unintended one, to keep failing
            let versions = try #require(CheckKit.readManifest(p.manifest)["versions"] as? [String: String])
            try p.write(entries: changed, versions: versions)

            let r = try p.check(["--update", "ring.gif"])
            #expect(r.status == 1, "the unnamed mismatch fails the run: \(r.stdoutText)\(r.stderrText)")
            #expect(r.stdoutText.contains("updated ring.gif  \(hashes[0])\n"), "\(r.stdoutText)")
            #expect(r.stdoutText.contains("FAILED  sub/dots.gif: sha256 \(hashes[1]), expected \(Self.zeros)"))
            #expect(r.stdoutText.contains("ok      pulse.gif\n"), "\(r.stdoutText)")
            #expect(CheckKit.summary(r) == "2 passed, 1 failed")

            var expected = changed
            expected[0]["sha256"] = hashes[0]
            let after = try p.recordedEntries()
            #expect(try CheckKit.json(after) == CheckKit.json(expected), "only ring.gif's hash may change: \(after)")
            #expect(try CheckKit.readManifest(p.manifest)["versions"] as? [String: String] == versions)
            // Its expected file only: the others were not recorded.
            let ring = p.pins.appendingPathComponent("ring.gif")
            #expect(try CheckKit.sha256sum(ring) == hashes[0])
            for other in ["sub/dots.gif", "pulse.gif"] {
                #expect(!FileManager.default.fileExists(atPath: p.pins.appendingPathComponent(other).path), "\(other)")
            }
        }
    }

    @Test("recorded entries say updated, unchanged or new; the JUnit report passes them all")
    func statusWords() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let (p, hashes) = try Self.recordedProject(in: dir)
            let before = try Data(contentsOf: p.manifest)
            let same = try p.check(["--update", "--hashes-only"])
            #expect(same.status == 0, "\(same.stdoutText)\(same.stderrText)")
            #expect(
                same.stdoutText
                    == "unchanged ring.gif\nunchanged sub/dots.gif\nunchanged pulse.gif\n3 passed, 0 failed\n",
                "\(same.stdoutText)")
            #expect(try Data(contentsOf: p.manifest) == before, "nothing changed, so neither did the manifest")

            var mixed = try p.recordedEntries()
            mixed[0]["sha256"] = Self.zeros
            mixed[2]["sha256"] = nil
            try p.write(entries: mixed)
            let report = dir.appendingPathComponent("report.xml")
            let r = try p.check(["--update", "--hashes-only", "--junit", report.path])
            #expect(r.status == 0, "\(r.stdoutText)\(r.stderrText)")
            #expect(
                r.stdoutText
                    == "updated ring.gif  \(hashes[0])\nunchanged sub/dots.gif\nnew     pulse.gif  \(hashes[2])\n3 passed, 0 failed\n",
                "\(r.stdoutText)")
            let parsed = try CheckNewAndJUnitTests.parse(report)
            #expect(parsed.tests == "3" && parsed.failures == "0", "\(parsed)")
            #expect(try p.recordedEntries().map { $0["sha256"] as? String } == hashes)
        }
    }

    @Test(
        "an ENTRY is matched by its output as written, by its file's path from here, or by its file name when only one output has it"
    )
    func nameMatching() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let (p, hashes) = try Self.recordedProject(in: dir)
            var changed = try p.recordedEntries()
            for k in changed.indices { changed[k]["sha256"] = Self.zeros }
            for (name, cwd, entry) in [
                ("sub/dots.gif", dir, 1), ("dots.gif", dir, 1), ("pins/sub/dots.gif", dir, 1),
                ("./pulse.gif", p.pins, 2),
                (p.pins.appendingPathComponent("ring.gif").path, dir, 0),
                ("../ring.gif", p.pins.appendingPathComponent("sub"), 0),
            ] {
                try p.write(entries: changed)
                try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
                let r = try p.check(["--update", "--hashes-only", name], in: cwd)
                #expect(r.status == 1, "\(name): \(r.stdoutText)\(r.stderrText)")
                let recorded = try p.recordedEntries().map { $0["sha256"] as? String }
                let expected = hashes.indices.map { $0 == entry ? hashes[$0] : Self.zeros }
                #expect(recorded == expected, "\(name) from \(cwd.lastPathComponent) recorded \(recorded)")
            }

            // --update before the manifest and the names after it; a name given twice counts once.
            try p.write(entries: changed)
            let r = try Throbber.run(["check", "--update", p.manifest.path, "ring.gif", "pulse.gif", "ring.gif"])
            #expect(r.status == 1 && CheckKit.summary(r) == "2 passed, 1 failed", "\(r.stdoutText)")
            #expect(try p.recordedEntries().map { $0["sha256"] as? String } == [hashes[0], Self.zeros, hashes[2]])
        }
    }

    @Test(
        "names that match no entry, a file name two outputs share, and names without --update are refused with exit 64, nothing made or written"
    )
    func refusedNames() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            var entries = Self.entries
            entries.append(["preset": "ring", "args": ["--size", "16"], "output": "small/ring.gif"])
            let p = try CheckProject(in: dir, entries: entries)
            let scratch = dir.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let before = try CheckKit.Snapshot(dir)
            let cases: [([String], [String])] = [
                (["--update", "nope.gif"], ["'nope.gif'", "ring.gif, sub/dots.gif, pulse.gif, small/ring.gif"]),
                (["--update", "pulse.gif", "rnig.gif"], ["'rnig.gif'", "did you mean 'ring.gif'"]),
                (["--update", "a.gif", "b.gif"], ["'a.gif', 'b.gif'", "its outputs are ring.gif"]),
                // Run in the manifest's folder, where no pins/ring.gif is.
                (["--update", "pins/ring.gif"], ["'pins/ring.gif'"]),
                (["--update", "sub/dots.gfi"], ["did you mean 'sub/dots.gif'"]),
                (["pulse.gif"], ["go with --update"]),
            ]
            for (extra, words) in cases {
                let r = try p.check(extra, environment: ["TMPDIR": scratch.path], in: p.pins)
                #expect(r.status == 64, "\(extra): \(r.stdoutText)\(r.stderrText)")
                #expect(r.stdout.isEmpty, "\(extra): made something: \(r.stdoutText)")
                for w in words { #expect(r.stderrText.contains(w), "\(extra): \(r.stderrText)") }
                #expect(try CheckKit.Snapshot(dir).changes(since: before) == [], "\(extra) wrote something")
            }
            // A file name two outputs share: an exact output wins, else give the whole output.
            try p.write(entries: [entries[0], entries[3]])
            let r = try p.check(["--update", "--hashes-only", "ring.gif"], in: dir)
            #expect(r.status == 2 && r.stdoutText.hasPrefix("new     ring.gif  "), "\(r.stdoutText)\(r.stderrText)")
            #expect(r.stdoutText.contains("NEW     small/ring.gif: "), "\(r.stdoutText)")
            try p.write(entries: [
                entries[3], ["preset": "ring", "args": ["--size", "16"], "output": "other/ring.gif"],
            ])
            let manifest = try Data(contentsOf: p.manifest)
            let both = try p.check(["--update", "ring.gif"], in: dir)
            #expect(both.status == 64 && both.stdout.isEmpty, "\(both.stdoutText)\(both.stderrText)")
            #expect(
                both.stderrText.contains("'ring.gif' is the file name of 2 outputs (small/ring.gif, other/ring.gif)"),
                "\(both.stderrText)")
            #expect(try Data(contentsOf: p.manifest) == manifest)
        }
    }
}
