import ThrobberCore

/// A zip archive held in memory, read through its central directory (PKWARE
/// APPNOTE 6.3): the stored and deflated entries a dotLottie (`.lottie`)
/// file holds. Encrypted entries, ZIP64 and archives spanning several disks
/// are refused with a message; every entry is checked against its CRC-32
/// and inflated up to a limit.
struct ZipArchive {
    /// One file in the archive, as the central directory describes it.
    struct Entry {
        var name: String
        var method: Int
        var flags: Int
        var crc: UInt32
        var compressedSize: Int
        var size: Int
        var localOffset: Int
    }

    /// The archive's path, for messages.
    let name: String
    /// The entries, in central-directory order.
    let entries: [Entry]
    private let bytes: [UInt8]

    /// Most entries read from one archive.
    static let maxEntries = 10_000

    /// True when `bytes` start like a zip archive (a local file header).
    static func isZip(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    /// Reads the central directory of the archive in `bytes`. Throws
    /// ``ThrobberError/Kind/data`` naming `name` when it is not a zip
    /// archive this reader takes, or is damaged.
    init(_ bytes: [UInt8], name: String) throws {
        self.bytes = bytes
        self.name = name
        func bad(_ why: String) -> ThrobberError { ThrobberError(.data, "\(name): not a readable zip archive: \(why)") }
        // The end-of-central-directory record: 22 bytes and a comment of at
        // most 65535, so it starts within the last 65557 bytes.
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        guard bytes.count >= 22,
            let end = stride(from: bytes.count - 22, through: lowest, by: -1).first(where: {
                Self.u32(bytes, $0) == 0x0605_4B50 && $0 + 22 + Self.u16(bytes, $0 + 20) == bytes.count
            })
        else { throw bad("no end-of-central-directory record (truncated?)") }
        let count = Self.u16(bytes, end + 10)
        let dirSize = Self.u32(bytes, end + 12)
        let dirOffset = Self.u32(bytes, end + 16)
        guard Self.u16(bytes, end + 4) == 0, Self.u16(bytes, end + 6) == 0 else {
            throw bad("split over several disks")
        }
        guard count != 0xFFFF, dirOffset != 0xFFFF_FFFF else { throw bad("ZIP64 archives are not read") }
        guard count <= Self.maxEntries else { throw bad("\(count) entries, more than \(Self.maxEntries)") }
        guard dirOffset + dirSize <= end else { throw bad("the central directory lies outside the file") }
        var entries: [Entry] = []
        var at = dirOffset
        for _ in 0..<count {
            guard at + 46 <= end, Self.u32(bytes, at) == 0x0201_4B50 else {
                throw bad("central directory entry \(entries.count + 1) is damaged")
            }
            let nameLength = Self.u16(bytes, at + 28)
            let skip = Self.u16(bytes, at + 30) + Self.u16(bytes, at + 32)
            guard at + 46 + nameLength + skip <= end else { throw bad("central directory runs past its end") }
            let entry = Entry(
                name: String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self),
                method: Self.u16(bytes, at + 10), flags: Self.u16(bytes, at + 8),
                crc: UInt32(Self.u32(bytes, at + 16)), compressedSize: Self.u32(bytes, at + 20),
                size: Self.u32(bytes, at + 24), localOffset: Self.u32(bytes, at + 42))
            guard entry.compressedSize != 0xFFFF_FFFF, entry.size != 0xFFFF_FFFF, entry.localOffset != 0xFFFF_FFFF
            else { throw bad("ZIP64 archives are not read") }
            entries.append(entry)
            at += 46 + nameLength + skip
        }
        self.entries = entries
    }

    /// The contents of the entry named `entryName` (nil: there is none),
    /// at most `limit` bytes. Throws ``ThrobberError/Kind/data`` naming the
    /// archive and the entry when it cannot be read or fails its CRC.
    func contents(of entryName: String, limit: Int) throws -> [UInt8]? {
        guard let e = entries.first(where: { $0.name == entryName }) else { return nil }
        let label = "\(name): \(entryName)"
        guard e.flags & 1 == 0 else { throw ThrobberError(.data, "\(label): encrypted entries are not read") }
        guard e.size <= limit else {
            throw ThrobberError(.data, "\(label): \(e.size) bytes, more than \(limit >> 20) MiB")
        }
        let at = e.localOffset
        guard at + 30 <= bytes.count, Self.u32(bytes, at) == 0x0403_4B50 else {
            throw ThrobberError(.data, "\(label): its local header is missing or damaged")
        }
        let start = at + 30 + Self.u16(bytes, at + 26) + Self.u16(bytes, at + 28)
        guard start + e.compressedSize <= bytes.count else {
            throw ThrobberError(.data, "\(label): its data runs past the end of the archive (truncated?)")
        }
        let stored = bytes[start..<(start + e.compressedSize)]
        let data: [UInt8]
        switch e.method {
        case 0: data = Array(stored)
        case 8: data = try GzipInflate.inflateRaw(stored, limit: limit, name: label)
        default:
            throw ThrobberError(.data, "\(label): compression method \(e.method) is not read (only stored and deflate)")
        }
        guard data.count == e.size, GzipInflate.crc32(data) == e.crc else {
            throw ThrobberError(.data, "\(label): its contents do not match the archive's size and CRC-32 (damaged)")
        }
        return data
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }
}
