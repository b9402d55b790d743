import Glibc

/// Writes to the process's standard error: whole, retried when a signal
/// interrupts, and silent when nobody reads it any more.
package enum StandardError {
    package static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + done, $0.count - done) }
            if n > 0 {
                done += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
