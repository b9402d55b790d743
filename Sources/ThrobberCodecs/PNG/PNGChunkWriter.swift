internal import CZlib
import ThrobberCore

/// Writes PNG chunks: length, type, data, CRC-32 (ISO 3309, as zlib computes it).
package struct PNGChunkWriter {
    private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func signature() { bytes += ImageFormat.pngSignature }

    package mutating func chunk(_ type: String, _ data: [UInt8]) {
        precondition(type.utf8.count == 4 && data.count <= 0x7FFF_FFFF)
        bytes.append(contentsOf: UInt32(data.count).bigEndianBytes)
        let start = bytes.count
        bytes += Array(type.utf8)
        bytes += data
        let crc = bytes[start...].withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        bytes.append(contentsOf: crc.bigEndianBytes)
    }

    /// Hands over what was written so far.
    package mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}
