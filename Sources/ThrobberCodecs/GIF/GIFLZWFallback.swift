import ThrobberCore

/// A small GIF reader of our own for files giflib refuses only because an
/// image's LZW minimum code size is above 8 (giflib's limit, not the
/// format's: browsers and Pillow accept sizes up to 11). Everything else
/// goes through giflib.
enum GIFLZWFallback {
    /// One image record as stored in the file.
    struct Image {
        var rect: PixelRect
        var interlaced: Bool
        var palette: [UInt32]?
        var codeSize: Int
        var data: [UInt8]
        var disposal: Int, delay: Int, transparent: Int?
    }

    struct File {
        var width: Int, height: Int
        var global: [UInt32]?
        var loop = 1
        var images: [Image] = []
    }

    /// A quick walk over the blocks, copying nothing: the canvas, how many
    /// images there are and their largest LZW code size. Nil if the walk
    /// fails (giflib then reports why).
    static func survey(_ b: [UInt8]) -> (width: Int, height: Int, images: Int, codeSize: Int)? {
        guard b.count >= 13, b.starts(with: Array("GIF8".utf8)) else { return nil }
        let width = Int(b[6]) | Int(b[7]) << 8
        let height = Int(b[8]) | Int(b[9]) << 8
        var p = 13 + (b[10] & 0x80 != 0 ? 3 * (2 << (b[10] & 7)) : 0)
        var images = 0
        var codeSize = 0
        func skipBlocks() -> Bool {
            while p < b.count {
                let n = Int(b[p])
                p += 1
                if n == 0 { return true }
                p += n
            }
            return false
        }
        while p < b.count {
            switch b[p] {
            case 0x21:
                p += 2
                guard skipBlocks() else { return (width, height, images, codeSize) }
            case 0x2C:
                guard p + 10 < b.count else { return (width, height, images, codeSize) }
                let flags = b[p + 9]
                p += 10 + (flags & 0x80 != 0 ? 3 * (2 << (flags & 7)) : 0)
                guard p < b.count else { return (width, height, images, codeSize) }
                codeSize = max(codeSize, Int(b[p]))
                p += 1
                images += 1
                guard skipBlocks() else { return (width, height, images, codeSize) }
            default:
                return (width, height, images, codeSize)
            }
        }
        return (width, height, images, codeSize)
    }

    /// The blocks of the GIF `b` (named `name` in errors), read without
    /// decoding the image data.
    // Long: one parse loop over the GIF block types, sharing its read position with the small readers nested in it.
    static func parse(_ b: [UInt8], name: String) throws -> File {
        func bad(_ why: String) -> ThrobberError { ThrobberError(.data, "\(name): not a valid GIF: \(why)") }
        var p = 0
        func byte() throws -> Int {
            guard p < b.count else { throw bad("truncated") }
            defer { p += 1 }
            return Int(b[p])
        }
        func word() throws -> Int {
            let lo = try byte()
            return lo | (try byte()) << 8
        }
        func table(_ count: Int) throws -> [UInt32] {
            guard p + 3 * count <= b.count else { throw bad("truncated color table") }
            defer { p += 3 * count }
            return (0..<count).map { i in
                UInt32(b[p + 3 * i]) | UInt32(b[p + 3 * i + 1]) << 8 | UInt32(b[p + 3 * i + 2]) << 16 | 0xFF00_0000
            }
        }
        func subBlocks() throws -> [UInt8] {
            var out: [UInt8] = []
            while true {
                let n = try byte()
                if n == 0 { return out }
                guard p + n <= b.count else { throw bad("truncated data block") }
                out += b[p..<(p + n)]
                p += n
            }
        }
        guard b.count >= 13, b.starts(with: Array("GIF8".utf8)) else { throw bad("bad signature") }
        p = 6
        var file = File(width: try word(), height: try word())
        let flags = try byte()
        p += 2
        if flags & 0x80 != 0 { file.global = try table(2 << (flags & 7)) }
        var disposal = 0
        var delay = 0
        var transparent: Int? = nil
        while p < b.count {
            switch try byte() {
            case 0x21:
                let label = try byte()
                let data = try subBlocks()
                if label == 0xF9 && data.count >= 4 {
                    disposal = Int(data[0] >> 2) & 7
                    delay = Int(data[1]) | Int(data[2]) << 8
                    transparent = data[0] & 1 != 0 ? Int(data[3]) : nil
                } else if label == 0xFF && data.count >= 14 && data.starts(with: Array("NETSCAPE2.0".utf8))
                    && data[11] == 1
                {
                    let repeats = Int(data[12]) | Int(data[13]) << 8
                    file.loop = repeats == 0 ? 0 : repeats + 1
                }
            case 0x2C:
                let rect = PixelRect(x: try word(), y: try word(), width: try word(), height: try word())
                let f = try byte()
                let local = f & 0x80 != 0 ? try table(2 << (f & 7)) : nil
                let codeSize = try byte()
                guard (2...11).contains(codeSize) else { throw bad("LZW code size \(codeSize)") }
                file.images.append(
                    Image(
                        rect: rect, interlaced: f & 0x40 != 0, palette: local, codeSize: codeSize,
                        data: try subBlocks(), disposal: disposal, delay: delay, transparent: transparent))
                disposal = 0
                delay = 0
                transparent = nil
            case 0x3B:
                return file
            default:
                if !file.images.isEmpty { return file }
                throw bad("unknown block")
            }
        }
        return file
    }

    /// Decodes LZW data into `count` indices (missing ones stay 0).
    // Long: one LZW decoding state machine; its dictionary and bit reader share the loop's variables.
    static func lzw(_ data: [UInt8], codeSize minimum: Int, count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let clear = 1 << minimum
        let end = clear + 1
        var prefix = [Int](repeating: 0, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var length = [Int](repeating: 0, count: 4096)
        for i in 0..<clear {
            suffix[i] = UInt8(truncatingIfNeeded: i)
            length[i] = 1
        }
        var next = end + 1
        var size = minimum + 1
        var previous = -1
        var bits = 0
        var buffer = 0
        var written = 0
        var i = 0
        var scratch = [UInt8](repeating: 0, count: 4096)
        while written < count {
            while bits < size && i < data.count {
                buffer |= Int(data[i]) << bits
                bits += 8
                i += 1
            }
            if bits < size { break }
            let code = buffer & ((1 << size) - 1)
            buffer >>= size
            bits -= size
            if code == clear {
                next = end + 1
                size = minimum + 1
                previous = -1
                continue
            }
            if code == end { break }
            var c = code
            var first: UInt8
            if c < next {
                // Known code.
            } else if c == next && previous >= 0 {
                c = previous
            } else {
                break  // corrupt stream
            }
            // Unwind code c into scratch (reversed).
            var n = 0
            var k = c
            while true {
                scratch[n] = suffix[k]
                n += 1
                if k < clear || length[k] <= 1 { break }
                k = prefix[k]
                if n >= 4096 { break }
            }
            first = scratch[n - 1]
            let extra = code == next && previous >= 0
            for j in stride(from: n - 1, through: 0, by: -1) where written < count {
                out[written] = scratch[j]
                written += 1
            }
            if extra && written < count {
                out[written] = first
                written += 1
            }
            if previous >= 0 && next < 4096 {
                prefix[next] = previous
                suffix[next] = first
                length[next] = length[previous] + 1
                next += 1
                if next == 1 << size && size < 12 { size += 1 }
            }
            previous = code
        }
        return out
    }
}
