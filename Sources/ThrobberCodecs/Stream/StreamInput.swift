import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// Buffered reads from a file descriptor that cannot seek (a pipe), with
/// errors naming the stream. Only the bytes not yet consumed are kept.
struct StreamInput {
    let fd: Int32
    let name: String
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes consumed so far, for messages.
    private(set) var consumed = 0
    private var ended = false

    init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
    }

    /// Bytes read but not yet consumed.
    var available: Int { buffer.count - start }

    /// Reads until `count` bytes are available or the stream ends; returns
    /// whether they are.
    mutating func fill(_ count: Int) throws -> Bool {
        while available < count && !ended {
            if start > 0 && start >= buffer.count / 2 {
                buffer.removeFirst(start)
                start = 0
            }
            let want = max(count - available, 1 << 20)
            let old = buffer.count
            var failure: Int32 = 0
            buffer.append(contentsOf: repeatElement(0, count: want))
            let n = buffer.withUnsafeMutableBytes { raw -> Int in
                while true {
                    let n = Glibc.read(fd, raw.baseAddress! + old, want)
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { failure = errno }
                    return n
                }
            }
            buffer.removeLast(want - max(n, 0))
            if n < 0 {
                throw ThrobberError(.io, "\(name): read failed: \(String(cString: strerror(failure)))")
            }
            if n == 0 { ended = true }
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
