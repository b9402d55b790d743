import FoundationEssentials
import Glibc
import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// An anonymous temporary file that holds a stream's frames while they are
/// encoded: created with mkstemp(3) in `TMPDIR` (or /tmp) and unlinked at
/// once, so nothing is left behind whatever ends the process (an error, a
/// signal, a crash); the space is freed when the descriptor is closed.
/// Appends happen while the stream is read, on one thread; once the stream
/// is read, frames are read back with pread(2), from any thread.
final class SpoolFile: Sendable {
    private let fd: Int32
    /// What errors call the stream ("standard input").
    let name: String

    /// Creates and unlinks the file. Throws ``ThrobberError/Kind/cannotCreate``
    /// when the temporary folder does not allow it.
    init(name: String) throws {
        self.name = name
        let env = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
        let folder = env ?? "/tmp"
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast())
        template += Array("throbber-stream-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else {
            let why = String(cString: strerror(errno))
            throw ThrobberError(
                .cannotCreate,
                "\(name): cannot make a temporary file in \(folder) to hold the frames: \(why); set TMPDIR")
        }
        unlink(template)
        self.fd = fd
    }

    deinit { close(fd) }

    /// Writes `bytes` at `offset` (the end of what was written so far).
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = String(cString: strerror(errno))
                throw ThrobberError(.io, "\(name): cannot keep the frames in a temporary file: \(why); set TMPDIR")
            }
            done += n
        }
    }

    /// `count` bytes from `offset`.
    func read(_ count: Int, at offset: Int) throws -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    failure = n == 0 ? EIO : errno
                    break
                }
                done += n
            }
            initialized = done
        }
        guard failure == 0 else {
            let why = String(cString: strerror(failure))
            throw ThrobberError(.io, "\(name): cannot read the frames back from the temporary file: \(why)")
        }
        return bytes
    }
}
