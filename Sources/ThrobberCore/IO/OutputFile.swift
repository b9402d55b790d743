import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An output written atomically: bytes go to a temporary file beside the
/// target, which replaces the target only when everything succeeded. A
/// failed run leaves no file behind and never touches an existing one.
/// The path `-` means standard output.
public final class OutputFile: ByteSink {
    /// The target path as given; `-` is standard output.
    public let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var temporaryPath: String?
    private var failed = false
    private var errnoValue: Int32 = 0
    /// How many bytes have been written so far (to the temporary file, or
    /// to standard output).
    public private(set) var bytesWritten = 0
    private var hasher: SHA256?
    /// SHA-256 of everything written, once committed, when asked for.
    public private(set) var sha256: String?

    /// Opens a temporary file beside `path` (mode 0666 less the umask), or
    /// standard output for `-`. With `hashing`, ``sha256`` is the digest of
    /// the bytes once committed.
    ///
    /// Throws a ``ThrobberError/Kind/cannotCreate`` error when `path` is a
    /// folder, its folder does not exist, or the temporary file cannot be
    /// made there.
    public init(path: String, hashing: Bool = false) throws {
        self.path = path
        if hashing { hasher = SHA256() }
        if path == "-" {
            // A stream of our own on a copy of the descriptor: closing it
            // leaves standard output open.
            let fd = dup(STDOUT_FILENO)
            guard fd >= 0, let stream = fdopen(fd, "wb") else {
                throw ThrobberError(.cannotCreate, "standard output: \(String(cString: strerror(errno)))")
            }
            file = stream
            return
        }
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw ThrobberError(.cannotCreate, "\(path): is a folder; give a file name for the output")
        }
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw ThrobberError(.cannotCreate, "\(path): cannot create output: folder \(dir) does not exist")
        }
        var template = Array((dir + "/." + url.lastPathComponent + ".throbber-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ThrobberError(.cannotCreate, "\(path): cannot create output: \(String(cString: strerror(errno)))")
        }
        // mkstemp makes the file 0600; give it the usual 0666 & ~umask.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        file = fdopen(fd, "wb")
    }

    deinit { discard() }

    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let file, !failed else { return false }
        if bytes.isEmpty { return true }
        if fwrite(bytes.baseAddress, 1, bytes.count, file) != bytes.count {
            failed = true
            errnoValue = errno
            return false
        }
        bytesWritten += bytes.count
        hasher?.update(bytes)
        return true
    }

    /// Appends `bytes`. Throws a ``ThrobberError/Kind/io`` error naming
    /// the file (or "standard output") when the write fails; once one has
    /// failed, every later write and ``commit()`` fail too.
    public func write(_ bytes: [UInt8]) throws {
        let ok = bytes.withUnsafeBytes { write($0) }
        if !ok { throw writeError() }
    }

    private func writeError() -> ThrobberError {
        let why = errnoValue != 0 ? String(cString: strerror(errnoValue)) : "write failed"
        return ThrobberError(.io, "\(path == "-" ? "standard output" : path): \(why)")
    }

    /// Flushes, syncs to disk and renames the temporary file to ``path``,
    /// replacing a file there (for `-`: flushes and closes standard output).
    /// Does nothing when called again or after ``discard()``.
    ///
    /// Throws ``ThrobberError/Kind/io`` when the data cannot be flushed or
    /// synced, ``ThrobberError/Kind/cannotCreate`` when the rename fails;
    /// either way the temporary file is deleted and ``path`` is untouched.
    public func commit() throws {
        guard let f = file else { return }
        sha256 = hasher?.finalizeHex()
        if fflush(f) != 0 {
            failed = true
            errnoValue = errno
        }
        if failed {
            discard()
            throw writeError()
        }
        guard let temporaryPath else {  // stdout
            file = nil
            if fclose(f) != 0 {
                errnoValue = errno
                throw writeError()
            }
            return
        }
        if fsync(fileno(f)) != 0 || fclose(f) != 0 {
            errnoValue = errno
            file = nil
            discard()
            throw writeError()
        }
        file = nil
        if rename(temporaryPath, path) != 0 {
            let why = String(cString: strerror(errno))
            discard()
            throw ThrobberError(.cannotCreate, "\(path): cannot create output: \(why)")
        }
        self.temporaryPath = nil
    }

    /// Throws the partial output away: closes and deletes the temporary
    /// file, leaving ``path`` as it was. Safe to call more than once; also
    /// called when an uncommitted `OutputFile` is released.
    public func discard() {
        if let f = file { fclose(f) }
        file = nil
        if let temporaryPath { unlink(temporaryPath) }
        temporaryPath = nil
    }
}
