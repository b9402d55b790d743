internal import CZlib
import ThrobberCore

/// One chunk of a PNG stream: its four-letter type and its data.
package struct PNGChunk {
    package var type: String
    package var data: ArraySlice<UInt8>

    /// Big-endian UInt32 at `offset` into the chunk data.
    func uint32(at offset: Int) -> UInt32 {
        let i = data.startIndex + offset
        return UInt32(data[i]) << 24 | UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 8 | UInt32(data[i + 3])
    }

    /// Splits a PNG stream (signature included) into chunks, checking each
    /// length and CRC-32, and stopping after IEND.
    package static func parse(_ bytes: [UInt8], name: String) throws -> [PNGChunk] {
        guard bytes.starts(with: ImageFormat.pngSignature) else {
            throw ThrobberError(.data, "\(name): not a PNG file (bad signature)")
        }
        var chunks: [PNGChunk] = []
        var p = 8
        while true {
            guard p + 12 <= bytes.count else { throw ThrobberError(.data, "\(name): PNG is truncated (no IEND chunk)") }
            let length = Int(
                UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8 | UInt32(bytes[p + 3]))
            guard length <= 0x7FFF_FFFF, p + 12 + length <= bytes.count else {
                throw ThrobberError(.data, "\(name): PNG is truncated (chunk at byte \(p) runs past the end)")
            }
            let type = String(decoding: bytes[(p + 4)..<(p + 8)], as: UTF8.self)
            let stored =
                UInt32(bytes[p + 8 + length]) << 24 | UInt32(bytes[p + 9 + length]) << 16
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
