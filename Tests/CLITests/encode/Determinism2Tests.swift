import Foundation
import TestSupport
import Testing

/// Identical bytes for render, preset and encode, GIF and APNG, whatever the
/// run, the thread counts, the working folder, the spelling of the input
/// path, the time zone or the locale; and the bytes Fixtures/hashes.json
/// pins where the manifest has the same command.
@Suite("Deterministic bytes: render, preset, encode; GIF and APNG", .tags(.slow))
struct Determinism2Tests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        /// The command before its input path, the input (relative to the
        /// repository; nil for presets) and the options after it.
        var command: String
        var input: String?
        var options: [String]
        var ext: String
        /// The Fixtures/hashes.json output with the same command, if any.
        var pinned: String?
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "render ease.json → GIF (images relative to the config)", command: "render",
            input: "examples/ease.json",
            options: [], ext: "gif", pinned: "examples/ease.gif"),
        Scenario(
            name: "render ease.json → APNG", command: "render", input: "examples/ease.json", options: [], ext: "png",
            pinned: "examples/ease.png"),
        Scenario(
            name: "render dropdown.json → GIF (frame folder relative to the config, quantized)", command: "render",
            input: "examples/dropdown.json", options: [], ext: "gif", pinned: "examples/dropdown.gif"),
        Scenario(
            name: "preset spinner → APNG", command: "preset spinner", input: nil, options: [], ext: "png",
            pinned: "presets/spinner.png"),
        Scenario(
            name: "preset orbit → GIF", command: "preset orbit", input: nil, options: [], ext: "gif",
            pinned: "presets/orbit.gif"),
        Scenario(
            name: "encode dropdown_anim → GIF", command: "encode", input: "examples/dropdown_anim",
            options: ["--fps", "10", "--duplicate", "2"], ext: "gif", pinned: "encode/dropdown.gif"),
        Scenario(
            name: "encode dropdown_anim → palette APNG (libimagequant)", command: "encode",
            input: "examples/dropdown_anim",
            options: ["--colors", "48", "--quality", "70"], ext: "png", pinned: nil),
    ]

    /// `path` (absolute) spelled relative to `dir`.
    static func relative(_ path: String, from dir: URL) -> String {
        let up = dir.standardizedFileURL.path.split(separator: "/").count
        return String(repeating: "../", count: up) + String(path.drop { $0 == "/" })
    }

    /// One run; returns the bytes written.
    static func make(
        _ s: Scenario, input: String?, output: String, cwd: URL, extra: [String] = [],
        environment: [String: String?] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Data {
        var args = s.command.split(separator: " ").map(String.init)
        if let input { args.append(input) }
        args += s.options + extra + ["-o", output, "-q"]
        let r = try Throbber.run(args, environment: environment, in: cwd)
        #expect(r.status == 0, "\(args.joined(separator: " ")): \(r.stderrText)", sourceLocation: sourceLocation)
        let url = output.hasPrefix("/") ? URL(fileURLWithPath: output) : cwd.appendingPathComponent(output)
        return try Data(contentsOf: url)
    }

    @Test(
        "same bytes: twice; --jobs 1 and 2; OMP_NUM_THREADS 1 and 2; other folders with relative and absolute paths; other TZ and LANG",
        arguments: scenarios)
    func identical(_ s: Scenario) throws {
        try Locales.require("de_DE.UTF-8", "tr_TR.UTF-8", "ja_JP.UTF-8")
        try withTemporaryDirectory { (dir: URL) throws in
            let repo = Paths.repository
            let absolute = s.input.map { repo.appendingPathComponent($0).path }
            let other = dir.appendingPathComponent("somewhere/else")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            var n = 0
            func out() -> String {
                n += 1
                return dir.appendingPathComponent("\(n).\(s.ext)").path
            }

            let baseline = try Self.make(s, input: s.input, output: out(), cwd: repo)
            #expect(baseline.count > 100)
            var runs: [(String, Data)] = [
                ("again", try Self.make(s, input: s.input, output: out(), cwd: repo)),
                ("--jobs 1", try Self.make(s, input: s.input, output: out(), cwd: repo, extra: ["--jobs", "1"])),
                ("--jobs 2", try Self.make(s, input: s.input, output: out(), cwd: repo, extra: ["--jobs", "2"])),
                (
                    "OMP_NUM_THREADS=1",
                    try Self.make(s, input: s.input, output: out(), cwd: repo, environment: ["OMP_NUM_THREADS": "1"])
                ),
                (
                    "OMP_NUM_THREADS=2",
                    try Self.make(s, input: s.input, output: out(), cwd: repo, environment: ["OMP_NUM_THREADS": "2"])
                ),
                ("other folder, absolute path", try Self.make(s, input: absolute, output: out(), cwd: other)),
                (
                    "other folder, relative output",
                    try Self.make(s, input: absolute, output: "rel.\(s.ext)", cwd: other)
                ),
                (
                    "TZ and LANG",
                    try Self.make(
                        s, input: s.input, output: out(), cwd: repo,
                        environment: ["TZ": "Pacific/Chatham", "LANG": "de_DE.UTF-8", "LC_ALL": "tr_TR.UTF-8"])
                ),
                (
                    "TZ and LANG again",
                    try Self.make(
                        s, input: s.input, output: out(), cwd: repo,
                        environment: ["TZ": "UTC-14", "LANG": "ja_JP.UTF-8", "LC_ALL": nil])
                ),
            ]
            if let absolute, let input = s.input {
                runs.append(
                    (
                        "other folder, relative path",
                        try Self.make(s, input: Self.relative(absolute, from: other), output: out(), cwd: other)
                    ))
                // From the input's own folder, by its bare name.
                let parent = repo.appendingPathComponent(input).deletingLastPathComponent()
                runs.append(
                    (
                        "input's folder, bare name",
                        try Self.make(s, input: (input as NSString).lastPathComponent, output: out(), cwd: parent)
                    ))
            }
            for (what, bytes) in runs {
                #expect(
                    bytes == baseline,
                    "\(s.name): \(what) wrote \(bytes.count) bytes that differ from the first run's \(baseline.count)")
            }
            if let pinned = s.pinned {
                let entries = try CheckKit.readManifest(CheckKit.pinned)["entries"] as? [[String: Any]] ?? []
                let hash = try #require(entries.first { $0["output"] as? String == pinned }?["sha256"] as? String)
                #expect(try CheckKit.sha256sum(baseline) == hash, "\(s.name): not the bytes pinned for \(pinned)")
            }
        }
    }

    @Test("check itself gives the same hashes with --jobs 1 and 2, OMP_NUM_THREADS 1 and 2, and other TZ and LANG")
    func checkUnderOtherSettings() throws {
        try Locales.require("fr_FR.UTF-8")
        try withTemporaryDirectory { (dir: URL) throws in
            let entries: [[String: Any]] = [
                ["render": "configs/ease.json", "output": "ease.gif"],
                ["encode": ["frames"], "args": ["--quality", "50"], "output": "frames.png"],
                ["preset": "wave", "output": "wave.gif"],
            ]
            let p = try CheckProject(in: dir, entries: entries)
            #expect(try p.check(["--update"]).status == 0)
            for (extra, env) in [
                (["--jobs", "1"], [:]), (["--jobs", "2"], [:]), ([], ["OMP_NUM_THREADS": "1"]),
                ([], ["OMP_NUM_THREADS": "2"]), ([], ["TZ": "Asia/Kathmandu", "LANG": "fr_FR.UTF-8"]),
            ] as [([String], [String: String?])] {
                let r = try p.check(extra, environment: env, in: p.pins.appendingPathComponent("frames"))
                #expect(
                    r.status == 0 && CheckKit.summary(r) == "3 passed, 0 failed", "\(extra) \(env): \(r.stdoutText)")
            }
        }
    }
}
