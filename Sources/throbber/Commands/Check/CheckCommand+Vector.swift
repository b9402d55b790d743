import FoundationEssentials
import ThrobberKit

/// Mismatches of vector outputs (Lottie, dotLottie, SVG): they have no frames to
/// decode and compare, so they are compared as bytes.
extension CheckCommand {
    /// The vector format a render or preset entry writes, from its
    /// `--format` or its output's extension; nil for frames.
    static func vectorFormat(_ entry: Manifest.Entry) -> VectorFormat? {
        if case .encode = entry.job { return nil }
        if let i = entry.args.lastIndex(of: "--format"), i + 1 < entry.args.count {
            return VectorFormat(rawValue: entry.args[i + 1])
        }
        if let given = entry.args.last(where: { $0.hasPrefix("--format=") }) {
            return VectorFormat(rawValue: String(given.dropFirst("--format=".count)))
        }
        return VectorFormat(fileExtension: PathText.pathExtension(entry.output))
    }

    /// Explains a mismatch of a vector file: the expected file's own hash
    /// and the first byte that differs; with `diffDir`, the expected and the
    /// new file side by side there, for a text diff.
    static func explainBytes(
        _ format: VectorFormat, entry: Manifest.Entry, expected: String, made: String, paths: CheckPaths,
        diffDir: String?
    ) -> [String] {
        do {
            // Named by the manifest, so never a pipe: a FIFO would block the run.
            let old = try FileBytes.read(expected, streams: false)
            let new = try FileBytes.read(made, streams: false)
            let common = min(old.count, new.count)
            let first = (0..<common).first { old[$0] != new[$0] } ?? common
            let line =
                old == new
                ? "the expected file \(CheckReport.printable(expected)) has the new bytes: only the recorded sha256 differs"
                : "\(format.name) has no frames to compare: the expected file \(CheckReport.printable(expected)) (sha256 \(SHA256.hex(old)), \(old.count) bytes) and the new one (\(new.count) bytes) differ from byte \(first + 1)"
            guard let diffDir else { return [line] }
            do {
                return [line, try writeBoth(format, entry: entry, old: old, new: new, paths: paths, diffDir: diffDir)]
            } catch {
                let e = error as? ThrobberError ?? ForeignError.converted(error)
                return [line, "cannot write the files to compare: \(e.message)"]
            }
        } catch {
            let e = error as? ThrobberError ?? ForeignError.converted(error)
            return ["cannot compare bytes: \(e.message)"]
        }
    }

    /// Writes the expected and the new file into `diffDir`, named after the
    /// entry's output, unless one would replace a file an entry names or
    /// something not a regular file; the line that says which.
    private static func writeBoth(
        _ format: VectorFormat, entry: Manifest.Entry, old: [UInt8], new: [UInt8], paths: CheckPaths,
        diffDir: String
    ) throws -> String {
        let stem = diffDir + "/" + entry.output.replacing("/", with: "_")
        let ext = format.fileExtensions[0]
        let files = [("expected", old), ("actual", new)].map { ("\(stem)-\($0.0).\(ext)", $0.1) }
        for (file, _) in files {
            if let what = try blocked(file, paths: paths) {
                return "not writing the files to compare: \(CheckReport.printable(file)) is \(what)"
            }
        }
        for (file, bytes) in files {
            let out = try OutputFile(path: file)
            try out.write(bytes)
            try out.commit()
        }
        return "wrote \(CheckReport.printable(stem))-{expected,actual}.\(ext)"
    }
}
