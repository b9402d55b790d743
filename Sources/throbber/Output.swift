import FoundationEssentials
import Glibc
import ThrobberKit

/// Writing one output file with a progress bar and a summary line.
enum Output {
    /// Makes `path` a folder (with its parents) unless it is one already.
    static func makeFolder(_ path: String) throws {
        var isDir = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir else { throw ThrobberError(.cannotCreate, "\(path): exists and is not a folder") }
            return
        }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw ThrobberError(.cannotCreate, "\(path): cannot create the folder")
        }
    }

    /// With `printHash`, prints "SHA256  PATH" when done (to stdout, or to
    /// stderr when the animation itself went to stdout: `-`, /dev/stdout).
    /// With `budgetLabel` (`--max-bytes 2M`), says what the byte-budget
    /// search chose, unless `quiet`.
    static func write(
        to path: String, label: String, quiet: Bool, printHash: Bool = false, budgetLabel: String? = nil,
        _ body: (OutputFile, @escaping (Int, Int) -> Void) throws -> EncodeReport
    ) throws {
        let bar = ProgressBar(label: label, quiet: quiet)
        let out = try OutputFile(path: path, hashing: printHash)
        do {
            let report = try body(out, bar.update)
            try out.commit()
            bar.finish()
            if !quiet, let budgetLabel, let choice = report.budget {
                StandardError.write("\(budgetLabel): \(ByteSize.describe(choice.bytes)) at \(choice.description)\n")
            }
            if printHash, let hash = out.sha256 {
                let line = "\(hash)  \(path)\n"
                if out.isStandardOutput {
                    StandardError.write(line)
                } else {
                    try StandardOutput.write(line)
                }
            }
            if !quiet && isatty(2) == 1 && !out.isStandardOutput {
                let seconds = cFormat("%.2f", Double(report.durationCentiseconds) / 100)
                let resized =
                    report.inputWidth > 0 && (report.inputWidth, report.inputHeight) != (report.width, report.height)
                    ? " (from \(report.inputWidth)x\(report.inputHeight))" : ""
                StandardError.write(
                    "wrote \(path): \(report.width)x\(report.height)\(resized), \(report.frames) frames, \(seconds) s, \(out.bytesWritten) bytes (\(report.palette))\n"
                )
            }
        } catch {
            bar.finish()
            out.discard()
            throw error
        }
    }
}
