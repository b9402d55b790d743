internal import CZlib

/// One chunk of a PNG stream: its four-letter type and its data.
struct PNGChunk {
    var type: String
    var data: ArraySlice<UInt8>

    /// Big-endian UInt32 at `offset` into the chunk data.
    func uint32(at offset: Int) -> UInt32 {
        let i = data.startIndex + offset
        return UInt32(data[i]) << 24 | UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 8 | UInt32(data[i + 3])
    }

    /// Splits a PNG stream (signature included) into chunks, checking each
    /// length and CRC-32, and stopping after IEND.
    static func parse(_ bytes: [UInt8], name: String) throws -> [PNGChunk] {
        guard bytes.starts(with: ImageFormat.pngSignature) else {
            throw ThrobberError(.data, "\(name): not a PNG file (bad signature)")
        }
        var chunks: [PNGChunk] = []
        var p = 8
        while true {
            guard p + 12 <= bytes.count else { throw ThrobberError(.data, "\(name): PNG is truncated (no IEND chunk)") }
            let length = Int(UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8 | UInt32(bytes[p + 3]))
            guard length <= 0x7FFF_FFFF, p + 12 + length <= bytes.count else {
                throw ThrobberError(.data, "\(name): PNG is truncated (chunk at byte \(p) runs past the end)")
            }
            let type = String(decoding: bytes[(p + 4)..<(p + 8)], as: UTF8.self)
            let stored = UInt32(bytes[p + 8 + length]) << 24 | UInt32(bytes[p + 9 + length]) << 16
                | UInt32(bytes[p + 10 + length]) << 8 | UInt32(bytes[p + 11 + length])
            let computed = bytes.withUnsafeBufferPointer { buf in
                UInt32(crc32(0, buf.baseAddress! + p + 4, UInt32(length + 4)))
            }
            guard stored == computed else { throw ThrobberError(.data, "\(name): PNG chunk \(type) has a bad CRC") }
            chunks.append(PNGChunk(type: type, data: bytes[(p + 8)..<(p + 8 + length)]))
            p += 12 + length
            if type == "IEND" { return chunks }
        }
    }
}

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
        if Int(stream.total_out) > expected { throw ThrobberError(.data, "\(name): image data is longer than the image") }
        if status == Z_DATA_ERROR { throw ThrobberError(.data, "\(name): image data is corrupt (deflate error)") }
        throw ThrobberError(.data, "\(name): image data is truncated (\(stream.total_out) of \(expected) bytes)")
    }
}

extension Inflate {
    /// Inflates as much of a zlib stream as is there (up to `limit` bytes),
    /// without requiring its end: for image data that stops early.
    static func available(_ input: [UInt8], limit: Int, name: String) throws -> [UInt8] {
        var stream = z_stream()
        guard throbber_inflate_init(&stream) == Z_OK else { throw ThrobberError(.software, "\(name): zlib inflateInit failed") }
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

/// Reverses PNG's per-row filters (None, Sub, Up, Average, Paeth) in place.
enum PNGUnfilter {
    /// The value filter type `f` predicts from the bytes to the left (a),
    /// above (b) and above-left (c): None, Sub, Up, Average, Paeth.
    @inline(__always)
    static func predict(_ f: UInt8, _ a: Int, _ b: Int, _ c: Int) -> Int {
        switch f {
        case 0: return 0
        case 1: return a
        case 2: return b
        case 3: return (a + b) >> 1
        default:
            let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
            return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        }
    }

    /// `data` holds `height` rows of 1 filter byte plus `stride` bytes;
    /// returns the rows without filter bytes.
    static func apply(_ data: [UInt8], stride: Int, height: Int, bpp: Int, name: String) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: stride * height)
        try data.withUnsafeBufferPointer { src in
            try out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let filter = src[y * (stride + 1)]
                    let s = src.baseAddress! + y * (stride + 1) + 1
                    let d = dst.baseAddress! + y * stride
                    let up: UnsafeMutablePointer<UInt8>? = y > 0 ? d - stride : nil
                    for x in 0..<stride {
                        let a = x >= bpp ? Int(d[x - bpp]) : 0
                        let b = up.map { Int($0[x]) } ?? 0
                        let c = (x >= bpp ? up.map { Int($0[x - bpp]) } : nil) ?? 0
                        guard filter <= 4 else {
                            throw ThrobberError(.data, "\(name): bad PNG filter type \(filter) in row \(y)")
                        }
                        let predictor = predict(filter, a, b, c)
                        d[x] = UInt8(truncatingIfNeeded: Int(s[x]) + predictor)
                    }
                }
            }
        }
        return out
    }
}
