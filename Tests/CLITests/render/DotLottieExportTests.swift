import Foundation
import TestSupport
import Testing

/// `render` and `preset` write dotLottie (`.lottie`): a zip that Python's
/// zipfile reads clean, with a manifest that follows dotLottie 2.0
/// (Tests/tools/dotlottie_check.py), holding the `.json` export's bytes;
/// `throbber encode` reads it back to the frames of the `.json`; the same
/// bytes from any folder and any thread count; written atomically.
@Suite("dotLottie export on the command line")
struct DotLottieExportTests {
    /// What dotlottie_check.py says of an archive.
    struct Report: Decodable {
        struct Entry: Decodable {
            var name: String
            var method: Int
            var dateTime: [Int]
            var extra: String
            var sha256: String
        }
        var testzip: String?
        var entries: [Entry]
        var localOrder: [String]
        var manifest: [String: JSONValue]?
        var errors: [String]
    }

    /// Enough of a JSON value to compare a manifest.
    indirect enum JSONValue: Decodable, Equatable {
        case string(String)
        case array([JSONValue])
        case object([String: JSONValue])
        case other

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) {
                self = .string(s)
            } else if let a = try? c.decode([JSONValue].self) {
                self = .array(a)
            } else if let o = try? c.decode([String: JSONValue].self) {
                self = .object(o)
            } else {
                self = .other
            }
        }
    }

    /// Reads the script's snake_case keys.
    static let decoder = {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }()

    static func report(_ file: URL) throws -> Report {
        try Self.decoder.decode(Report.self, from: Pillow.script("dotlottie_check.py", [file.path]))
    }

    /// `throbber ARGS -o OUT -q` in `cwd`, expected to succeed.
    static func make(_ args: [String], _ out: String, in cwd: URL? = nil, at: SourceLocation = #_sourceLocation) throws
    {
        let r = try Throbber.run(args + ["-o", out, "-q"], in: cwd)
        #expect(r.status == 0, "\(args) -o \(out): \(r.stderrText)", sourceLocation: at)
    }

    @Test(
        "preset and render to .lottie: zipfile reads it clean, the manifest is dotLottie 2.0's, a/loader.json is the .json export",
        arguments: [
            ["preset", "spinner"], ["preset", "ease", "--size", "96"], ["preset", "dots-flip", "--bounce"], ["render"],
        ])
    func archive(args: [String]) throws {
        try withTemporaryDirectory { dir in
            let args =
                args == ["render"] ? ["render", SceneCLI.examples.appendingPathComponent("dots.json").path] : args
            let lottie = dir.appendingPathComponent("x.lottie")
            let json = dir.appendingPathComponent("x.json")
            let r = try Throbber.run(args + ["-o", lottie.path])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(r.stderrText.hasPrefix("wrote \(lottie.path): dotLottie "), "\(r.stderrText)")
            try Self.make(args, json.path)
            let report = try Self.report(lottie)
            #expect(report.testzip == nil)
            #expect(report.errors.isEmpty, "\(report.errors)")
            // A preset's accent has a dark value: the archive carries a light and a dark theme.
            let themed = args[0] == "preset"
            let themes = themed ? ["t/light.json", "t/dark.json"] : []
            #expect(report.entries.map(\.name) == ["manifest.json"] + themes + ["a/loader.json"])
            #expect(report.localOrder == ["manifest.json"] + themes + ["a/loader.json"])
            #expect(report.entries.allSatisfy { $0.method == 8 }, "a loader's JSON and manifest deflate smaller")
            #expect(report.entries.allSatisfy { $0.dateTime == [1980, 1, 1, 0, 0, 0] && $0.extra.isEmpty })
            #expect(report.entries.last?.sha256 == (try sha256sum([json])[0]))
            let m = try #require(report.manifest)
            #expect(m["version"] == .string("2") && m["generator"] == .string("Throbber"))
            if themed {
                let ids = JSONValue.array([.string("light"), .string("dark")])
                #expect(m["animations"] == .array([.object(["id": .string("loader"), "themes": ids])]))
                #expect(m["themes"] == .array([.object(["id": .string("light")]), .object(["id": .string("dark")])]))
                #expect(Set(m.keys) == ["version", "generator", "animations", "themes"])
            } else {
                #expect(m["animations"] == .array([.object(["id": .string("loader")])]))
                #expect(Set(m.keys) == ["version", "generator", "animations"])
            }
            let size = try FileManager.default.attributesOfItem(atPath: lottie.path)[.size] as? Int ?? 0
            let jsonSize = try FileManager.default.attributesOfItem(atPath: json.path)[.size] as? Int ?? 0
            #expect(size < jsonSize, "the archive (\(size) bytes) is smaller than the JSON (\(jsonSize))")
        }
    }

    @Test(
        "encode X.lottie gives the same APNG as encode X.json",
        arguments: [["preset", "spinner"], ["preset", "ease"], ["preset", "grid", "--color", "#ff3b30"]])
    func readBack(args: [String]) throws {
        try withTemporaryDirectory { dir in
            try Self.make(args, dir.appendingPathComponent("x.lottie").path)
            try Self.make(args, dir.appendingPathComponent("x.json").path)
            let a = dir.appendingPathComponent("a.png")
            let b = dir.appendingPathComponent("b.png")
            try Self.make(["encode", dir.appendingPathComponent("x.lottie").path], a.path)
            try Self.make(["encode", dir.appendingPathComponent("x.json").path], b.path)
            #expect(try sha256sum([a]) == sha256sum([b]))
            // Equal bytes are equal frames; and there are frames to compare.
            let info = try Throbber.run(["info", "--json", a.path])
            let object = try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any]
            #expect((object?["frame_count"] as? Int ?? 0) > 1, "\(info.stdoutText)")
        }
    }

    @Test("the same bytes from two working directories, with --jobs 1 and 2, to a file and to standard output")
    func deterministic() throws {
        try withTemporaryDirectory { dir in
            let one = dir.appendingPathComponent("one/deeper")
            let two = dir.appendingPathComponent("two")
            for d in [one, two] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
            try Self.make(["preset", "chase", "--jobs", "1"], "a.lottie", in: one)
            try Self.make(["preset", "chase", "--jobs", "2"], "b.lottie", in: two)
            let config = SceneCLI.examples.appendingPathComponent("dots.json").path
            try Self.make(["render", config], "c.lottie", in: one)
            try Self.make(["render", config], "../d.lottie", in: two)
            let files = [
                one.appendingPathComponent("a.lottie"), two.appendingPathComponent("b.lottie"),
                one.appendingPathComponent("c.lottie"), dir.appendingPathComponent("d.lottie"),
            ]
            let hashes = try sha256sum(files)
            #expect(hashes[0] == hashes[1] && hashes[2] == hashes[3] && hashes[0] != hashes[2])
            let piped = try Throbber.run(["preset", "chase", "-o", "-", "--format", "dotlottie"], in: two)
            #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderrText)")
            #expect(try piped.stdout == Data(contentsOf: files[0]))
        }
    }

    @Test("a config's output list names .lottie, or another name with \"format\": \"dotlottie\"")
    func outputList() throws {
        try withTemporaryDirectory { dir in
            let dots = try String(contentsOf: SceneCLI.examples.appendingPathComponent("dots.json"), encoding: .utf8)
            var config = try #require(try JSONSerialization.jsonObject(with: Data(dots.utf8)) as? [String: Any])
            config["output"] = [["path": "a.lottie"], ["path": "b.zip", "format": "dotlottie"]]
            let file = dir.appendingPathComponent("c.json")
            try JSONSerialization.data(withJSONObject: config).write(to: file)
            let r = try Throbber.run(["render", file.path, "-q"], in: dir)
            #expect(r.status == 0, "\(r.stderrText)")
            let files = [dir.appendingPathComponent("a.lottie"), dir.appendingPathComponent("b.zip")]
            #expect(try sha256sum(files)[0] == sha256sum(files)[1])
            #expect(try Self.report(files[0]).errors.isEmpty)
        }
    }

    @Test("over a folder exits 73, past ulimit -f exits 74 and leaves nothing, encode refuses .lottie (64)")
    func writeErrors() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("out.lottie")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let r = try Throbber.run(["preset", "spinner", "-o", folder.path])
            expectFailure(r, status: 73, names: ["out.lottie: is a folder"])
            try FileManager.default.removeItem(at: folder)
            #expect(try listing(dir).isEmpty)

            try FileSizeLimitTests.expectSignalDefault(in: dir)
            // No file may grow past 0 bytes; standard error is a pipe, which the limit spares.
            let full = try Hostile.shell(
                "(ulimit -f 0; exec \(FileSizeLimitTests.dfl) \"$THROBBER\" preset spinner -o out.lottie -q) 2>&1 | cat >&2; exit ${PIPESTATUS[0]}",
                in: dir)
            expectFailure(full, status: 74, names: ["out.lottie: File too large"])
            #expect(try listing(dir).isEmpty, "an output or a temporary file was left")

            try Self.make(["preset", "spinner"], "x.png", in: dir)
            let refused = try Throbber.run(["encode", "x.png", "-o", "y.lottie"], in: dir)
            #expect(refused.status == 64)
            #expect(refused.stderrText.contains("y.lottie: dotLottie is made from configs and presets"))
            #expect(try listing(dir) == ["x.png"])
        }
    }
}
