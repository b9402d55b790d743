import Foundation
import TestSupport
import Testing

/// Fixtures/hashes.json pins every example and every preset, as GIF, APNG
/// and WebP, and one preset as dotLottie: a change in output bytes fails
/// here until the manifest is updated.
@Suite("Pinned output hashes (Fixtures/hashes.json)", .serialized, .tags(.slow))
struct PinnedHashesTests {
    /// Presets pinned in a vector format as well, by extension (the dotLottie
    /// archive holds the `.json` export's bytes, so it pins both).
    /// Vector outputs pinned beside the frames: one dotLottie, and SVG and
    /// Lottie for the presets and example drawn with paths and text.
    static let vectorPinned: [String: Set<String>] = [
        "spinner": ["lottie"], "text-wave": ["svg", "json"], "label": ["svg", "json"], "checkmark": ["svg", "json"],
        "spinner-check": ["svg", "json"],
    ]
    static let vectorPinnedExamples: [String: Set<String>] = ["heart.json": ["svg", "json"]]

    static func entries() throws -> [[String: Any]] {
        try #require(CheckKit.readManifest(CheckKit.pinned)["entries"] as? [[String: Any]])
    }

    @Test(
        "throbber check Fixtures/hashes.json passes every entry, from another folder, touching nothing in the repository"
    )
    func pinnedHashesMatch() throws {
        let count = try Self.entries().count
        let watched = ["Fixtures", "examples"].map { Paths.repository.appendingPathComponent($0) }
        let before = try watched.map(CheckKit.Snapshot.init)
        try withTemporaryDirectory { (cwd: URL) throws in
            let r = try Throbber.run(
                ["check", CheckKit.pinned.path, "--allow-outside"], environment: ["TMPDIR": cwd.path], in: cwd)
            #expect(r.status == 0, "\(r.stdoutText)\(r.stderrText)")
            #expect(CheckKit.summary(r) == "\(count) passed, 0 failed", "\(r.stdoutText)")
            #expect(!r.stdoutText.contains("FAILED"), "\(r.stdoutText)")
            #expect(r.stdoutText.split(separator: "\n").filter { $0.hasPrefix("ok      ") }.count == count)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: cwd.path).isEmpty,
                "check left files behind in TMPDIR or cwd")
        }
        for (dir, snap) in zip(watched, before) {
            #expect(try CheckKit.Snapshot(dir).changes(since: snap) == [], "check changed \(dir.lastPathComponent)/")
        }
    }

    @Test(
        "the manifest covers every example config and every preset, each as .gif, .png and .webp, one preset as .lottie, the path and text ones as .svg and .json, with a recorded hash"
    )
    func coverage() throws {
        let entries = try Self.entries()
        var renders: [String: Set<String>] = [:]
        var presets: [String: Set<String>] = [:]
        var outputs: [String] = []
        for e in entries {
            let output = try #require(e["output"] as? String)
            outputs.append(output)
            let sha = e["sha256"] as? String ?? ""
            #expect(
                sha.count == 64 && sha.allSatisfy { $0.isHexDigit && $0.isASCII && !$0.isUppercase },
                "\(output): sha256 '\(sha)'")
            let ext = (output as NSString).pathExtension
            if let c = e["render"] as? String {
                #expect(e["args"] == nil, "\(output): examples are pinned as they are")
                renders[(c as NSString).lastPathComponent, default: []].insert(ext)
                #expect(
                    FileManager.default.fileExists(
                        atPath: CheckKit.pinned.deletingLastPathComponent().appendingPathComponent(c).path),
                    "\(c) does not exist relative to the manifest")
            } else if let p = e["preset"] as? String {
                #expect(e["args"] == nil, "\(output): presets are pinned with their defaults")
                presets[p, default: []].insert(ext)
            }
        }
        #expect(Set(outputs).count == outputs.count, "output names repeat")
        let examples = try FileManager.default.contentsOfDirectory(atPath: CheckKit.examples.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(!examples.isEmpty)
        for name in examples {
            #expect(
                renders[name] == Set(["gif", "png", "webp"]).union(Self.vectorPinnedExamples[name] ?? []),
                "examples/\(name): pinned as \(renders[name] ?? [])")
        }
        #expect(
            Set(renders.keys) == Set(examples),
            "pinned renders of configs that are not examples: \(Set(renders.keys).subtracting(examples))")
        let names = try SceneCLI.presetNames()
        #expect(names.count >= 15)
        for name in names {
            let frames = presets[name]?.subtracting(Self.vectorPinned[name] ?? []) ?? []
            #expect(frames == ["gif", "png", "webp"], "preset \(name): pinned as \(presets[name] ?? [])")
            #expect(presets[name]?.isSuperset(of: Self.vectorPinned[name] ?? []) == true, "preset \(name)")
        }
        #expect(Set(presets.keys) == Set(names))
        #expect(entries.contains { $0["encode"] != nil }, "no encode entry pinned")
        let vectors = (Self.vectorPinned.values.map(\.count) + Self.vectorPinnedExamples.values.map(\.count))
            .reduce(0, +)
        #expect(
            entries.count == 3 * (examples.count + names.count) + vectors + entries.filter { $0["encode"] != nil }.count
        )

        let versions = try #require(CheckKit.readManifest(CheckKit.pinned)["versions"] as? [String: String])
        let libraries: Set = [
            "giflib", "libpng", "zlib", "libdeflate", "zopfli", "libimagequant", "cairo", "pixman", "libswscale",
            "rlottie", "libwebp", "harfbuzz", "fontconfig",
        ]
        // Recorded by --update since Throbber's and FFmpeg's versions are; a
        // manifest recorded before lacks all four.
        let later: Set = ["throbber", "libavformat", "libavcodec", "libavutil"]
        #expect(
            Set(versions.keys) == libraries.union(later) || Set(versions.keys) == libraries, "\(versions.keys.sorted())"
        )
    }

    @Test("the pinned hashes are what the commands themselves write (checked here with --sha256 and sha256sum)")
    func pinnedEqualsDirectCommands() throws {
        let entries = try Self.entries()
        let manifestDir = CheckKit.pinned.deletingLastPathComponent()
        try withTemporaryDirectory { (dir: URL) throws in
            for output in [
                "examples/dots.gif", "examples/ease.png", "presets/ring.png", "presets/pacman.gif",
                "encode/dropdown.gif", "encode/dropdown-1x.gif", "presets/spinner.lottie", "presets/text-wave.svg",
                "presets/checkmark.json",
            ] {
                let e = try #require(entries.first { $0["output"] as? String == output }, "\(output) not pinned")
                let out = dir.appendingPathComponent(output.replacingOccurrences(of: "/", with: "-"))
                let r = try Throbber.run(
                    CheckKit.command(for: e) + ["-o", out.path, "--sha256", "-q"], in: manifestDir)
                #expect(r.status == 0, "\(r.stderrText)")
                let hash = try CheckKit.sha256sum(out)
                #expect(r.stdoutText == "\(hash)  \(out.path)\n")
                #expect(e["sha256"] as? String == hash, "\(output): pinned \(e["sha256"] ?? "-"), made \(hash)")
            }
        }
    }
}
