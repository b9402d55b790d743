import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// An output written atomically: bytes go to a temporary file beside the
/// target, which replaces the target only when everything succeeded. A
/// failed run leaves no file behind and never touches an existing one.
///
/// The path `-` means standard output (so do `/dev/stdout`, `/dev/stderr`
/// and `/dev/fd/N`: their descriptor is written). A symbolic link is
/// followed and its target replaced, atomically; the link stays. A device
/// or a FIFO (`/dev/null`, a pipe) is written straight through, never
/// replaced: what was written before a failure stays written there.
public final class OutputFile: ByteSink {
    /// The target path as given; `-` is standard output.
    public let path: String
    /// True when the bytes go to standard output (`-`, `/dev/stdout`).
    public private(set) var isStandardOutput = false
    private var file: UnsafeMutablePointer<FILE>?
    private var temporaryPath: String?
    /// The file the temporary file replaces: ``path``, its links followed.
    private var target: String
    private var failed = false
    private var errnoValue: Int32 = 0
    /// How many bytes have been written so far (to the temporary file, or
    /// to standard output).
    public private(set) var bytesWritten = 0
    private var hasher: SHA256?
    /// SHA-256 of everything written, once committed, when asked for.
    public private(set) var sha256: String?

    /// Opens a temporary file beside `path` (mode 0666 less the umask), or
    /// what `path` names when it is written straight through. With
    /// `hashing`, ``sha256`` is the digest of the bytes once committed.
    ///
    /// Throws a ``ThrobberError/Kind/cannotCreate`` error when `path` is a
    /// folder, its folder does not exist, or the temporary file (or the
    /// device, the FIFO) cannot be opened.
    public init(path: String, hashing: Bool = false) throws {
        self.path = path
        target = path
        if hashing { hasher = SHA256() }
        if let descriptor = Self.descriptor(named: path) {
            // A stream of our own on a copy of the descriptor: closing it
            // leaves the descriptor open.
            let fd = dup(descriptor)
            guard fd >= 0, let stream = fdopen(fd, "wb") else {
                throw ThrobberError(.cannotCreate, "\(Self.name(path)): \(String(cString: strerror(errno)))")
            }
            (file, isStandardOutput) = (stream, descriptor == STDOUT_FILENO)
            return
        }
        let (resolved, mode) = try Self.followLinks(path)
        target = resolved
        if let mode, mode & S_IFMT != S_IFREG {
            if mode & S_IFMT == S_IFDIR {
                throw ThrobberError(.cannotCreate, "\(path): is a folder; give a file name for the output")
            }
            // A device or a FIFO (opening one waits for its reader, as the shell's > does).
            let fd = open(resolved, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0, let stream = fdopen(fd, "wb") else {
                throw ThrobberError(.cannotCreate, "\(path): cannot write: \(String(cString: strerror(errno)))")
            }
            file = stream
            return
        }
        let slash = resolved.lastIndex(of: "/")
        let dir = slash.map { $0 == resolved.startIndex ? "/" : String(resolved[..<$0]) } ?? "."
        let name = slash.map { String(resolved[resolved.index(after: $0)...]) } ?? resolved
        var st = stat()
        guard stat(dir, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw ThrobberError(.cannotCreate, "\(path): cannot create output: folder \(dir) does not exist")
        }
        let (fd, temporary) = try Self.temporaryFile(in: dir, for: name, named: path)
        temporaryPath = temporary
        file = fdopen(fd, "wb")
    }

    /// A new temporary file `.NAME.throbber-XXXXXX` in `folder`, registered
    /// with ``TemporaryPaths`` (so a signal removes it), with the mode of a
    /// new file (0666 less the umask, where mkstemp gives 0600). Returns its
    /// descriptor and path; throws ``ThrobberError/Kind/cannotCreate``
    /// naming `shown` when it cannot be made.
    package static func temporaryFile(in folder: String, for name: String, named shown: String) throws
        -> (fd: Int32, path: String)
    {
        var template = Array((folder + "/." + name + ".throbber-XXXXXX").utf8CString)
        var fd: Int32 = -1
        let made = TemporaryPaths.creating {
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            return fd >= 0 ? template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : nil
        }
        guard let made else {
            throw ThrobberError(.cannotCreate, "\(shown): cannot create output: \(String(cString: strerror(errno)))")
        }
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        return (fd, made)
    }

    /// The descriptor that `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`
    /// or `/proc/self/fd/N` stand for; nil for any other path.
    private static func descriptor(named path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// How messages call the output.
    private static func name(_ path: String) -> String {
        descriptor(named: path) == STDOUT_FILENO ? "standard output" : path
    }

    /// `path` with its symbolic links followed (a relative link from its
    /// own folder), and the mode of what is there (nil: nothing yet).
    /// Throws ``ThrobberError/Kind/cannotCreate`` for a link that cannot
    /// be read or a loop of links.
    package static func followLinks(_ path: String) throws -> (String, mode_t?) {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(current, &st) == 0 else { return (current, nil) }
            guard st.st_mode & S_IFMT == S_IFLNK else { return (current, st.st_mode) }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
            let n = buffer.withUnsafeMutableBufferPointer { readlink(current, $0.baseAddress!, $0.count) }
            guard n > 0 else {
                throw ThrobberError(.cannotCreate, "\(path): cannot create output: \(String(cString: strerror(errno)))")
            }
            let link = String(decoding: buffer[0..<n], as: UTF8.self)
            let slash = current.lastIndex(of: "/")
            current = link.hasPrefix("/") || slash == nil ? link : String(current[...slash!]) + link
        }
        throw ThrobberError(.cannotCreate, "\(path): cannot create output: \(String(cString: strerror(ELOOP)))")
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

    /// Why writing failed, naming the file; nil while every write succeeded.
    package var failure: ThrobberError? { failed ? writeError() : nil }

    private func writeError() -> ThrobberError {
        let why = errnoValue != 0 ? String(cString: strerror(errnoValue)) : "write failed"
        return ThrobberError(.io, "\(Self.name(path)): \(why)")
    }

    /// Flushes, syncs to disk and renames the temporary file to ``path``
    /// (its target when it is a symbolic link), replacing a file there; when
    /// written straight through, flushes and closes. Does nothing when
    /// called again or after ``discard()``.
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
        guard let temporaryPath else {  // written straight through
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
        var failure: Int32 = 0
        TemporaryPaths.finishing(temporaryPath) {
            if rename(temporaryPath, target) != 0 {
                failure = errno
                unlink(temporaryPath)
            }
        }
        self.temporaryPath = nil
        if failure != 0 {
            throw ThrobberError(.cannotCreate, "\(path): cannot create output: \(String(cString: strerror(failure)))")
        }
    }

    /// Throws the partial output away: closes and deletes the temporary
    /// file, leaving ``path`` as it was (written straight through: only
    /// closes). Safe to call more than once; also called when an
    /// uncommitted `OutputFile` is released.
    public func discard() {
        if let f = file { fclose(f) }
        file = nil
        if let temporaryPath { TemporaryPaths.finishing(temporaryPath) { _ = unlink(temporaryPath) } }
        temporaryPath = nil
    }
}
