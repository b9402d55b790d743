import ThrobberKit

#if canImport(Glibc)
    import Glibc
#endif

/// Text for standard output, every write checked: a write that fails (a
/// full disk, a pipe whose reader has gone) is an I/O error naming standard
/// output and saying why, never a silent exit 0. Text goes to the
/// descriptor unbuffered, so each failure is seen by the write that made it.
enum StandardOutput {
    /// Writes `text` to standard output. Throws ``ThrobberError/Kind/io``
    /// ("standard output: No space left on device") when it fails.
    static func write(_ text: String) throws {
        var text = text
        let failure = text.withUTF8 { bytes -> Int32 in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return n < 0 ? errno : EIO }
                done += n
            }
            return 0
        }
        if failure != 0 {
            throw ThrobberError(.io, "standard output: \(String(cString: strerror(failure)))")
        }
    }
}
