import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore

/// A regression manifest: what to make, and the SHA-256 each result must
/// have. Paths are relative to the manifest's folder.
///
///     {"versions": {"throbber": "0.1.0", "giflib": "5.2.1", ..., "libavformat": "59.27.100", ...},
///      "entries": [{"render": "examples/dots.json", "output": "dots.gif", "sha256": "…"},
///                  {"preset": "ring", "args": ["--size", "64"], "output": "ring.gif", "sha256": "…"},
///                  {"encode": ["frames/"], "args": ["--fps", "10"], "output": "frames.gif", "sha256": "…"}]}
public struct Manifest: Sendable {
    /// What an entry makes, as the `throbber` subcommand of the same name.
    public enum Job: Sendable, Equatable {
        /// `"render"`: a config file, relative to the manifest.
        case render(String)
        /// `"preset"`: a built-in loader's name.
        case preset(String)
        /// `"encode"`: frame files and folders, relative to the manifest.
        case encode([String])
    }

    /// One output to make and check.
    public struct Entry: Sendable {
        /// What to make.
        public var job: Job
        /// More options for the subcommand, as on its command line
        /// (`["--size", "64"]`); `-o` comes from ``output``.
        public var args: [String]
        /// File name of the result (its extension picks the format); an
        /// existing file there is the expected picture for diffs.
        public var output: String
        /// The expected SHA-256 of the output, 64 lowercase hex digits; nil
        /// until `throbber check --update` records it.
        public var sha256: String?

        /// An entry; without `sha256`, `throbber check` reports it NEW (and
        /// exits 2) until `--update` records one.
        public init(job: Job, args: [String] = [], output: String, sha256: String? = nil) {
            self.job = job
            self.args = args
            self.output = output
            self.sha256 = sha256
        }
    }

    /// The manifest's path; its folder anchors every relative path.
    public var file: String
    /// The entries, in file order.
    public var entries: [Entry]
    /// The versions recorded by the last `--update`: Throbber's own
    /// (`"throbber"`) and those of ``LibraryVersions``, FFmpeg's included.
    /// A manifest from before one was recorded simply lacks it.
    public var versions: [(name: String, version: String)]

    /// A manifest at `file` (not read or written by this initializer).
    public init(file: String, entries: [Entry], versions: [(name: String, version: String)] = []) {
        self.file = file
        self.entries = entries
        self.versions = versions
    }

    /// The folder of ``file`` (`.` when it has none).
    public var folder: String {
        PathText.parent(file).isEmpty ? "." : PathText.parent(file)
    }

    /// Reads and validates the manifest at `file`: unknown keys, an entry
    /// without exactly one job, an absolute `output` or a malformed `sha256`
    /// are ``ThrobberError/Kind/data`` errors naming the JSON path; a missing
    /// file is ``ThrobberError/Kind/noInput``.
    public static func load(_ file: String) throws -> Manifest {
        try parse(try FileBytes.read(file), file: file)
    }

    /// Validates a manifest held in memory, named `file` in messages (its
    /// folder is what entries' paths are relative to). Throws as
    /// ``load(_:)`` does for its contents.
    public static func parse(_ bytes: [UInt8], file: String) throws -> Manifest {
        let root = try JSONParser.parse(bytes, file: file)
        let r = ConfigReader(file: file)
        let top = try r.object(root, "")
        var versions: [(String, String)] = []
        try top.optional("versions") { node, path in
            let o = try r.object(node, path)
            for m in o.members { versions.append((m.key, try o.required(m.key, r.string))) }
        }
        let entries = try top.required("entries") { node, path in
            try r.array(node, path).enumerated().map { i, item -> Entry in
                let p = "\(path)[\(i)]"
                let o = try r.object(item, p)
                let kinds = ["render", "preset", "encode"].filter { o.has($0) }
                guard kinds.count == 1 else {
                    throw r.error(p, "an entry has exactly one of \"render\", \"preset\" or \"encode\"")
                }
                let job: Job
                switch kinds[0] {
                case "render": job = .render(try o.required("render", r.string))
                case "preset": job = .preset(try o.required("preset", r.string))
                default:
                    job = .encode(
                        try o.required("encode") { node, path in
                            try r.array(node, path).enumerated().map { try r.string($1, "\(path)[\($0)]") }
                        })
                }
                let args =
                    try o.optional("args") { node, path in
                        try r.array(node, path).enumerated().map { try r.string($1, "\(path)[\($0)]") }
                    } ?? []
                let output = try o.required("output", r.string)
                guard !output.isEmpty, !output.hasPrefix("/") else {
                    throw r.error(p + ".output", "expected a file name relative to the manifest")
                }
                let sha = try o.optional("sha256") { node, path -> String in
                    let s = try r.string(node, path)
                    guard s.count == 64, s.allSatisfy({ $0.isHexDigit && $0.isASCII }) else {
                        throw r.error(path, "expected 64 hex digits")
                    }
                    return s.lowercased()
                }
                try o.finish(allowed: ["render", "preset", "encode", "args", "output", "sha256"])
                return Entry(job: job, args: args, output: output, sha256: sha)
            }
        }
        try top.finish(allowed: ["versions", "entries"])
        return Manifest(file: file, entries: entries, versions: versions)
    }

    /// The manifest as JSON, hashes and versions included.
    public func serialized() -> String {
        let entriesJSON: [ConfigJSON] = entries.map { e in
            var members: [(String, ConfigJSON)] = []
            switch e.job {
            case .render(let c): members.append(("render", .string(c)))
            case .preset(let n): members.append(("preset", .string(n)))
            case .encode(let inputs): members.append(("encode", .array(inputs.map { .string($0) })))
            }
            if !e.args.isEmpty { members.append(("args", .array(e.args.map { .string($0) }))) }
            members.append(("output", .string(e.output)))
            if let s = e.sha256 { members.append(("sha256", .string(s))) }
            return .object(members)
        }
        return ConfigJSON.object([
            ("versions", .object(versions.map { ($0.name, .string($0.version)) })),
            ("entries", .array(entriesJSON)),
        ]).printed() + "\n"
    }

    /// `path` relative to the manifest's folder (absolute paths unchanged).
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : folder + "/" + path
    }

    /// Recorded versions that differ from the `running` ones, as
    /// `"giflib 5.2.1 → 5.2.2"` (`"libavcodec 59.37.100 → absent"` when
    /// FFmpeg is gone). A name recorded but not running, or running but not
    /// recorded (a manifest written before it was recorded), is not named.
    public func versionChanges(running: [(name: String, version: String)]) -> [String] {
        let now = Dictionary(running.map { ($0.name, $0.version) }, uniquingKeysWith: { first, _ in first })
        return versions.compactMap { v in
            guard let current = now[v.name], current != v.version else { return nil }
            return "\(v.name) \(v.version) → \(current)"
        }
    }
}
