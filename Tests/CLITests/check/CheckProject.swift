import Foundation
import TestSupport
import Testing

/// A small project for `throbber check`: configs and frames in the
/// manifest's folder (check refuses paths that lead out of it), so every
/// path in it is relative:
///
///     root/pins/manifest.json
///     root/pins/configs/{dots,ease}.json (+ ease's two images)
///     root/pins/frames/{a,b,c,d,e}.png
struct CheckProject {
    let root: URL
    var pins: URL { root.appendingPathComponent("pins") }
    var manifest: URL { pins.appendingPathComponent("manifest.json") }
    var configs: URL { pins.appendingPathComponent("configs") }

    static var entries: [[String: Any]] {
        [
            ["render": "configs/dots.json", "output": "dots.gif"],
            ["render": "configs/ease.json", "args": ["--compression", "fast"], "output": "ease.png"],
            ["preset": "ring", "args": ["--size", "48", "--color", "#0A84FF"], "output": "ring.png"],
            ["preset": "spinner", "args": ["--size", "32"], "output": "sub/spinner.gif"],
            ["encode": ["frames"], "args": ["--fps", "10"], "output": "frames.gif"],
        ]
    }

    init(in dir: URL, entries: [[String: Any]] = CheckProject.entries) throws {
        root = dir
        try CheckKit.copyExamples(
            ["dots.json", "ease.json", "loading_loop@2x.png", "loading_icon@2x.png"],
            to: configs)
        if entries.contains(where: { $0["encode"] != nil }) {  // only encode entries read the frames
            try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png", "c.png", "d.png", "e.png"], width: 10, height: 10),
                in: pins.appendingPathComponent("frames"))
        }
        try FileManager.default.createDirectory(at: pins, withIntermediateDirectories: true)
        try write(entries: entries)
    }

    func write(entries: [[String: Any]], versions: [String: String]? = nil) throws {
        var object: [String: Any] = ["entries": entries]
        if let versions { object["versions"] = versions }
        try Data(CheckKit.json(object).utf8).write(to: manifest)
    }

    /// The command an entry stands for, run directly (in the manifest's
    /// folder, as check does), writing `out`.
    func runDirectly(_ entry: [String: Any], to out: URL) throws -> CommandResult {
        let args = CheckKit.command(for: entry) + ["-o", out.path, "-q"]
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        let r = try Throbber.run(args, in: pins)
        #expect(r.status == 0, "\(args.joined(separator: " ")): \(r.stderrText)")
        return r
    }

    /// Makes every entry directly into its "output" path: the expected
    /// files a mismatch report compares with.
    func makeExpectedFiles(_ entries: [[String: Any]] = CheckProject.entries) throws {
        for e in entries { _ = try runDirectly(e, to: pins.appendingPathComponent(e["output"] as! String)) }
    }

    func check(_ extra: [String] = [], environment: [String: String?] = [:], in cwd: URL? = nil) throws -> CommandResult
    {
        try Throbber.run(["check", manifest.path] + extra, environment: environment, in: cwd)
    }

    func recordedEntries() throws -> [[String: Any]] {
        try CheckKit.readManifest(manifest)["entries"] as? [[String: Any]] ?? []
    }

    func recordedHash(_ output: String) throws -> String? {
        try recordedEntries().first { $0["output"] as? String == output }?["sha256"] as? String
    }
}
