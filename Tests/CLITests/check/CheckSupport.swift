// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (Decodable fields carry the snake_case keys of `throbber info --json` and the Python tools.)
import Foundation
import TestSupport
import Testing

/// Helpers for the `info`, `check`, `--sha256`, pinned-hash and determinism
/// tests: independent hashes (sha256sum), the Python structure reader and
/// pixel differ in Tests/tools/check_*.py, and file-tree snapshots.
enum CheckKit {
    static let examples = Paths.repository.appendingPathComponent("examples")
    static let pinned = Paths.repository.appendingPathComponent("Fixtures/hashes.json")

    /// The command line a manifest entry stands for, without its output.
    static func command(for entry: [String: Any]) -> [String] {
        let head: [String]
        if let c = entry["render"] as? String {
            head = ["render", c]
        } else if let p = entry["preset"] as? String {
            head = ["preset", p]
        } else {
            head = ["encode"] + (entry["encode"] as! [String])
        }
        return head + (entry["args"] as? [String] ?? [])
    }

    // MARK: independent tools

    /// `sha256sum FILE...`, in order.
    static func sha256sum(_ files: [URL]) throws -> [String] { try TestSupport.sha256sum(files) }

    static func sha256sum(_ file: URL) throws -> String { try sha256sum([file])[0] }

    /// sha256sum of bytes (written to a temporary file first).
    static func sha256sum(_ data: Data) throws -> String {
        try withTemporaryDirectory { (dir: URL) throws in
            let f = dir.appendingPathComponent("bytes")
            try data.write(to: f)
            return try sha256sum(f)
        }
    }

    /// One frame as check_anim_structure.py reads it from the file.
    struct StructFrame: Decodable, Equatable, CustomStringConvertible {
        var x: Int, y: Int, width: Int, height: Int
        var delay_num: Int, delay_den: Int
        var dispose: String, blend: String
        var colors: Int?, transparent: Int?
        var description: String {
            "\(width)x\(height)+\(x)+\(y) \(delay_num)/\(delay_den) \(dispose) \(blend) colors \(colors.map(String.init) ?? "nil") transparent \(transparent.map(String.init) ?? "nil")"
        }
    }

    /// A whole file as check_anim_structure.py (or check_make_anim.py) states it.
    struct Structure: Decodable {
        var format: String?
        var width: Int?, height: Int?, loop: Int?
        var frames: [StructFrame]?
        /// APNG only (check_make_anim.py): the IHDR color type and depth.
        var pixel_type: String?
        var error: String?
    }

    /// check_anim_structure.py on `files`, keyed by path.
    static func structure(of files: [URL]) throws -> [String: Structure] {
        try JSONDecoder().decode(
            [String: Structure].self,
            from: Pillow.script("check_anim_structure.py", files.map(\.path)))
    }

    /// Writes the hand-built GIFs and APNGs of check_make_anim.py into
    /// `dir`; returns what each file states, keyed by file name.
    static func makeCraftedAnimations(in dir: URL) throws -> [String: Structure] {
        try JSONDecoder().decode([String: Structure].self, from: Pillow.script("check_make_anim.py", [dir.path]))
    }

    struct FrameDiff: Decodable {
        var size_expected: [Int], size_actual: [Int]
        var frames_expected: Int, frames_actual: Int
        /// The first differing frame, 0-based as Pillow counts.
        var first: Int?
        var pixels: Int?
        var largest: Int?
        /// x, y, width, height of the pixels that differ in it.
        var box: [Int]?
    }

    /// Pillow's first differing frame of two animations (check_frame_diff.py).
    static func frameDiff(_ expected: URL, _ actual: URL) throws -> FrameDiff {
        try JSONDecoder().decode(
            FrameDiff.self, from: Pillow.script("check_frame_diff.py", ["diff", expected.path, actual.path]))
    }

    struct FrameHash: Decodable { var width: Int, height: Int, sha256: String }

    /// Pillow's hash of composited frame `n` (normalised RGBA).
    static func frameHash(_ file: URL, _ n: Int) throws -> FrameHash {
        try JSONDecoder().decode(
            FrameHash.self, from: Pillow.script("check_frame_diff.py", ["frame", file.path, "\(n)"]))
    }

