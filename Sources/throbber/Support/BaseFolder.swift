/// The folder that relative paths on a command line are relative to: the
/// working folder for a command typed in a shell, the manifest's folder for
/// an entry that `check` makes. Nothing changes the process's working folder.
struct BaseFolder: Sendable {
    /// nil: the working folder, paths stay as given.
    let path: String?

    static let working = BaseFolder(path: nil)

    static func folder(_ path: String) -> BaseFolder { BaseFolder(path: path) }

    /// `relative` against this folder; absolute paths and `-` (standard
    /// input or output) unchanged.
    func resolve(_ relative: String) -> String {
        guard let path, !relative.hasPrefix("/"), relative != "-", path != "." else { return relative }
        return path.hasSuffix("/") ? path + relative : path + "/" + relative
    }
}
