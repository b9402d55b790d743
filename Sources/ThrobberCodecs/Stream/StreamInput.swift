import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// Buffered reads from a file descriptor that cannot seek (a pipe), with
/// errors naming the stream. Only the bytes not yet consumed are kept, in a
/// buffer as large as the largest single request (at least 1 MiB).
struct StreamInput {
    let fd: Int32
    let name: String
    /// Bytes `start..<end` are read and not yet consumed; the rest is room
    /// for reads, so reading never clears or reallocates memory unless a
    /// single request is larger than the room.
    private var buffer: [UInt8] = []
    private var start = 0
    private var end = 0
    /// Bytes consumed so far, for messages.
    private(set) var consumed = 0
    private var ended = false

    init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
    }

    /// Bytes read but not yet consumed.
    var available: Int { end - start }

    /// Reads until `count` bytes are available or the stream ends; returns
    /// whether they are.
    mutating func fill(_ count: Int) throws -> Bool {
        while available < count && !ended {
            if buffer.count - start < count || end == buffer.count {
                // Move what is left to the front, and grow when one request needs it.
                let kept = available
                if start > 0 {
                    buffer.withUnsafeMutableBytes { raw in
                        _ = memmove(raw.baseAddress!, raw.baseAddress! + start, kept)
                    }
                    (start, end) = (0, kept)
                }
                let room = max(count, 1 << 20)
                if buffer.count < room { buffer += repeatElement(0, count: room - buffer.count) }
            }
            var failure: Int32 = 0
            let n = buffer.withUnsafeMutableBytes { raw -> Int in
                while true {
                    let n = Glibc.read(fd, raw.baseAddress! + end, raw.count - end)
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { failure = errno }
                    return n
                }
            }
            if n < 0 {
                throw ThrobberError(.io, "\(name): read failed: \(String(cString: strerror(failure)))")
            }
            if n == 0 { ended = true }
            end += n
        }
        return available >= count
    }

    /// The next `count` available bytes, without consuming them.
    func peek(_ count: Int) -> ArraySlice<UInt8> {
        buffer[start..<start + min(count, available)]
    }

    /// Consumes `count` available bytes and returns them.
    mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let bytes = peek(count)
        start += bytes.count
        consumed += bytes.count
        return bytes
    }

    /// True when nothing is left: every byte consumed and the stream ended.
    mutating func atEnd() throws -> Bool { try !fill(1) }

    /// Consumes a line ending in "\n" of at most `limit` bytes and returns
    /// it without the newline; nil when the stream ends first or no newline
    /// comes within `limit` bytes.
    mutating func line(limit: Int) throws -> [UInt8]? {
        var scanned = 0
        while true {
            if let i = peek(limit).dropFirst(scanned).firstIndex(of: 0x0A) {
                let line = Array(take(i - start + 1).dropLast())
                return line
            }
            scanned = min(available, limit)
            guard scanned < limit, try fill(available + 1) else { return nil }
        }
    }
}
