import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// The regression manifest behind `throbber check`: what it accepts, how it
/// resolves paths, how it writes itself back, and the library versions.
@Suite("Check manifest")
struct CheckManifestTests {
    static func write(_ text: String, in dir: URL, as name: String = "m.json") throws -> String {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let sample = """
        {"versions": {"giflib": "5.2.1", "zlib": "1.2.13"},
         "entries": [
           {"render": "loaders/dots.json", "output": "dots.gif", "sha256": "07E0120DEF98228A2F952BB8077B95A0D616268C1063BD6568BB8AC6235D970B"},
           {"preset": "ring", "args": ["--size", "64"], "output": "out/ring.png"},
           {"encode": ["frames/", "extra.png"], "args": ["--fps", "10"], "output": "f.gif", "sha256": "\(String(repeating: "0", count: 64))"}]}
        """

    @Test("the three kinds of entries, their args, outputs and hashes (lowercased), and the versions in order")
    func load() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let m = try Manifest.load(try Self.write(Self.sample, in: dir))
            #expect(m.entries.count == 3)
            #expect(m.entries[0].job == .render("loaders/dots.json"))
            #expect(m.entries[0].args == [])
            #expect(m.entries[0].sha256 == "07e0120def98228a2f952bb8077b95a0d616268c1063bd6568bb8ac6235d970b")
            #expect(m.entries[1].job == .preset("ring"))
            #expect(m.entries[1].args == ["--size", "64"])
            #expect(m.entries[1].output == "out/ring.png")
            #expect(m.entries[1].sha256 == nil)
            #expect(m.entries[2].job == .encode(["frames/", "extra.png"]))
            #expect(m.versions.map(\.name) == ["giflib", "zlib"])
            #expect(m.versions.map(\.version) == ["5.2.1", "1.2.13"])
        }
    }

    @Test("paths resolve against the manifest's folder; absolute paths stay")
    func resolve() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let path = try Self.write(Self.sample, in: dir, as: "pins/sub/m.json")
            let m = try Manifest.load(path)
            #expect(m.folder == dir.appendingPathComponent("pins/sub").path)
            #expect(m.resolve("dots.gif") == dir.appendingPathComponent("pins/sub/dots.gif").path)
            #expect(m.resolve("/abs/x.gif") == "/abs/x.gif")
            // A bare file name lives in the working folder.
            let bare = Manifest(file: "m.json", entries: [], versions: [])
            #expect(bare.folder == ".")
            #expect(bare.resolve("a/b.gif") == "./a/b.gif")
        }
    }

    @Test(
        "serialized() is JSON that loads back to the same manifest; entries keep their order, no sha256 key when none")
    func roundTrip() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let m = try Manifest.load(try Self.write(Self.sample, in: dir))
            let text = m.serialized()
            #expect(text.hasSuffix("}\n"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["versions", "entries"])
            let entries = try #require(object["entries"] as? [[String: Any]])
            #expect(entries[1]["sha256"] == nil)
            #expect(entries[1]["args"] as? [String] == ["--size", "64"])
            #expect(entries[0]["args"] == nil, "empty args are left out")
            let again = try Manifest.load(try Self.write(text, in: dir, as: "again.json"))
            #expect(again.entries.map(\.job) == m.entries.map(\.job))
            #expect(again.entries.map(\.args) == m.entries.map(\.args))
            #expect(again.entries.map(\.output) == m.entries.map(\.output))
            #expect(again.entries.map(\.sha256) == m.entries.map(\.sha256))
            #expect(
                again.versions.map(\.name) == m.versions.map(\.name)
                    && again.versions.map(\.version) == m.versions.map(\.version))
            #expect(again.serialized() == text)
        }
    }

    @Test("strings with quotes, backslashes and non-ASCII survive serialized()")
    func escaping() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let text =
                ##"{"entries": [{"render": "dir \"q\"\\x/é ✓.json", "args": ["--color", "#FF0000"], "output": "ü.gif"}]}"##
            let m = try Manifest.load(try Self.write(text, in: dir))
            #expect(m.entries[0].job == .render(#"dir "q"\x/é ✓.json"#))
            let again = try Manifest.load(try Self.write(m.serialized(), in: dir, as: "b.json"))
            #expect(again.entries[0].job == m.entries[0].job && again.entries[0].output == "ü.gif")
        }
    }

    @Test("the sixteen libraries, FFmpeg's last, in order, with dotted numeric versions")
    func libraryVersions() {
        let v = LibraryVersions.current
        #expect(
            v.map(\.name) == [
                "giflib", "libpng", "zlib", "libdeflate", "zopfli", "libimagequant", "cairo", "pixman", "libswscale",
                "rlottie", "libwebp", "harfbuzz", "fontconfig", "libavformat", "libavcodec", "libavutil",
            ])
        for (name, version) in v {
            let parts = version.split(separator: ".")
            #expect(parts.count >= 2 && parts.allSatisfy { Int($0) != nil }, "\(name) \(version)")
        }
    }

    /// rlottie cannot report its version (the shim records the one it was
    /// built against); libswscale and FFmpeg's libraries (loaded on demand)
    /// are asked at run time. Either way the recorded version must be the
    /// installed library's.
    @Test(
        "the recorded version is the one pkg-config reports for the installed library",
        arguments: ["rlottie", "libswscale", "libavformat", "libavcodec", "libavutil"])
    func versionMatchesPkgConfig(_ library: String) throws {
        let recorded = LibraryVersions.current.first { $0.name == library }?.version
        let installed = try Command.run(URL(fileURLWithPath: "/usr/bin/pkg-config"), ["--modversion", library])
        #expect(installed.status == 0)
        #expect(recorded == installed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("zopfli's recorded version is the upstream version dpkg records for libzopfli-dev")
    func zopfliVersion() throws {
        let recorded = LibraryVersions.current.first { $0.name == "zopfli" }?.version
        let installed = try Command.run(
            URL(fileURLWithPath: "/usr/bin/dpkg-query"), ["-W", "-f", "${Version}", "libzopfli-dev"])
        #expect(installed.status == 0)
        // Debian's version is upstream-revision (1.0.3-1).
        let upstream = installed.stdoutText.split(separator: "-").first.map(String.init)
        #expect(recorded != nil && recorded == upstream)
    }

    @Test("versionChanges names only recorded versions that differ from the running ones, FFmpeg's absence included")
    func versionChanges() {
        let now = [("throbber", "1.0.0")] + LibraryVersions.current
        var m = Manifest(file: "m.json", entries: [], versions: now)
        #expect(m.versionChanges(running: now).isEmpty)
        m.versions = []
        #expect(m.versionChanges(running: now).isEmpty, "nothing recorded, nothing to say")
        m.versions = now.map { $0.name == "libpng" ? ($0.name, "1.2.3") : $0 } + [("libfoo", "9")]
        let png = now.first { $0.name == "libpng" }!.version
        #expect(m.versionChanges(running: now) == ["libpng 1.2.3 → \(png)"])
        // A manifest from before Throbber and FFmpeg were recorded: nothing said about them.
        m.versions = now.filter { !["throbber", "libavformat", "libavcodec", "libavutil"].contains($0.0) }
        #expect(m.versionChanges(running: now).isEmpty)
        // Throbber's own version, and FFmpeg gone or come back.
        m.versions = [("throbber", "0.9.0"), ("libavformat", "59.27.100"), ("libavcodec", FFmpegVersions.absent)]
        let gone = [("throbber", "1.0.0"), ("libavformat", FFmpegVersions.absent), ("libavcodec", "59.37.100")]
        #expect(
            m.versionChanges(running: gone) == [
                "throbber 0.9.0 → 1.0.0", "libavformat 59.27.100 → absent", "libavcodec absent → 59.37.100",
            ])
    }

    @Test("a manifest without Throbber's or FFmpeg's versions, as written before they were recorded, loads as it is")
    func oldVersionsLoad() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let text = #"{"versions": {"giflib": "5.2.1", "libswscale": "6.7.100"}, "entries": []}"#
            let m = try Manifest.load(try Self.write(text, in: dir))
            #expect(m.versions.map(\.name) == ["giflib", "libswscale"])
            #expect(m.versions.map(\.version) == ["5.2.1", "6.7.100"])
        }
    }

    @Test(
        "broken manifests throw a data error naming the file and the JSON path; a missing one a no-input error",
        arguments: [
            (#"{"entries": ["#, "line"),
            (#"{}"#, "entries"),
            (#"{"entries": [], "x": 1}"#, "x"),
            (#"{"entries": [{"output": "a.gif"}]}"#, "entries[0]"),
            (#"{"entries": [{"preset": "a", "output": "a.gif", "sha256": "12"}]}"#, "entries[0].sha256"),
            (#"{"entries": [{"preset": "a", "output": "/a.gif"}]}"#, "entries[0].output"),
            (#"{"entries": [{"preset": "a", "output": "a.gif", "args": [1]}]}"#, "entries[0].args[0]"),
        ])
    func broken(_ text: String, _ mention: String) throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let path = try Self.write(text, in: dir)
            do {
                _ = try Manifest.load(path)
                Issue.record("accepted: \(text)")
            } catch let e as ThrobberError {
                #expect(e.kind == .data)
                #expect(e.message.hasPrefix(path + ": ") && e.message.contains(mention), "\(e.message)")
            }
        }
        do {
            _ = try Manifest.load("/nonexistent/m.json")
            Issue.record("a missing manifest loaded")
        } catch let e as ThrobberError {
            #expect(e.kind == .noInput)
        }
    }
}
