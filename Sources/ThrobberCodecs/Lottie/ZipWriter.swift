internal import CZlib
import ThrobberCore

/// Writes a zip archive in memory (PKWARE APPNOTE 6.3): local headers and
/// data in the order the entries were added, then the central directory
/// and its end record. Each entry is deflated with zlib, or stored when
/// deflate makes it no smaller, as zip(1) does.
///
/// The bytes depend only on the entries, their order and the zlib
/// version: every entry carries the same DOS date (1980-01-01 00:00, the
/// earliest a zip can say), no extra fields, no comment, "made by" MS-DOS
/// with no file attributes, sizes and CRC in the local header (no data
/// descriptor). Archives that would need ZIP64 (4 GiB, 65535 entries) are
/// refused.
struct ZipWriter {
    /// One entry as written: its name and where its local header starts.
    private struct Written {
        var name: [UInt8]
        var method: UInt16
        var crc: UInt32
        var compressedSize: Int
        var size: Int
        var offset: Int
    }

    /// The archive so far: local headers and data.
    private var out: [UInt8] = []
    private var written: [Written] = []

    /// zip method 0: the bytes as they are.
    static let stored: UInt16 = 0
    /// zip method 8: raw deflate.
    static let deflated: UInt16 = 8
    /// DOS date of every entry, 1980-01-01: (year − 1980) << 9 | month << 5 | day.
    static let dosDate: UInt16 = 1 << 5 | 1
    /// DOS time of every entry, 00:00:00.
    static let dosTime: UInt16 = 0
    /// zlib settings for entries: the highest level and memory, raw deflate
    /// (no zlib header: zip stores the CRC itself).
    static let level: Int32 = 9

    /// Adds the file `name` (a `/`-separated path in the archive) holding
    /// `bytes`, deflated unless that makes it no smaller. Throws
    /// ``ThrobberError/Kind/software`` when zlib fails, and
    /// ``ThrobberError/Kind/data`` when the archive would need ZIP64.
    mutating func add(_ name: String, _ bytes: [UInt8]) throws {
        let packed = try Self.deflate(bytes)
        let method = packed.count < bytes.count ? Self.deflated : Self.stored
        let data = method == Self.deflated ? packed : bytes
        let entry = Written(
            name: Array(name.utf8), method: method, crc: Self.crc32(bytes), compressedSize: data.count,
            size: bytes.count, offset: out.count)
        guard entry.name.count <= 0xFFFF, written.count < 0xFFFF,
            out.count + 30 + entry.name.count + data.count < 0xFFFF_FFFF
        else { throw ThrobberError(.data, "\(name): the archive would need ZIP64 (over 4 GiB or 65535 entries)") }
        // Local file header.
        Self.put32(0x0403_4B50, &out)
        Self.put16(Self.versionNeeded(method), &out)
        Self.put16(0, &out)  // flags: none (names are ASCII, sizes known)
        Self.put16(method, &out)
        Self.put16(Self.dosTime, &out)
        Self.put16(Self.dosDate, &out)
        Self.put32(entry.crc, &out)
        Self.put32(UInt32(entry.compressedSize), &out)
        Self.put32(UInt32(entry.size), &out)
        Self.put16(UInt16(entry.name.count), &out)
        Self.put16(0, &out)  // extra field length
        out += entry.name
        out += data
        written.append(entry)
    }

    /// The archive: what was added, then the central directory and the
    /// end-of-central-directory record.
    func bytes() throws -> [UInt8] {
        var archive = out
        let directoryStart = archive.count
        for e in written {
            Self.put32(0x0201_4B50, &archive)
            Self.put16(20, &archive)  // made by: MS-DOS (0), APPNOTE 2.0
            Self.put16(Self.versionNeeded(e.method), &archive)
            Self.put16(0, &archive)  // flags
            Self.put16(e.method, &archive)
            Self.put16(Self.dosTime, &archive)
            Self.put16(Self.dosDate, &archive)
            Self.put32(e.crc, &archive)
            Self.put32(UInt32(e.compressedSize), &archive)
            Self.put32(UInt32(e.size), &archive)
            Self.put16(UInt16(e.name.count), &archive)
            for _ in 0..<3 { Self.put16(0, &archive) }  // extra field, comment, disk number
            Self.put16(0, &archive)  // internal attributes
            Self.put32(0, &archive)  // external attributes
            Self.put32(UInt32(e.offset), &archive)
            archive += e.name
        }
        let directorySize = archive.count - directoryStart
        guard archive.count < 0xFFFF_FFFF else {
            throw ThrobberError(.data, "the archive would need ZIP64 (over 4 GiB)")
        }
        Self.put32(0x0605_4B50, &archive)
        Self.put16(0, &archive)  // this disk
        Self.put16(0, &archive)  // the disk the central directory starts on
        Self.put16(UInt16(written.count), &archive)
        Self.put16(UInt16(written.count), &archive)
        Self.put32(UInt32(directorySize), &archive)
        Self.put32(UInt32(directoryStart), &archive)
        Self.put16(0, &archive)  // comment length
        return archive
    }

    /// APPNOTE 4.4.3: 1.0 for a stored file, 2.0 for a deflated one.
    private static func versionNeeded(_ method: UInt16) -> UInt16 { method == deflated ? 20 : 10 }

    /// `bytes` as raw deflate at ``level``.
    static func deflate(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard throbber_deflate_init(&stream, level, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK else {
            throw ThrobberError(.software, "zlib deflateInit2 failed")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out -> Int32 in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw ThrobberError(.software, "zlib deflate failed (\(status))") }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// CRC-32 of `bytes`, as zip stores it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 { GzipInflate.crc32(bytes) }

    private static func put16(_ v: UInt16, _ out: inout [UInt8]) {
        out += [UInt8(v & 0xFF), UInt8(v >> 8)]
    }

    private static func put32(_ v: UInt32, _ out: inout [UInt8]) {
        put16(UInt16(v & 0xFFFF), &out)
        put16(UInt16(v >> 16), &out)
    }
}
