import ThrobberKit

/// The entries `check MANIFEST --update ENTRY…` records, found by name.
/// A name matches an entry, tried in this order, when it is:
///
/// 1. the entry's `output` exactly as the manifest writes it (`presets/ring.gif`);
/// 2. the path of that output from the current folder, links followed
///    (`pins/presets/ring.gif` from the manifest's parent folder), so a
///    shell can complete it;
/// 3. the output's file name alone (`ring.gif`), when only one entry's
///    output has that name.
///
/// Any name that matches no entry, or a file name several outputs share,
/// is a ``ThrobberError/Kind/usage`` error (exit 64) given before anything
/// is made or written: it lists the outputs the manifest has.
enum CheckSelection {
    /// The indexes of the entries `names` match in `paths.manifest`
    /// (`paths` resolves each entry's output), each once.
    static func entries(_ names: [String], paths: CheckPaths) throws -> Set<Int> {
        let manifest = paths.manifest
        let outputs = paths.named.filter { $0.role == .output }
        var selected = Set<Int>()
        var unknown: [String] = []
        for name in names {
            if let i = manifest.entries.firstIndex(where: { $0.output == name }) {
                selected.insert(i)
                continue
            }
            let resolved = (try? CheckPaths.resolve(name))?.path
            if let hit = outputs.first(where: { $0.resolved == resolved }) {
                selected.insert(hit.entry)
                continue
            }
            let sameName = manifest.entries.indices.filter {
                !name.contains("/") && PathText.lastComponent(manifest.entries[$0].output) == name
            }
            if sameName.count > 1 {
                let list = sameName.map { CheckReport.printable(manifest.entries[$0].output) }
                throw ThrobberError(
                    .usage,
                    "\(manifest.file): '\(CheckReport.printable(name))' is the file name of \(sameName.count) outputs (\(list.joined(separator: ", "))); give the whole output"
                )
            }
            if let only = sameName.first {
                selected.insert(only)
            } else {
                unknown.append(name)
            }
        }
        guard unknown.isEmpty else { throw unknownError(unknown, manifest: manifest) }
        return selected
    }

    /// The error for names that match no entry: each name, the nearest
    /// output when one is close, and every output the manifest has.
    private static func unknownError(_ names: [String], manifest: Manifest) -> ThrobberError {
        let outputs = manifest.entries.map(\.output)
        let quoted = names.map { "'\(CheckReport.printable($0))'" }
        let what =
            quoted.count == 1
            ? "no entry has the output \(quoted[0])" : "no entries have the outputs \(quoted.joined(separator: ", "))"
        let hint = names.count == 1 ? Suggestion.didYouMean(names[0], among: outputs) : ""
        let list =
            outputs.isEmpty
            ? "it has no entries" : "its outputs are " + outputs.map(CheckReport.printable).joined(separator: ", ")
        return ThrobberError(.usage, "\(manifest.file): \(what)\(hint); \(list)")
    }
}
