import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// File reads with errors that say which file and why. What a path names
/// is looked at before it is opened: a regular file (or a link to one) is
/// read whole, a pipe or FIFO (`<(…)`) as a stream; folders, devices and
/// sockets are refused without being opened. No read goes past
/// ``maxBytes``: a file's size is checked before it is read, a pipe's
/// bytes as they come.
package enum FileBytes {
    /// Most bytes read from one input file or pipe: 1 GiB, far more than
    /// the largest image Throbber decodes (``ImageDecoder/maxSide``) takes.
    package static let maxBytes = 1 << 30

    /// What a path names, symbolic links followed.
    package enum Kind: Equatable {
        /// A regular file, or something else stat(2) could not tell apart.
        case file
        /// A folder.
        case folder
        /// A pipe or FIFO: read once, as a stream.
        case stream
        /// A character or block device, or a socket: never read.
        case device(String)
        /// stat(2) failed with this errno (ENOENT: it does not exist).
        case missing(Int32)
    }

    /// What `path` names, from one stat(2).
    package static func kind(_ path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing(errno) }
        return kind(st.st_mode)
    }

    static func kind(_ mode: mode_t) -> Kind {
        switch mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFIFO: return .stream
        case S_IFCHR: return .device("a character device")
        case S_IFBLK: return .device("a block device")
        case S_IFSOCK: return .device("a socket")
        default: return .file
        }
    }

    /// The error for an input that is a device or a socket.
    package static func refused(_ path: String, _ what: String) -> ThrobberError {
        ThrobberError(
            .noInput, "\(path): is \(what), not a file; give a file, or a pipe (<(…), or - for encode)")
    }

    /// What an open accepts besides a regular file.
    enum Accept {
        /// A pipe or FIFO too: an input named on the command line.
        case fileOrStream
        /// Only a pipe or FIFO.
        case stream
        /// Only a file; a pipe is refused as one of several frames.
        case frameFile
        /// Only a file: one named by another file (a config's layer, a
        /// manifest's expected file), where a FIFO would block the run.
        case regular
    }

    /// The whole file, or everything a pipe carries (up to ``maxBytes``).
    /// With `streams` false, a pipe or FIFO is refused without being
    /// opened: for files named by another file (a config's layer, a
    /// manifest's expected file), which are never streams.
    package static func read(_ path: String, streams: Bool = true) throws -> [UInt8] {
        let (fd, size) = try openChecked(path, accept: streams ? .fileOrStream : .regular)
        defer { close(fd) }
        return try readAll(fd, name: path, expected: size)
    }

    /// Opens a pipe or FIFO for reading (waiting, as cat(1) does, for a
    /// FIFO's writer). Throws when `path` is anything else.
    package static func openStream(_ path: String) throws -> Int32 {
        try openChecked(path, accept: .stream).fd
    }

    /// Opens the regular file `path` (a link to one followed) for reading
    /// at any offset, without the ``maxBytes`` cap (a video is read a
    /// packet at a time, never whole). Returns the descriptor, which the
    /// caller closes, and the file's size. A pipe, FIFO, device, socket or
    /// folder is refused without being opened.
    package static func openRegular(_ path: String) throws -> (fd: Int32, size: Int) {
        try openChecked(path, accept: .regular, capped: false)
    }

    /// Calls `body` with a reader of `path`'s bytes at any offset (at most
    /// `count` bytes; fewer at the end of the file), so headers can be
    /// walked without reading the file whole. Only regular files.
    package static func withReader<T>(
        _ path: String, _ body: (_ read: (_ offset: Int, _ count: Int) throws -> [UInt8]) throws -> T
    ) throws -> T {
        let (fd, _) = try openChecked(path, accept: .frameFile)
        defer { close(fd) }
        return try body { offset, count in
            var failure: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
                filled = 0
                while filled < count {
                    let n = pread(fd, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { failure = errno }
                    if n <= 0 { break }
                    filled += n
                }
            }
            if failure != 0 { throw readFailed(path, failure) }
            return bytes
        }
    }

    /// Opens `path` after checking what it is (`accept`). Returns the
    /// descriptor and the file's size (0 for a pipe). What was opened is
    /// checked again (fstat), so a file swapped for a device in between is
    /// refused too; a file is opened without blocking, so a FIFO swapped in
    /// cannot hang the run. `capped`: a regular file over ``maxBytes`` is
    /// refused.
    private static func openChecked(_ path: String, accept: Accept, capped: Bool = true) throws -> (
        fd: Int32, size: Int
    ) {
        let named = kind(path)
        try check(named, path: path, accept: accept)
        let flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | (named == .stream ? 0 : O_NONBLOCK)
        let fd = Glibc.open(path, flags)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw ThrobberError(.noInput, "\(path): no such file") }
            throw ThrobberError(.noInput, "\(path): cannot be opened for reading: \(String(cString: strerror(code)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw readFailed(path, code)
        }
        let opened = kind(st.st_mode)
        do {
            guard opened == named else {
                try check(opened, path: path, accept: accept)
                throw ThrobberError(.noInput, "\(path): changed while it was being opened; try again")
            }
            if capped && opened == .file && Int(st.st_size) > maxBytes { throw tooLarge(path) }
        } catch {
            close(fd)
            throw error
        }
        return (fd, opened == .file ? Int(st.st_size) : 0)
    }

    private static func check(_ kind: Kind, path: String, accept: Accept) throws {
        switch kind {
        case .missing(let code):
            if code == ENOENT || code == ENOTDIR { throw ThrobberError(.noInput, "\(path): no such file") }
            throw ThrobberError(.noInput, "\(path): cannot be read: \(String(cString: strerror(code)))")
        case .folder: throw ThrobberError(.data, "\(path): is a folder, expected an image file")
        case .device(let what): throw refused(path, what)
        case .stream where accept == .frameFile:
            throw ThrobberError(
                .usage, "\(path): is a pipe, read once as a stream of frames; give it as the only input")
        case .stream where accept == .regular:
            throw ThrobberError(.noInput, "\(path): is a pipe or FIFO, not a regular file")
        case .file where accept == .stream:
            throw ThrobberError(.usage, "\(path): is not a pipe or FIFO")
        case .file, .stream: return
        }
    }

    /// Reads to the end: `expected` bytes straight into the result (a
    /// regular file's size), then whatever more comes (a pipe, a file that
    /// grew, a /proc file whose size says 0), never past ``maxBytes``.
    private static func readAll(_ fd: Int32, name: String, expected: Int) throws -> [UInt8] {
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            count = 0
            while count < expected {
                let n = Glibc.read(fd, buffer.baseAddress! + count, expected - count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errno }
                if n <= 0 { break }
                count += n
            }
        }
        if failure != 0 { throw readFailed(name, failure) }
        try withUnsafeTemporaryAllocation(byteCount: 1 << 16, alignment: 16) { chunk in
            while true {
                let n = Glibc.read(fd, chunk.baseAddress!, chunk.count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw readFailed(name, errno) }
                if n == 0 { return }
                guard bytes.count + n <= maxBytes else { throw tooLarge(name) }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
            }
        }
        return bytes
    }

    private static func readFailed(_ path: String, _ code: Int32) -> ThrobberError {
        ThrobberError(.io, "\(path): read failed: \(String(cString: strerror(code)))")
    }

    private static func tooLarge(_ path: String) -> ThrobberError {
        ThrobberError(
            .data,
            "\(path): larger than \(maxBytes >> 30) GiB, the most Throbber reads from one input; is it the right file?")
    }
}
