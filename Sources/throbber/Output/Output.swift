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
    /// Unless `quiet`, prints the `summary` line on stderr once the file
    /// is written, terminal or not (the progress bar is drawn only on a
    /// terminal); not for an animation written to stdout, whose reader
    /// gets the bytes. `budgetLabel` (`--max-bytes 2M`) names the budget
    /// as given; without it the summary gives the budget in bytes. The
    /// body gets the bar to report progress and name its passes
    /// (``ProgressBar/pass(_:)``). `note` ends the summary line.
    static func write(
        to path: String, label: String, quiet: Bool, printHash: Bool = false, budgetLabel: String? = nil,
        note: String = "", bar body: (OutputFile, ProgressBar) throws -> EncodeReport
    ) throws {
        let bar = ProgressBar(label: label, quiet: quiet)
        let out = try OutputFile(path: path, hashing: printHash)
        do {
            let report = try body(out, bar)
            try out.commit()
            bar.finish()
            try finish(out, quiet: quiet, printHash: printHash) {
                summary(path: path, report: report, bytes: $0, budget: budgetLabel) + note
            }
        } catch {
            bar.finish()
            out.discard()
            throw error
        }
    }

    /// Writes `bytes`, made already, to `path` as ``write(to:label:quiet:printHash:budgetLabel:bar:)``
    /// writes an animation: atomically, then the hash and the summary line
    /// (`summary` gets the bytes written).
    static func write(
        _ bytes: [UInt8], to path: String, quiet: Bool, printHash: Bool, summary: (Int) -> String
    ) throws {
        let out = try OutputFile(path: path, hashing: printHash)
        do {
            try out.write(bytes)
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
        try finish(out, quiet: quiet, printHash: printHash, summary: summary)
    }

    /// Once `out` is committed: with `printHash`, "SHA256  PATH" (to
    /// stdout, or to stderr when `out` is stdout); unless `quiet` or `out`
    /// is stdout, the `summary` line on stderr.
    private static func finish(
        _ out: OutputFile, quiet: Bool, printHash: Bool, summary: (Int) -> String
    ) throws {
        if printHash, let hash = out.sha256 {
            let line = "\(hash)  \(out.path)\n"
            if out.isStandardOutput {
                StandardError.write(line)
            } else {
                try StandardOutput.write(line)
            }
        }
        if !quiet && !out.isStandardOutput {
            StandardError.write(summary(out.bytesWritten) + "\n")
        }
    }

    /// The line that says what was written: "wrote out.gif: GIF 160x120
    /// (from 320x240), 20 frames, 0.80 s, 48.2 kB (48213 bytes), global
    /// palette of 256 colors", and for a byte budget what its search chose
    /// ("; --max-bytes 50k: quality 80, lossy 40, 256 colors"), so one
    /// line of a log tells everything about one file.
    static func summary(path: String, report: EncodeReport, bytes: Int, budget: String?) -> String {
        let seconds = cFormat("%.2f", Double(report.durationCentiseconds) / 100)
        let resized =
            report.inputWidth > 0 && (report.inputWidth, report.inputHeight) != (report.width, report.height)
            ? " (from \(report.inputWidth)x\(report.inputHeight))" : ""
        let size = bytes >= 1000 ? "\(ByteSize.describe(bytes)) (\(bytes) bytes)" : "\(bytes) bytes"
        let frames = report.frames == 1 ? "1 frame" : "\(report.frames) frames"
        var line =
            "wrote \(path): \(report.format.limits.name) \(report.width)x\(report.height)\(resized), \(frames), \(seconds) s, \(size)"
        let colors = paletteText(report)
        if !colors.isEmpty { line += ", \(colors)" }
        if let choice = report.budget {
            line += "; \(budget ?? "--max-bytes \(choice.maxBytes)"): \(choice.description)"
            // A file that fits only posterized or heavily lossy says so on
            // a line of its own, which keeps the summary's settings as they are.
            if let note = choice.note { line += "\nnote: to fit, the file is \(note)" }
        }
        return line
    }

    /// How colors were stored: the encoder's words, except that a GIF
    /// written with lossy LZW is not lossless, even when its palettes hold
    /// every color ("one palette of 32 colors, lossy LZW 80"). A byte
    /// budget's choice names its own level after the line.
    static func paletteText(_ report: EncodeReport) -> String {
        let lossy = report.budget?.lossy ?? report.lossy
        guard lossy > 0 else { return report.palette }
        var text = report.palette
        let exact = "lossless, "
        if text.hasPrefix(exact) { text.removeFirst(exact.count) }
        return report.budget == nil ? text + ", lossy LZW \(lossy)" : text
    }
}
