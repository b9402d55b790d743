#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
final class ProgressBar {
    private let label: String
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
        fputs("\r\(label) \(bar) \(percent)% (\(done)/\(total) frames)", stderr)
        drew = true
    }

    /// Erases the bar.
    func finish() {
        guard drew else { return }
        fputs("\r\u{1B}[2K", stderr)
        drew = false
    }
}
