import FoundationEssentials
import Glibc
import ThrobberKit

/// Keeps `check` inside its manifest's folder: every path an entry names
/// (its config, its inputs, its output, file options like `--ring`) must resolve, symbolic links
/// followed, to a place inside the folder, so a manifest from elsewhere
/// cannot make `check` read or write outside it (unless `--allow-outside`).
struct CheckPaths {
    /// The manifest's folder, symbolic links resolved.
    let root: String

    init(_ manifest: Manifest) {
        root = CheckPaths.real(manifest.folder)
    }

    /// Throws ``ThrobberError/Kind/data`` naming the manifest and the entry's
    /// JSON path for the first path of an entry that leads outside.
    func check(_ manifest: Manifest) throws {
        for (i, entry) in manifest.entries.enumerated() {
            var named: [(key: String, path: String)] = []
            let spec: CommandSpec
            switch entry.job {
            case .render(let config):
                named.append(("render", config))
                spec = RenderCommand.spec
            case .preset: spec = PresetCommand.spec
            case .encode(let inputs):
                named += inputs.enumerated().map { ("encode[\($0)]", $1) }
                spec = EncodeCommand.spec
            }
            named.append(("output", entry.output))
            // Options whose values are files or folders (--ring, --icon, …);
            // arguments that do not parse fail when the entry is made.
            if let args = try? Arguments(entry.args, spec: spec) {
                for o in spec.options where o.value != nil && [.files, .folders].contains(o.completion) {
                    named += (args.values[o.long] ?? []).filter { $0 != "-" }.map { ("args --\(o.long)", $0) }
                }
            }
            for (key, path) in named where !contains(manifest.resolve(path)) {
                throw ThrobberError(
                    .data,
                    "\(manifest.file): entries[\(i)].\(key): \(CheckReport.printable(path)) leads outside the manifest's folder (\(CheckReport.printable(root))); give --allow-outside to allow it"
                )
            }
        }
    }

    /// Whether `path` is the root or inside it.
    func contains(_ path: String) -> Bool {
        let p = CheckPaths.real(path)
        return p == root || p.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `path` made absolute with `.`, `..` and symbolic links resolved as
    /// far as it exists; the rest (a file still to be written) appended.
    static func real(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = absolute
        var rest: [String] = []
        while true {
            if let r = realpath(existing, nil) {
                defer { free(r) }
                var result = String(cString: r)
                for part in rest.reversed() {
                    switch part {
                    case "", ".": continue
                    case "..": result = PathText.parent(result)
                    default: result = result == "/" ? "/" + part : result + "/" + part
                    }
                }
                return result
            }
            let parent = PathText.parent(existing)
            if parent == existing || parent.isEmpty { return absolute }
            rest.append(PathText.lastComponent(existing))
            existing = parent
        }
    }
}
