import FoundationEssentials
import Glibc
import ThrobberKit

/// Output formats, chosen by --format or the file extension.
enum OutputFormat {
    /// `--format` if given, else the extension (each format names its own);
    /// standard output, and a device or FIFO without an extension
    /// (`/dev/null`, `/dev/stdout`, `/dev/fd/N`), default to GIF. An output
    /// that names no file is refused first (``checkFileName(_:)``).
    static func resolve(output: String, format: String?) throws -> AnimationFormat {
        try checkFileName(output)
        let names = AnimationFormat.allCases.map(\.rawValue)
        if let format {
            guard let f = AnimationFormat(rawValue: format) else {
                throw Arguments.badChoice("format", format, among: names)
            }
            return f
        }
        if output == "-" { return .gif }
        let ext = PathText.pathExtension(output)
        if ext.isEmpty && isStreamLike(output) { return .gif }
        guard let f = AnimationFormat(fileExtension: ext) else {
            let known = AnimationFormat.allCases.flatMap(\.fileExtensions).map { "." + $0 }
            throw ThrobberError(
                .usage,
                "\(output): cannot tell the format from the extension '.\(ext.lowercased())'; name the file \(known.dropLast().joined(separator: ", ")) or \(known.last ?? ""), or pass --format \(names.joined(separator: "|"))"
            )
        }
        return f
    }

    /// Refuses an output that names no file: an empty name (a usage error),
    /// a folder, links followed (cannot create, as ``OutputFile`` says it),
    /// or a name ending in `/` that is no folder (a usage error).
    static func checkFileName(_ output: String) throws {
        guard !output.isEmpty else { throw ThrobberError(.usage, "-o needs a file name, like -o out.gif") }
        var st = stat()
        let isFolder = stat(output, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
        guard isFolder || output.hasSuffix("/") else { return }
        let example = (output.hasSuffix("/") ? output : output + "/") + "out.gif"
        throw ThrobberError(
            isFolder ? .cannotCreate : .usage,
            "\(output): \(isFolder ? "is a folder" : "names a folder (it ends in /)"); give a file name for the output, like \(example)"
        )
    }

    /// Whether `output` is written straight through rather than replaced:
    /// under /dev or /proc/self/fd, or a device or FIFO (links followed).
    private static func isStreamLike(_ output: String) -> Bool {
        if output.hasPrefix("/dev/") || output.hasPrefix("/proc/self/fd/") { return true }
        var st = stat()
        guard stat(output, &st) == 0 else { return false }
        return [S_IFCHR, S_IFBLK, S_IFIFO].contains(st.st_mode & S_IFMT)
    }

    static func compression(_ args: Arguments) throws -> EncodeSettings.Compression {
        try args.choice("compression", of: EncodeSettings.Compression.self) ?? .best
    }
}