    struct Still: Decodable {
        var width: Int, height: Int, sha256: String
        var nonblack: Int, largest: Int, gray: Bool, opaque: Bool, animated: Bool
    }

    /// Pillow's view of a still PNG (check_frame_diff.py still).
    static func still(_ file: URL) throws -> Still {
        try JSONDecoder().decode(Still.self, from: Pillow.script("check_frame_diff.py", ["still", file.path]))
    }

    // MARK: throbber info --json

    struct InfoFrame: Decodable {
        var x: Int, y: Int, width: Int, height: Int
        var delay_ms: Double, delay_num: Int, delay_den: Int
        var dispose: String, blend: String
        var colors: Int?, transparent: Int?
    }

    struct Info: Decodable {
        var format: String
        var width: Int, height: Int, loop: Int
        var frame_count: Int
        var duration_ms: Double
        var sha256: String
        var frames: [InfoFrame]
    }

    /// `throbber info --json FILE`, decoded; records an issue and throws if it fails.
    static func info(
        _ file: URL, environment: [String: String?] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (info: Info, raw: Data) {
        let r = try Throbber.run(["info", "--json", file.path], environment: environment)
        guard r.status == 0 else {
            Issue.record(
                "info --json \(file.lastPathComponent) exited \(r.status): \(r.stderrText)",
                sourceLocation: sourceLocation)
            throw HarnessError("info failed")
        }
        #expect(r.stderr.isEmpty, "info wrote to stderr: \(r.stderrText)", sourceLocation: sourceLocation)
        do {
            return (try JSONDecoder().decode(Info.self, from: r.stdout), r.stdout)
        } catch {
            Issue.record(
                "info --json \(file.lastPathComponent) is not the documented object: \(error)\n\(r.stdoutText.prefix(600))",
                sourceLocation: sourceLocation)
            throw error
        }
    }

    /// Compares `info --json` with what the file states (the structure
    /// reader or the writer's own record); `skip` names fields not compared.
    static func expectInfo(
        _ info: Info, matches s: Structure, _ name: String, skip: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let frames = s.frames else {
            Issue.record("\(name): no reference structure: \(s.error ?? "?")", sourceLocation: sourceLocation)
            return
        }
        #expect(info.format == s.format, "\(name): format", sourceLocation: sourceLocation)
        #expect(
            info.width == s.width && info.height == s.height,
            "\(name): canvas \(info.width)x\(info.height), file says \(s.width ?? -1)x\(s.height ?? -1)",
            sourceLocation: sourceLocation)
        if !skip.contains("loop") {
            #expect(
                info.loop == s.loop, "\(name): loop \(info.loop), file says \(s.loop ?? -1)",
                sourceLocation: sourceLocation)
        }
        #expect(
            info.frame_count == frames.count && info.frames.count == frames.count,
            "\(name): \(info.frame_count) / \(info.frames.count) frames, file has \(frames.count)",
            sourceLocation: sourceLocation)
        var total = 0.0
        for (i, (f, e)) in zip(info.frames, frames).enumerated() {
            var got = StructFrame(
                x: f.x, y: f.y, width: f.width, height: f.height, delay_num: f.delay_num, delay_den: f.delay_den,
                dispose: f.dispose, blend: f.blend, colors: f.colors, transparent: f.transparent)
            if skip.contains("colors") { got.colors = e.colors }
            #expect(got == e, "\(name) frame \(i): info says \(got), file says \(e)", sourceLocation: sourceLocation)
            // delay_ms is the exact fraction in ms (3 decimals when not whole).
            let exact = Double(e.delay_num) * 1000 / Double(e.delay_den)
            #expect(
                abs(f.delay_ms - exact) <= 0.0005 + 1e-9,
                "\(name) frame \(i): delay_ms \(f.delay_ms), expected \(exact)",
                sourceLocation: sourceLocation)
            total += exact
        }
        #expect(
            abs(info.duration_ms - total) <= 0.0005 + 1e-6,
            "\(name): duration_ms \(info.duration_ms), frames add up to \(total)",
            sourceLocation: sourceLocation)
    }

    // MARK: files

    /// Every file under `dir`: relative path → bytes, modification time and
    /// inode (folders: "name/" → modification time), to show that nothing
    /// was written, replaced or added, not even for a moment.
    struct Snapshot: Equatable {
        struct Entry: Equatable {
            var bytes: Data
            var modified: Date?
            var inode: Int?
        }
        var files: [String: Entry]

        init(_ dir: URL) throws {
            files = [:]
            let fm = FileManager.default
            guard let e = fm.enumerator(atPath: dir.path) else { throw HarnessError("cannot list \(dir.path)") }
            files["./"] = Entry(
                bytes: Data(), modified: try fm.attributesOfItem(atPath: dir.path)[.modificationDate] as? Date,
                inode: nil)
            while let rel = e.nextObject() as? String {
                let path = dir.appendingPathComponent(rel).path
                let a = try fm.attributesOfItem(atPath: path)
                if a[.type] as? FileAttributeType == .typeDirectory {
                    // A folder's time changes when an entry is added or removed,
                    // even a temporary file that is gone again.
                    files[rel + "/"] = Entry(bytes: Data(), modified: a[.modificationDate] as? Date, inode: nil)
                    continue
                }
                files[rel] = Entry(
                    bytes: try Data(contentsOf: URL(fileURLWithPath: path)), modified: a[.modificationDate] as? Date,
                    inode: a[.systemFileNumber] as? Int)
            }
        }

        /// Paths added, removed or changed since `before`.
        func changes(since before: Snapshot) -> [String] {
            Set(files.keys).union(before.files.keys).sorted().filter { files[$0] != before.files[$0] }
        }
    }

    /// Copies the example configs (and the images ease.json uses) into `dir`.
    static func copyExamples(_ names: [String], to dir: URL) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(
                at: examples.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
    }

    /// A JSON value as compact text (for writing manifests in tests).
    static func json(_ object: Any) throws -> String {
        String(
            decoding: try JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    /// The manifest file as a dictionary.
    static func readManifest(_ url: URL) throws -> [String: Any] {
        guard let m = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw HarnessError("\(url.path) is not a JSON object")
        }
        return m
    }

    /// The last non-empty stdout line ("N passed, M failed").
    static func summary(_ r: CommandResult) -> String {
        r.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// Version strings the installed development files state, for the
    /// libraries `check --update` records (nil where unknown here).
    static func installedVersions() -> [String: String] {
        var v: [String: String] = [:]
        for (name, pc) in [
            ("libpng", "libpng"), ("zlib", "zlib"), ("cairo", "cairo"), ("pixman", "pixman-1"),
            ("libswscale", "libswscale"), ("libdeflate", "libdeflate"), ("libwebp", "libwebp"),
            ("harfbuzz", "harfbuzz"), ("fontconfig", "fontconfig"), ("libavformat", "libavformat"),
            ("libavcodec", "libavcodec"), ("libavutil", "libavutil"),
        ] {
            if let r = try? Command.run(URL(fileURLWithPath: "/usr/bin/pkg-config"), ["--modversion", pc]),
                r.status == 0
            {
                v[name] = r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        func defines(_ header: String) -> [String: String] {
            guard let text = try? String(contentsOfFile: header, encoding: .utf8) else { return [:] }
            var d: [String: String] = [:]
            for line in text.split(separator: "\n") where line.hasPrefix("#define ") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                if parts.count >= 3 { d[String(parts[1])] = String(parts[2]) }
            }
            return d
        }
        let gif = defines("/usr/include/gif_lib.h")
        if let a = gif["GIFLIB_MAJOR"], let b = gif["GIFLIB_MINOR"], let c = gif["GIFLIB_RELEASE"] {
            v["giflib"] = "\(a).\(b).\(c)"
        }
        // The number liq_version() returns (LIQ_VERSION), as MAJOR.MINOR.PATCH.
        if let n = defines("/usr/include/libimagequant.h")["LIQ_VERSION"].flatMap({ Int($0) }) {
            v["libimagequant"] = "\(n / 10000).\(n / 100 % 100).\(n % 100)"
        }
        // zopfli ships no pkg-config file: dpkg's upstream version.
        if let r = try? Command.run(
            URL(fileURLWithPath: "/usr/bin/dpkg-query"), ["-W", "-f", "${Version}", "libzopfli-dev"]),
            r.status == 0, let upstream = r.stdoutText.split(separator: "-").first
        {
            v["zopfli"] = String(upstream)
        }
        return v
    }
}
