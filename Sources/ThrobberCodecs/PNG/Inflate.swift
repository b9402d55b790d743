internal import CZlib
import ThrobberCore

/// zlib inflate into a buffer of known size: PNG image data, raw or wrapped.
enum Inflate {
    /// Inflates `input` (zlib-wrapped, or raw deflate when `raw`) into exactly
    /// `expected` bytes; more or less data is an error.
    static func exact(_ input: [UInt8], expected: Int, raw: Bool, name: String) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: expected)
        var stream = z_stream()
        let initStatus = raw ? throbber_inflate_init_raw(&stream) : throbber_inflate_init(&stream)
        guard initStatus == Z_OK else { throw ThrobberError(.software, "\(name): zlib inflateInit failed") }
        defer { inflateEnd(&stream) }
        var status: Int32 = Z_OK
        var extra: UInt8 = 0
        input.withUnsafeBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                stream.avail_in = UInt32(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = UInt32(outBuf.count)
                status = inflate(&stream, Z_FINISH)
                if status == Z_BUF_ERROR && stream.avail_out == 0 && stream.avail_in > 0 {
                    // Is there more data than the image needs?
                    withUnsafeMutablePointer(to: &extra) { p in
                        stream.next_out = p
                        stream.avail_out = 1
                        status = inflate(&stream, Z_FINISH)
                    }
                }
            }
        }
        if status == Z_STREAM_END && stream.total_out == expected { return output }
        if Int(stream.total_out) > expected {
            throw ThrobberError(.data, "\(name): image data is longer than the image")
        }
        if status == Z_DATA_ERROR { throw ThrobberError(.data, "\(name): image data is corrupt (deflate error)") }
        throw ThrobberError(.data, "\(name): image data is truncated (\(stream.total_out) of \(expected) bytes)")
    }
}

extension Inflate {
    /// Inflates as much of a zlib stream as is there (up to `limit` bytes),
    /// without requiring its end: for image data that stops early.
    static func available(_ input: [UInt8], limit: Int, name: String) throws -> [UInt8] {
        var stream = z_stream()
        guard throbber_inflate_init(&stream) == Z_OK else {
            throw ThrobberError(.software, "\(name): zlib inflateInit failed")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: limit)
        let status = input.withUnsafeBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf -> Int32 in
                stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                stream.avail_in = UInt32(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = UInt32(outBuf.count)
                return inflate(&stream, Z_SYNC_FLUSH)
            }
        }
        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
            throw ThrobberError(.data, "\(name): image data is corrupt (deflate error)")
        }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
