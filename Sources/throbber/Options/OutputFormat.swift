import FoundationEssentials
import Glibc
import ThrobberKit

/// Output formats, chosen by --format or the file extension.
enum OutputFormat {
    /// `--format` if given, else the extension (each format names its own);
    /// standard output, and a device or FIFO without an extension
    /// (`/dev/null`, `/dev/stdout`, `/dev/fd/N`), default to GIF. An output
    /// that names no file is refused first (``checkFileName(_:)``); so is a
    /// vector format, which only configs and presets are written in.
    static func resolve(output: String, format: String?) throws -> AnimationFormat {
        switch try resolve(output, format: format, vector: false) {
        case .raster(let f): return f
        case .vector(let v):
            throw ThrobberError(
                .usage,
                "\(output): \(v.name) is made from configs and presets, not from frames: 'throbber render CONFIG.json -o \(output)' or 'throbber preset NAME -o \(output)'; encode writes GIF, APNG or WebP"
            )
        }
    }

    /// As ``resolve(output:format:)``, for a config's scene, which may also
    /// be written as a vector file (`.json` Lottie, `.lottie` dotLottie, `.svg`).
    static func resolveScene(output: String, format: String?) throws -> SceneFormat {
        try resolve(output, format: format, vector: true)
    }

    /// The format `--format` or the extension names; the vector formats are
    /// named in choices and messages only when `vector` (they are taken
    /// either way, for the caller to refuse by name).
    private static func resolve(_ output: String, format: String?, vector: Bool) throws -> SceneFormat {
        try checkFileName(output)
        let vectors = vector ? VectorFormat.allCases : []
        let names = AnimationFormat.allCases.map(\.rawValue) + vectors.map(\.rawValue)
        if let format {
            if let f = AnimationFormat(rawValue: format) { return .raster(f) }
            if let v = VectorFormat(rawValue: format) { return .vector(v) }
            throw Arguments.badChoice("format", format, among: names)
        }
        if output == "-" { return .raster(.gif) }
        let ext = PathText.pathExtension(output)
        if ext.isEmpty && isStreamLike(output) { return .raster(.gif) }
        if let f = AnimationFormat(fileExtension: ext) { return .raster(f) }
        if let v = VectorFormat(fileExtension: ext) { return .vector(v) }
        let known = (AnimationFormat.allCases.flatMap(\.fileExtensions) + vectors.flatMap(\.fileExtensions)).map {
            "." + $0
        }
        throw ThrobberError(
            .usage,
            "\(output): cannot tell the format from the extension '.\(ext.lowercased())'; name the file \(known.dropLast().joined(separator: ", ")) or \(known.last ?? ""), or pass --format \(names.joined(separator: "|"))"
        )
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
