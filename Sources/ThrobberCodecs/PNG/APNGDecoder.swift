import ThrobberCore

/// APNG input: the chunk sequence is checked against the APNG spec
/// (sequence numbers, fcTL/fdAT order, frame regions, frame count), each
/// frame's image data is decoded by libpng as a PNG of its own (so every bit
/// depth and color type works), and frames are composited with their
/// dispose and blend ops.
enum APNGDecoder {
    /// True when an acTL chunk comes before the first IDAT (an acTL after
    /// the image data is ignored: the file is a still PNG).
    static func isAnimated(_ bytes: [UInt8]) -> Bool {
        isAnimated { p in p + 8 <= bytes.count ? Array(bytes[p..<(p + 8)]) : nil }
    }

    /// The same from chunk headers alone: `header(offset)` gives the 8
    /// bytes (length, type) at that offset of the file, nil past its end.
    static func isAnimated(header: (Int) throws -> [UInt8]?) rethrows -> Bool {
        var p = 8
        while let h = try header(p), h.count == 8 {
            let length = Int(UInt32(h[0]) << 24 | UInt32(h[1]) << 16 | UInt32(h[2]) << 8 | UInt32(h[3]))
            let type = h[4..<8]
            if type.elementsEqual("acTL".utf8) { return true }
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return false }
            p += 12 + length
        }
        return false
    }

    private struct FrameControl {
        var rect: PixelRect
        var duration: Rational
        var delay: (Int, Int)
        var dispose: UInt8, blend: UInt8
        var data: [UInt8] = []
    }

    /// The animation in the APNG `bytes` (named `name` in errors), or nil
    /// for a file to show as a still PNG (no usable acTL, or an error the
    /// spec says to recover from by showing the default image).
    // Long: one pass over the chunk types; the APNG ordering rules share its state variables.
    static func decode(_ bytes: [UInt8], name: String) throws -> DecodedAnimation? {
        func invalid(_ why: String) -> ThrobberError { ThrobberError(.data, "\(name): not a valid APNG: \(why)") }
        let chunks = try PNGChunk.parse(bytes, name: name)
        guard let ihdr = chunks.first, ihdr.type == "IHDR", ihdr.data.count == 13 else {
            throw invalid("IHDR is not the first chunk")
        }
        let width = Int(ihdr.uint32(at: 0))
        let height = Int(ihdr.uint32(at: 4))
        try DecodedAnimation.checkCanvas(width, height, name: name)

        var numFrames: UInt32? = nil
        var numPlays: UInt32 = 0
        var repeatedACTL = false
        var header: [PNGChunk] = []  // PLTE, tRNS: needed by every frame
        var frames: [FrameControl] = []
        var expectedSequence: UInt32 = 0
        var sawIDAT = false
        var idatInAnimation = false
        var current: FrameControl? = nil  // the fcTL whose data is being read
        var defaultImage: [UInt8] = []

        func sequence(_ c: PNGChunk) throws {
            guard c.data.count >= 4 else { throw invalid("\(c.type) chunk too short") }
            let n = c.uint32(at: 0)
            guard n == expectedSequence else {
                throw invalid("sequence number \(n) where \(expectedSequence) was expected")
            }
            expectedSequence += 1
        }

        for c in chunks.dropFirst() {
            switch c.type {
            case "acTL":
                guard c.data.count == 8 else { throw invalid("acTL chunk has the wrong length") }
                if numFrames == nil && !sawIDAT {
                    numFrames = c.uint32(at: 0)
                    numPlays = c.uint32(at: 4)
                    // Refuse a frame-count bomb before decoding anything.
                    if let n = numFrames, n <= 0x7FFF_FFFF, Int(n) * width * height * 4 > DecodedAnimation.maxTotalBytes
                    {
                        throw ThrobberError(
                            .data,
                            "\(name): \(n) frames of \(width)x\(height) are more than Throbber decodes (decompression bomb?)"
                        )
                    }
                } else {
                    repeatedACTL = true
                }
            case "PLTE", "tRNS":
                if !sawIDAT { header.append(c) }
            case "fcTL":
                try sequence(c)
                guard c.data.count == 26 else { throw invalid("fcTL chunk has the wrong length") }
                if let cur = current, cur.data.isEmpty {
                    throw invalid("frame \(frames.count + 1) has no image data (fcTL follows fcTL)")
                }
                if let cur = current { frames.append(cur) }
                if !sawIDAT && frames.isEmpty { idatInAnimation = true }
                current = try frameControl(
                    c, number: frames.count + 1, width: width, height: height, invalid: invalid)
            case "IDAT":
                sawIDAT = true
                defaultImage += c.data
                if idatInAnimation { current?.data += c.data }
            case "fdAT":
                try sequence(c)
                guard current != nil, sawIDAT else { throw invalid("fdAT without a preceding fcTL") }
                if idatInAnimation && frames.isEmpty {
                    throw invalid("fdAT data for the first frame, whose data is the IDAT")
                }
                current!.data += c.data.dropFirst(4)
            default:
                break
            }
        }
        if let cur = current {
            guard !cur.data.isEmpty else { throw invalid("the last fcTL has no image data") }
            frames.append(cur)
        }
        guard sawIDAT else { throw invalid("no IDAT chunk") }
        // num_frames 0 or beyond 2^31 − 1: not a usable animation; show the
        // default image like a still PNG (as browsers do).
        guard let declared = numFrames, declared > 0, declared <= 0x7FFF_FFFF else { return nil }
        guard frames.count >= Int(declared) else {
            throw invalid("acTL announces \(declared) frames but the file has \(frames.count)")
        }
        // Errors the spec says to recover from by showing the default image:
        // a second acTL, or more frames than acTL announces.
        if repeatedACTL || frames.count > Int(declared) { return nil }

        let out = try composite(frames, width: width, height: height, header: header, ihdr: ihdr, name: name)
        // A PLTE in a truecolor file is only a suggestion, not the frames' palette.
        let isPalette = ihdr.data[ihdr.data.startIndex + 9] == 3
        let paletteSize = isPalette ? header.first { $0.type == "PLTE" }.map { $0.data.count / 3 } : nil
        let stored = frames.map { f in
            DecodedAnimation.StoredFrame(
                rect: f.rect, delay: f.delay, dispose: ["none", "background", "previous"][Int(f.dispose)],
                blend: f.blend == 1 ? "over" : "source", colors: paletteSize, transparent: nil)
        }
        return DecodedAnimation(
            width: width, height: height, frames: out, durations: frames.map(\.duration),
            loop: Int(numPlays), format: .apng, stored: stored,
            pixelType: Self.pixelType(
                color: ihdr.data[ihdr.data.startIndex + 9], depth: ihdr.data[ihdr.data.startIndex + 8]))
    }

    /// The frame control in the fcTL chunk `c` (its length checked) of
    /// frame `number` (from 1) on a `width`×`height` canvas; throws
    /// `invalid(why)` for a region outside the canvas or an unknown op.
    private static func frameControl(
        _ c: PNGChunk, number: Int, width: Int, height: Int, invalid: (String) -> ThrobberError
    ) throws -> FrameControl {
        let w = Int(c.uint32(at: 4))
        let h = Int(c.uint32(at: 8))
        let x = Int(c.uint32(at: 12))
        let y = Int(c.uint32(at: 16))
        let num = Int64(c.data[c.data.startIndex + 20]) << 8 | Int64(c.data[c.data.startIndex + 21])
        var den = Int64(c.data[c.data.startIndex + 22]) << 8 | Int64(c.data[c.data.startIndex + 23])
        if den == 0 { den = 100 }  // the spec's default
        let dispose = c.data[c.data.startIndex + 24]
        let blend = c.data[c.data.startIndex + 25]
        guard w > 0, h > 0, x + w <= width, y + h <= height else {
            throw invalid(
                "frame \(number) region \(w)x\(h)+\(x)+\(y) is outside the \(width)x\(height) canvas")
        }
        guard dispose <= 2, blend <= 1 else {
            throw invalid("frame \(number) has an unknown dispose or blend op")
        }
        return FrameControl(
            rect: PixelRect(x: x, y: y, width: w, height: h), duration: Rational(num, den),
            delay: (Int(num), Int(den)), dispose: dispose, blend: blend)
    }

    /// The canvas after each of `frames` is drawn on it (decoded with the
    /// `header` chunks and `ihdr`), before its dispose op, with invisible
    /// colors cleared.
    private static func composite(
        _ frames: [FrameControl], width: Int, height: Int, header: [PNGChunk], ihdr: PNGChunk, name: String
    ) throws -> [RGBAImage] {
        var canvas = RGBAImage(width: width, height: height)
        var out: [RGBAImage] = []
        var total = 0
        for (i, f) in frames.enumerated() {
            total += width * height * 4
            guard total <= DecodedAnimation.maxTotalBytes else {
                throw ThrobberError(.data, "\(name): not a valid APNG: too many frames to decode")
            }
            let image = try decodeFrame(f, header: header, ihdr: ihdr, index: i, name: name)
            let before = f.dispose == 2 ? canvas : nil
            canvas.draw(image, at: f.rect.x, f.rect.y, over: f.blend == 1)
            out.append(canvas)
            switch f.dispose {
            case 1: FrameDiff.clear(&canvas, f.rect)
            case 2: if i == 0 { FrameDiff.clear(&canvas, f.rect) } else { canvas = before! }
            default: break
            }
        }
        for i in out.indices { out[i].clearInvisibleColor() }
        return out
    }

    /// PNG color type `color` at `depth` bits per sample, as `info` shows it.
    static func pixelType(color: UInt8, depth: UInt8) -> String {
        let name = [0: "gray", 2: "RGB", 3: "palette", 4: "gray+alpha", 6: "RGBA"][Int(color)] ?? "color type \(color)"
        return "\(name) \(depth)-bit"
    }

    /// One frame's image data as a PNG of its own, decoded by libpng.
    private static func decodeFrame(_ f: FrameControl, header: [PNGChunk], ihdr: PNGChunk, index: Int, name: String)
        throws -> RGBAImage
    {
        let image: RGBAImage
        do {
            image = try ImageDecoder.decode(
                png(f, header: header, ihdr: ihdr, idat: f.data), name: "\(name) frame \(index + 1)")
        } catch let e as ThrobberError where e.message.hasSuffix("Not enough image data") {
            // A frame whose data stops early: show the rows that are there,
            // the rest transparent (as browsers do).
            image = try ImageDecoder.decode(
                padded(f, header: header, ihdr: ihdr, name: name, index: index), name: "\(name) frame \(index + 1)")
        }
        guard image.width == f.rect.width && image.height == f.rect.height else {
            throw ThrobberError(.data, "\(name): not a valid APNG: frame \(index + 1) decodes to the wrong size")
        }
        return image
    }

    /// A PNG of the frame's size with the file's header chunks and `idat`.
    private static func png(_ f: FrameControl, header: [PNGChunk], ihdr: PNGChunk, idat: [UInt8]) -> [UInt8] {
        var png = PNGChunkWriter()
        png.signature()
        var fields = Array(ihdr.data)
        fields.replaceSubrange(0..<8, with: UInt32(f.rect.width).bigEndianBytes + UInt32(f.rect.height).bigEndianBytes)
        png.chunk("IHDR", fields)
        for c in header { png.chunk(c.type, Array(c.data)) }
        png.chunk("IDAT", idat)
        png.chunk("IEND", [])
        return png.take()
    }

    /// The frame as a PNG whose image data is padded with empty rows.
    private static func padded(_ f: FrameControl, header: [PNGChunk], ihdr: PNGChunk, name: String, index: Int) throws
        -> [UInt8]
    {
        let fields = Array(ihdr.data)
        let depth = Int(fields[8])
        let color = fields[9]
        let interlaced = fields[12] != 0
        let channels: Int = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][color] ?? 4
        guard !interlaced else {
            throw ThrobberError(.data, "\(name): not a valid APNG: frame \(index + 1) image data is truncated")
        }
        let rowBytes = (f.rect.width * channels * depth + 7) / 8 + 1
        var raw = try Inflate.available(f.data, limit: rowBytes * f.rect.height, name: name)
        raw += [UInt8](repeating: 0, count: rowBytes * f.rect.height - raw.count)
        return png(f, header: header, ihdr: ihdr, idat: try PNGCompressor(effort: .fast).compress(filtered: raw))
    }
}
