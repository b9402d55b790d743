import ThrobberKit

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
/// Multi-pass work names each pass after the label (`pass`), so a bar that
/// starts again from 0 % says why.
final class ProgressBar {
    private let label: String
    /// The pass under way, shown after the label; nil for single-pass work.
    private var passText: String?
    private let enabled: Bool
    private var lastDrawn = -1
    private var drew = false

    init(label: String, quiet: Bool) {
        self.label = label
        enabled = !quiet && isatty(2) == 1
    }

    func update(_ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = done * width / total
        let percent = done * 100 / total
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let pass = passText.map { ", \($0)" } ?? ""
        draw("\r\(label)\(pass) \(bar) \(percent)% (\(done)/\(total) frames)")
        drew = true
    }

    /// Starts a new pass: "encoding, budget pass 2 of ≤5: 32 colors, …"
    /// from 0 %, the line before erased (the label's length changes).
    func pass(_ pass: EncodePass) {
        passText = pass.description
        lastDrawn = -1
        if drew { draw("\r\u{1B}[2K") }
    }

    /// Erases the bar.
    func finish() {
        guard drew else { return }
        draw("\r\u{1B}[2K")
        drew = false
    }

    /// Writes to the standard error descriptor directly (unbuffered, like stderr).
    private func draw(_ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + done, $0.count - done) }
            if n <= 0 { return }
            done += n
        }
    }
}
