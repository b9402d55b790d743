import Foundation
import TestSupport
import Testing

@Suite("throbber check", .serialized, .tags(.slow))
struct CheckCommandTests {
    @Test(
        "--update records each entry's SHA-256 (the hash of the same command run directly) and the library versions; check then passes"
    )
    func updateThenCheck() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let p = try CheckProject(in: dir)
            let up = try Throbber.run(["check", "pins/manifest.json", "--update"], in: dir)
            #expect(up.status == 0, "\(up.stdoutText)\(up.stderrText)")
            #expect(CheckKit.summary(up) == "5 passed, 0 failed")
            #expect(up.stderr.isEmpty, "\(up.stderrText)")

            let recorded = try p.recordedEntries()
            #expect(recorded.count == CheckProject.entries.count)
            for (i, e) in CheckProject.entries.enumerated() {
                let out = dir.appendingPathComponent(
                    "direct/\(i)-" + ((e["output"] as! String) as NSString).lastPathComponent)
                _ = try p.runDirectly(e, to: out)
                let hash = try CheckKit.sha256sum(out)
                let r = recorded[i]
                #expect(
                    r["sha256"] as? String == hash,
                    "\(e["output"]!): recorded \(r["sha256"] ?? "nothing"), the command makes \(hash)")
                // No hash was recorded: each entry is new.
                #expect(up.stdoutText.contains("new     \(e["output"]!)  \(hash)\n"))
                // The entry is kept as it was, with only its hash added.
                var without = r
                without["sha256"] = nil
                #expect(try CheckKit.json(without) == CheckKit.json(e), "entry \(i) changed: \(r)")
            }

            let versions = try #require(CheckKit.readManifest(p.manifest)["versions"] as? [String: String])
            #expect(
                Set(versions.keys) == [
                    "throbber", "giflib", "libpng", "zlib", "libdeflate", "zopfli", "libimagequant", "cairo",
                    "pixman", "libswscale", "rlottie", "libwebp", "harfbuzz", "fontconfig", "libavformat",
                    "libavcodec", "libavutil",
                ])
            let version = try Throbber.run(["--version"])
            #expect(version.stdoutText == "throbber \(versions["throbber"] ?? "nothing")\n", "\(version.stdoutText)")
            let installed = CheckKit.installedVersions()
            #expect(installed.count == 15, "could not read all installed versions here: \(installed)")
            for (name, installed) in installed {
                #expect(
                    versions[name] == installed,
                    "\(name): recorded \(versions[name] ?? "nothing"), installed \(installed)")
            }
            for (name, v) in versions {
                #expect(
                    v.split(separator: ".").count >= 2 && v.split(separator: ".").allSatisfy { Int($0) != nil },
                    "\(name) \(v)")
            }

            let check = try p.check()
            #expect(check.status == 0, "\(check.stdoutText)\(check.stderrText)")
            #expect(check.stderr.isEmpty, "\(check.stderrText)")
            #expect(CheckKit.summary(check) == "5 passed, 0 failed")
            for e in CheckProject.entries {
                #expect(check.stdoutText.contains("ok      \(e["output"]!)\n"))
            }
        }
    }

    @Test("paths are relative to the manifest, from any working folder and for any spelling of the manifest's path")
    func pathsRelativeToManifest() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let p = try CheckProject(in: dir)
            #expect(try p.check(["--update"]).status == 0)
            let elsewhere = dir.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            for (path, cwd) in [
                (p.manifest.path, elsewhere), ("manifest.json", p.pins), ("pins/manifest.json", dir),
                ("../pins/manifest.json", elsewhere), ("./pins//manifest.json", dir),
            ] {
                let r = try Throbber.run(["check", path], in: cwd)
                #expect(
                    r.status == 0 && CheckKit.summary(r) == "5 passed, 0 failed",
                    "check \(path) from \(cwd.lastPathComponent): \(r.stdoutText)\(r.stderrText)")
            }
        }
    }

    @Test(
        "--update writes only the manifest; check writes nothing anywhere, not even for a moment, and leaves no temporary folder"
    )
    func touchesNothing() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let p = try CheckProject(in: dir.appendingPathComponent("project"))
            try p.makeExpectedFiles()
            let privateTemp = dir.appendingPathComponent("tmp")
            let cwd = dir.appendingPathComponent("cwd")
            for d in [privateTemp, cwd] {
                try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
            }
            let env: [String: String?] = ["TMPDIR": privateTemp.path]

            let before = try CheckKit.Snapshot(p.root)
            let up = try p.check(["--update", "--hashes-only"], environment: env, in: cwd)
            #expect(up.status == 0, "\(up.stdoutText)\(up.stderrText)")
            let afterUpdate = try CheckKit.Snapshot(p.root)
            // The manifest is replaced (a new file renamed into pins/); nothing else changes.
            #expect(afterUpdate.changes(since: before) == ["pins/", "pins/manifest.json"])

            let check = try p.check([], environment: env, in: cwd)
            #expect(check.status == 0, "\(check.stdoutText)\(check.stderrText)")
            #expect(try CheckKit.Snapshot(p.root).changes(since: afterUpdate) == [])
            // Made in TMPDIR, and removed.
            #expect(try FileManager.default.contentsOfDirectory(atPath: privateTemp.path).isEmpty)
        }
    }

    @Test(
        "a mismatch names the entry, both hashes, the first differing frame (1-based), the pixels that differ, where and by how much (as Pillow sees them); --diff-dir writes the three PNGs"
    )
    func mismatchReport() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let p = try CheckProject(in: dir)
            #expect(try p.check(["--update"]).status == 0)
            try p.makeExpectedFiles()
            // Change two configs: a color (GIF entry) and a step angle (APNG entry).
            let dots = p.configs.appendingPathComponent("dots.json")
            let ease = p.configs.appendingPathComponent("ease.json")
            let dotsText = try String(contentsOf: dots, encoding: .utf8)
            let easeText = try String(contentsOf: ease, encoding: .utf8)
            try #require(dotsText.contains("\"gray\"") && easeText.contains("\"by\": 120"))
            try dotsText.replacingOccurrences(of: "\"gray\"", with: "\"#FF3B30\"").write(
                to: dots, atomically: true, encoding: .utf8)
            try easeText.replacingOccurrences(of: "\"by\": 120", with: "\"by\": 90").write(
                to: ease, atomically: true, encoding: .utf8)

            let pinsBefore = try CheckKit.Snapshot(p.pins)
            let r = try p.check(["--diff-dir", "diffs"], in: dir)
            #expect(r.status == 1, "\(r.stdoutText)\(r.stderrText)")
            #expect(CheckKit.summary(r) == "3 passed, 2 failed")
            #expect(try CheckKit.Snapshot(p.pins).changes(since: pinsBefore) == [], "check wrote beside the manifest")
            for ok in ["ring.png", "sub/spinner.gif", "frames.gif"] {
                #expect(r.stdoutText.contains("ok      \(ok)\n"))
            }

            let diffs = dir.appendingPathComponent("diffs")
            var written: [String] = []
            for (output, entry) in [("dots.gif", CheckProject.entries[0]), ("ease.png", CheckProject.entries[1])] {
                let actual = dir.appendingPathComponent("actual-" + output)
                _ = try p.runDirectly(entry, to: actual)
                let actualHash = try CheckKit.sha256sum(actual)
                let expectedFile = p.pins.appendingPathComponent(output)
                let old = try #require(try p.recordedHash(output))
                #expect(
                    r.stdoutText.contains("FAILED  \(output): sha256 \(actualHash), expected \(old)\n"),
                    "\(r.stdoutText)")

                let d = try CheckKit.frameDiff(expectedFile, actual)
                let frame = try #require(d.first, "Pillow sees no pixel difference in \(output)")
                let box = try #require(d.box)
                // Pillow counts from 0; people, and check, from 1.
                let line =
                    "first differing frame \(frame + 1): \(d.pixels!) pixels differ within \(box[2])x\(box[3])+\(box[0])+\(box[1]), largest channel difference \(d.largest!)"
                #expect(r.stdoutText.contains(line), "\(output): expected “\(line)” in\n\(r.stdoutText)")

                // Named after the whole output path, extension included.
                let stem = output.replacingOccurrences(of: "/", with: "_")
                let names = ["expected", "actual", "difference"].map { "\(stem)-frame\(frame + 1)-\($0).png" }
                written += names
                let e = try CheckKit.still(diffs.appendingPathComponent(names[0]))
                let a = try CheckKit.still(diffs.appendingPathComponent(names[1]))
                let diff = try CheckKit.still(diffs.appendingPathComponent(names[2]))
                #expect(
                    e.sha256 == (try CheckKit.frameHash(expectedFile, frame)).sha256,
                    "\(names[0]) is not frame \(frame) of the expected file")
                #expect(
                    a.sha256 == (try CheckKit.frameHash(actual, frame)).sha256,
                    "\(names[1]) is not frame \(frame) of the new file")
                #expect(!e.animated && !a.animated && !diff.animated)
                #expect(diff.width == e.width && diff.height == e.height)
                #expect(diff.gray && diff.opaque, "difference image should be gray and opaque")
                #expect(
                    diff.nonblack == d.pixels!, "difference image lights \(diff.nonblack) pixels, \(d.pixels!) differ")
                #expect(diff.largest == min(255, 4 * d.largest!))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: diffs.path).sorted() == written.sorted())
        }
    }
}
