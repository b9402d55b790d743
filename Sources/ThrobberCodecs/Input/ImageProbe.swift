import ThrobberCore

/// What an image file's headers say, read before any pixel is decoded:
/// its size (PNG and CgBI IHDR, JPEG SOF, GIF logical screen, WebP VP8X,
/// VP8 or VP8L header) and, for an animation, how many frames it has (APNG
/// acTL, GIF image descriptors, WebP ANMF chunks).
/// A run checks frame sizes and its memory budget from these, so a folder
/// of huge or mismatched frames is refused in milliseconds.
package struct ImageProbe: Sendable, Equatable {
    /// The size the decoded frames will have; nil when the headers do not
    /// tell before the image data (unrecognised, damaged, or a JPEG whose
    /// frame header is missing): decoding will say what is wrong.
    package var size: FrameSize?
    /// Frames the file shows: 1 for a still image.
    package var frames: Int
    /// A GIF, or a PNG with an acTL before its image data.
    package var animated: Bool
    /// The format the file's signature says; nil when unrecognised.
    package var format: ImageFormat? = nil

    /// Bytes an animation holds once decoded (every frame composited,
    /// RGBA); 0 for a still, which is decoded when its frame is asked for.
    package var decodedBytes: Int { animated ? FrameSize.product(frames, size?.rgbaBytes ?? 0) : 0 }

    /// Reads the headers of `path`. A PNG or JPEG is walked chunk by chunk
    /// (segment by segment) with small reads, however large its metadata;
    /// a GIF is read whole (it must be, to count its frames). Throws the
    /// errors of opening and reading the file, naming it.
    package static func probe(_ path: String) throws -> ImageProbe {
        try FileBytes.withReader(path) { read in
            let head = try read(0, 16)
            var probe = try probe(head, read, path)
            probe.format = ImageFormat.sniff(head)
            return probe
        }
    }

    /// The headers of a file that starts with `head`, by its format.
    private static func probe(_ head: [UInt8], _ read: (Int, Int) throws -> [UInt8], _ path: String) throws
        -> ImageProbe
    {
        switch ImageFormat.sniff(head) {
        case .png: return try png(read)
        case .jpeg: return ImageProbe(size: try jpegSize(read), frames: 1, animated: false)
        case .gif:
            guard let s = GIFLZWFallback.survey(try FileBytes.read(path)) else {
                return ImageProbe(size: nil, frames: 1, animated: true)
            }
            return ImageProbe(
                size: FrameSize(width: s.width, height: s.height), frames: max(1, s.images), animated: true)
        case .webp: return try webp(read)
        case nil: return ImageProbe(size: nil, frames: 1, animated: false)
        }
    }

    /// The headers of an image held in memory (a GIF's frames are not
    /// counted: `frames` is 1).
    package static func probe(bytes: [UInt8]) -> ImageProbe {
        let read: (Int, Int) -> [UInt8] = { offset, count in
            guard offset >= 0, offset < bytes.count, count > 0 else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + min(count, bytes.count - offset))])
        }
        let unknown = ImageProbe(size: nil, frames: 1, animated: false)
        switch ImageFormat.sniff(read(0, 16)) {
        case .png: return (try? png(read)) ?? unknown
        case .jpeg: return ImageProbe(size: (try? jpegSize(read)) ?? nil, frames: 1, animated: false)
        case .gif where bytes.count >= 10:
            let size = FrameSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
            return ImageProbe(size: size, frames: 1, animated: true)
        case .webp: return (try? webp(read)) ?? unknown
        default: return unknown
        }
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        b[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// PNG (and CgBI, whose CgBI chunk comes before IHDR): IHDR's size, and
    /// acTL's frame count when it comes before the first IDAT.
    private static func png(_ read: (Int, Int) throws -> [UInt8]) throws -> ImageProbe {
        var probe = ImageProbe(size: nil, frames: 1, animated: false)
        var p = 8
        for _ in 0..<4096 {
            let h = try read(p, 8)
            guard h.count == 8 else { break }
            let length = bigEndian(h, 0, 4)
            let type = h[4..<8]
            if type.elementsEqual("IHDR".utf8), length == 13 {
                let d = try read(p + 8, 8)
                guard d.count == 8 else { break }
                probe.size = FrameSize(width: bigEndian(d, 0, 4), height: bigEndian(d, 4, 4))
            } else if type.elementsEqual("acTL".utf8), length == 8 {
                let d = try read(p + 8, 4)
                guard d.count == 4 else { break }
                // num_frames 0 or beyond 2^31 − 1 is no usable animation: the
                // decoder shows the default image (one frame), as browsers do.
                let declared = bigEndian(d, 0, 4)
                probe.animated = true
                probe.frames = declared > 0 && declared <= 0x7FFF_FFFF ? declared : 1
            } else if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) {
                break
            }
            p += 12 + length
        }
        return probe
    }

    /// WebP: the canvas of VP8X (its animation flag, and one frame per
    /// ANMF chunk, found by skipping chunks by their lengths), or the size
    /// in a simple file's VP8 or VP8L bitstream header.
    private static func webp(_ read: (Int, Int) throws -> [UInt8]) throws -> ImageProbe {
        func le(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
            b[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        var probe = ImageProbe(size: nil, frames: 1, animated: false)
        let h = try read(12, 18)
        guard h.count == 18 else { return probe }
        let type = h[0..<4]
        if type.elementsEqual("VP8X".utf8) {
            probe.size = FrameSize(width: 1 + le(h, 12, 3), height: 1 + le(h, 15, 3))
            guard h[8] & 0x02 != 0 else { return probe }
            probe.animated = true
            var frames = 0
            var p = 12 + 8 + le(h, 4, 4)
            for _ in 0..<1_000_000 {
                let c = try read(p, 8)
                guard c.count == 8 else { break }
                if c[0..<4].elementsEqual("ANMF".utf8) { frames += 1 }
                let length = le(c, 4, 4)
                p += 8 + length + (length & 1)
            }
            probe.frames = max(1, frames)
        } else if type.elementsEqual("VP8 ".utf8), h[11] == 0x9D, h[12] == 0x01, h[13] == 0x2A {
            probe.size = FrameSize(width: le(h, 14, 2) & 0x3FFF, height: le(h, 16, 2) & 0x3FFF)
        } else if type.elementsEqual("VP8L".utf8), h[8] == 0x2F {
            let bits = le(h, 9, 4)
            probe.size = FrameSize(width: 1 + bits & 0x3FFF, height: 1 + (bits >> 14) & 0x3FFF)
        }
        return probe
    }

    /// JPEG: the size in the first start-of-frame segment (SOF0–SOF15,
    /// apart from DHT, JPG and DAC, which share the range), found by
    /// skipping segments by their lengths; nil when the scan comes first.
    private static func jpegSize(_ read: (Int, Int) throws -> [UInt8]) throws -> FrameSize? {
        var p = 2
        for _ in 0..<65536 {
            let m = try read(p, 4)
            guard m.count == 4, m[0] == 0xFF else { return nil }
            let marker = m[1]
            if marker == 0xFF {
                p += 1  // fill byte
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                p += 2  // no length
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = bigEndian(m, 2, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                let d = try read(p + 4, 5)
                guard d.count == 5 else { return nil }
                return FrameSize(width: bigEndian(d, 3, 2), height: bigEndian(d, 1, 2))
            }
            p += 2 + length
        }
        return nil
    }
}
