import Foundation
import TestSupport
import Testing

/// The versions a manifest records (Throbber's own, the libraries', FFmpeg's)
/// and the note `check` gives when they differ from the running ones.
@Suite("throbber check: recorded versions", .serialized)
struct CheckVersionsTests {
    static var entries: [[String: Any]] {
        [
            ["preset": "ring", "args": ["--size", "24"], "output": "ring.gif"],
            ["preset": "pulse", "args": ["--size", "24"], "output": "pulse.gif"],
        ]
    }

    /// Whether this machine lets a test hide a file from one process: a
    /// private mount namespace (`unshare -m`, root only) to bind /dev/null in.
    static let canHideFiles: Bool = {
        guard let r = try? Command.run(URL(fileURLWithPath: "/usr/bin/unshare"), ["-m", "true"]) else { return false }
        return r.status == 0
    }()

    @Test(
        "check notes differing versions of Throbber and FFmpeg like the others; --update ENTRY notes them too (the other entries are checked), then records the running ones"
    )
    func notes() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let p = try CheckProject(in: dir, entries: Self.entries)
            #expect(try p.check(["--update", "--hashes-only"]).status == 0)
            let recorded = try p.recordedEntries()
            let current = try #require(CheckKit.readManifest(p.manifest)["versions"] as? [String: String])
            var old = current
            old["throbber"] = "0.0.1"
            old["libavcodec"] = "absent"
            old["libavformat"] = "58.76.100"
            try p.write(entries: recorded, versions: old)

            let r = try p.check()
            #expect(r.status == 0, "\(r.stdoutText)\(r.stderrText)")
            for change in [
                "throbber 0.0.1 → \(current["throbber"]!)", "libavcodec absent → \(current["libavcodec"]!)",
                "libavformat 58.76.100 → \(current["libavformat"]!)",
            ] {
                #expect(r.stderrText.contains(change), "\(r.stderrText)")
            }
            #expect(!r.stderrText.contains("libavutil"), "unchanged versions are not named: \(r.stderrText)")

            let one = try p.check(["--update", "--hashes-only", "ring.gif"])
            #expect(one.status == 0 && one.stderrText.contains("throbber 0.0.1 → "), "\(one.stderrText)")
            #expect(try CheckKit.readManifest(p.manifest)["versions"] as? [String: String] == current)

            try p.write(entries: recorded, versions: old)
            let all = try p.check(["--update", "--hashes-only"])
            #expect(all.status == 0 && all.stderr.isEmpty, "--update records every entry again: \(all.stderrText)")
        }
    }

    @Test(
        "with FFmpeg's libavformat hidden, --update records FFmpeg as absent and works; check with FFmpeg back notes it",
        .enabled(if: canHideFiles, "skipped: needs unshare -m (root) to hide a library from one process"))
    func ffmpegAbsent() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let p = try CheckProject(in: dir, entries: Self.entries)
            #expect(try p.check(["--update", "--hashes-only"]).status == 0)
            let current = try #require(CheckKit.readManifest(p.manifest)["versions"] as? [String: String])
            let major = try #require(current["libavformat"]?.split(separator: ".").first)
            let library = try #require(Self.find("libavformat.so.\(major)"), "libavformat.so.\(major) not found")
            let hidden = try Command.run(
                URL(fileURLWithPath: "/usr/bin/unshare"),
                [
                    "-m", "sh", "-c", #"mount --bind /dev/null "$1" && exec "$2" check "$3" --update --hashes-only"#,
                    "sh", library, try Throbber.binary.get().path, p.manifest.path,
                ])
            #expect(hidden.status == 0, "\(hidden.stdoutText)\(hidden.stderrText)")
            #expect(CheckKit.summary(hidden) == "2 passed, 0 failed")
            let versions = try #require(CheckKit.readManifest(p.manifest)["versions"] as? [String: String])
            var expected = current
            for name in ["libavformat", "libavcodec", "libavutil"] { expected[name] = "absent" }
            #expect(versions == expected)

            let back = try p.check()
            #expect(back.status == 0, "\(back.stdoutText)\(back.stderrText)")
            #expect(back.stderrText.contains("libavformat absent → \(current["libavformat"]!)"), "\(back.stderrText)")
        }
    }

    /// The file `name` (a library's soname) leads to, links followed, in
    /// the folders the dynamic loader searches on Debian.
    static func find(_ name: String) -> String? {
        let fm = FileManager.default
        for top in ["/usr/lib", "/lib"] {
            let folders = [top] + ((try? fm.contentsOfDirectory(atPath: top)) ?? []).map { top + "/" + $0 }
            for folder in folders where fm.fileExists(atPath: folder + "/" + name) {
                return URL(fileURLWithPath: folder + "/" + name).resolvingSymlinksInPath().path
            }
        }
        return nil
    }
}
