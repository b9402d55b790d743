import FoundationEssentials
import Glibc
import ThrobberKit

/// Output formats, chosen by --format or the file extension.
enum OutputFormat {
    /// `--format` if given, else the extension (each format names its own);
    /// standard output, and a device or FIFO without an extension
    /// (`/dev/null`, `/dev/stdout`, `/dev/fd/N`), default to GIF.
    static func resolve(output: String, format: String?) throws -> AnimationFormat {
        let names = AnimationFormat.allCases.map(\.rawValue)
        if let format {
            guard let f = AnimationFormat(rawValue: format) else {
                throw ThrobberError(
                    .usage, "--format must be \(names.map { "'\($0)'" }.joined(separator: " or ")), got '\(format)'")
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

    /// Whether `output` is written straight through rather than replaced:
    /// under /dev or /proc/self/fd, or a device or FIFO (links followed).
    private static func isStreamLike(_ output: String) -> Bool {
        if output.hasPrefix("/dev/") || output.hasPrefix("/proc/self/fd/") { return true }
        var st = stat()
        guard stat(output, &st) == 0 else { return false }
        return [S_IFCHR, S_IFBLK, S_IFIFO].contains(st.st_mode & S_IFMT)
    }

    static func compression(_ args: Arguments) throws -> EncodeSettings.Compression {
        guard let text = args.string("compression") else { return .best }
        guard let effort = EncodeSettings.Compression(rawValue: text) else {
            let names = EncodeSettings.Compression.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")
            throw ThrobberError(.usage, "--compression must be \(names), got '\(text)'")
        }
        return effort
    }
}
