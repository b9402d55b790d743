internal import CZlib
import ThrobberCore

/// zlib inflate with a limit, so a small file cannot expand without bound:
/// gzip for Telegram stickers (`.tgs`), raw deflate for the entries of a
/// dotLottie (`.lottie`) zip archive.
enum GzipInflate {
    /// True when `bytes` start with the gzip magic number 1F 8B.
    static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x1F, 0x8B]) }

    /// The inflated contents of the gzip stream in `bytes`: every member
    /// of it, one after the other, as gzip(1) reads them (bytes after the
    /// last member that start no other are ignored, as gzip(1) ignores
    /// them). Throws
    /// ``ThrobberError/Kind/data`` naming `name` when the stream is corrupt,
    /// truncated, or inflates to more than `limit` bytes.
    static func inflate(_ bytes: [UInt8], limit: Int, name: String) throws -> [UInt8] {
        try run(bytes[...], gzip: true, limit: limit, name: name, what: "gzip data", kind: "a valid .tgs sticker")
    }

    /// The inflated contents of the raw deflate stream in `bytes` (a zip
    /// entry, named `name` in messages), with the same limit and errors.
    static func inflateRaw(_ bytes: ArraySlice<UInt8>, limit: Int, name: String) throws -> [UInt8] {
        try run(bytes, gzip: false, limit: limit, name: name, what: "deflate data", kind: "a valid zip entry")
    }

    /// CRC-32 (the zip and gzip checksum) of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, UInt32($0.count))) }
    }

    private static func run(
        _ bytes: ArraySlice<UInt8>, gzip: Bool, limit: Int, name: String, what: String, kind: String
    ) throws -> [UInt8] {
        var stream = z_stream()
        guard (gzip ? throbber_inflate_init_gzip(&stream) : throbber_inflate_init_raw(&stream)) == Z_OK else {
            throw ThrobberError(.software, "\(name): zlib inflateInit failed")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var status: Int32 = Z_OK
        try bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { out -> Int in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                output += chunk.prefix(produced)
                guard output.count <= limit else {
                    throw ThrobberError(
                        .data, "\(name): \(what) inflates to more than \(limit >> 20) MiB (decompression bomb?)")
                }
                // Another gzip member follows: read it on.
                if gzip, status == Z_STREAM_END, stream.avail_in >= 2, stream.next_in[0] == 0x1F,
                    stream.next_in[1] == 0x8B, inflateReset(&stream) == Z_OK
                {
                    status = Z_OK
                }
            } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
        }
        switch status {
        case Z_STREAM_END: return output
        case Z_OK, Z_BUF_ERROR: throw ThrobberError(.data, "\(name): \(what) is truncated")
        default: throw ThrobberError(.data, "\(name): \(what) is corrupt (not \(kind))")
        }
    }
}
