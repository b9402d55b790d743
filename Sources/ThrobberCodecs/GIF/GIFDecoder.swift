internal import CGIF
import ThrobberCore

/// GIF input through giflib's record-level decoder (DGif*), composited with
/// the disposal methods as browsers apply them: 2 clears the frame's
/// rectangle to transparent, 3 restores what was there before it. Sizes are
/// checked before any pixel buffer is allocated.
enum GIFDecoder {
    private final class Reader {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// Decodes the first `maxFrames` frames (all by default).
    static func decode(_ bytes: [UInt8], name: String, maxFrames: Int = .max) throws -> DecodedAnimation {
        if let s = GIFLZWFallback.survey(bytes) {
            // Refuse a frame-count bomb before decoding anything.
            if s.images * s.width * s.height * 4 > DecodedAnimation.maxTotalBytes {
                throw ThrobberError(
                    .data,
                    "\(name): \(s.images) frames of \(s.width)x\(s.height) are more than Throbber decodes (decompression bomb?)"
                )
            }
            if s.codeSize > 8 && s.codeSize <= 11 {
                return try decodeWithFallback(bytes, name: name, maxFrames: maxFrames)
            }
        }
        let reader = Reader(bytes)
        let gif = try open(reader, name: name)
        defer {
            withExtendedLifetime(reader) {
                var e: Int32 = 0
                DGifCloseFile(gif, &e)
            }
        }
        func fail(_ what: String) -> ThrobberError {
            ThrobberError(.data, "\(name): not a valid GIF: \(what) (\(GIFWriter.describe(gif.pointee.Error)))")
        }

        let width = Int(gif.pointee.SWidth)
        let height = Int(gif.pointee.SHeight)
        try DecodedAnimation.checkCanvas(width, height, name: name)
        let global = colors(gif.pointee.SColorMap)

        var compositor = GIFCompositor(width: width, height: height)
        var loop = 1
        var gcb = GraphicsControlBlock(
            DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)

        loop: while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else {
                // A missing trailer after whole frames: show what is there.
                if !compositor.frames.isEmpty { break loop }
                throw fail("truncated")
            }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard try readImage(gif, into: &compositor, gcb: gcb, global: global, name: name, fail: fail) else {
                    break loop  // keep the whole frames before a damaged one, as browsers do
                }
                gcb = GraphicsControlBlock(
                    DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
                if compositor.frames.count >= maxFrames { break loop }
            case EXTENSION_RECORD_TYPE:
                try readExtension(gif, gcb: &gcb, loop: &loop, fail: fail)
            case TERMINATE_RECORD_TYPE:
                break loop
            default:
                throw fail("unknown record")
            }
        }
        return try compositor.finish(loop: loop, name: name)
    }

    /// giflib's decoder reading from `reader`, its screen descriptor read;
    /// the caller keeps `reader` alive until it closes the decoder.
    private static func open(_ reader: Reader, name: String) throws -> UnsafeMutablePointer<GifFileType> {
        var error: Int32 = 0
        let user = Unmanaged.passUnretained(reader).toOpaque()
        guard
            let gif = DGifOpen(
                user,
                { file, buffer, length in
                    guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
                    let r = Unmanaged<Reader>.fromOpaque(user).takeUnretainedValue()
                    let n = min(Int(length), r.bytes.count - r.offset)
                    if n > 0 {
                        r.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + r.offset, count: n) }
                    }
                    r.offset += n
                    return Int32(n)
                }, &error)
        else {
            throw ThrobberError(.data, "\(name): not a valid GIF: \(GIFWriter.describe(error))")
        }
        return gif
    }

    /// Reads the image record whose descriptor is next in `gif` and adds it
    /// to `compositor` with the graphics control `gcb` and the `global`
    /// palette. Returns false, adding nothing, when its data is damaged after
    /// whole frames; throws for damage in the first frame.
    private static func readImage(
        _ gif: UnsafeMutablePointer<GifFileType>, into compositor: inout GIFCompositor, gcb: GraphicsControlBlock,
        global: [UInt32]?, name: String, fail: (String) -> ThrobberError
    ) throws -> Bool {
        guard DGifGetImageDesc(gif) == GIF_OK else { throw fail("bad image descriptor") }
        let d = gif.pointee.Image
        let x = Int(d.Left)
        let y = Int(d.Top)
        let w = Int(d.Width)
        let h = Int(d.Height)
        try compositor.check(PixelRect(x: x, y: y, width: w, height: h), name: name)
        var indices = [UInt8](repeating: 0, count: w * h)
        for row in d.Interlace ? interlacedRows(h) : Array(0..<h) {
            let ok = indices.withUnsafeMutableBufferPointer {
                DGifGetLine(gif, $0.baseAddress! + row * w, Int32(w))
            }
            guard ok == GIF_OK else {
                if compositor.frames.isEmpty { throw fail("image data is truncated or corrupt") }
                return false
            }
        }
        compositor.add(
            rect: PixelRect(x: x, y: y, width: w, height: h), indices: indices,
            palette: colors(d.ColorMap) ?? global, disposal: Int(gcb.DisposalMode), delay: Int(gcb.DelayTime),
            transparent: gcb.TransparentColor == NO_TRANSPARENT_COLOR ? nil : Int(gcb.TransparentColor))
        return true
    }

    /// Reads the extension record next in `gif`: a graphics control block
    /// into `gcb`, a NETSCAPE2.0 loop count into `loop`; other extensions
    /// are skipped.
    private static func readExtension(
        _ gif: UnsafeMutablePointer<GifFileType>, gcb: inout GraphicsControlBlock, loop: inout Int,
        fail: (String) -> ThrobberError
    ) throws {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>? = nil
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw fail("bad extension") }
        var first = true
        var netscape = false
        while let b = block {
            let length = Int(b[0])
            if code == GRAPHICS_EXT_FUNC_CODE && first && length >= 4 {
                DGifExtensionToGCB(length, b + 1, &gcb)
            } else if code == APPLICATION_EXT_FUNC_CODE && first {
                netscape =
                    length == 11
                    && String(decoding: UnsafeBufferPointer(start: b + 1, count: 11), as: UTF8.self)
                        == "NETSCAPE2.0"
            } else if netscape && length >= 3 && b[1] == 1 {
                let repeats = Int(b[2]) | Int(b[3]) << 8
                loop = repeats == 0 ? 0 : repeats + 1
            }
            first = false
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw fail("bad extension data") }
        }
    }

    /// The rare file giflib refuses for an LZW code size above 8.
    private static func decodeWithFallback(_ bytes: [UInt8], name: String, maxFrames: Int) throws -> DecodedAnimation {
        let file = try GIFLZWFallback.parse(bytes, name: name)
        try DecodedAnimation.checkCanvas(file.width, file.height, name: name)
        var compositor = GIFCompositor(width: file.width, height: file.height)
        for image in file.images.prefix(maxFrames) {
            let w = image.rect.width
            let h = image.rect.height
            try compositor.check(image.rect, name: name)
            var indices = GIFLZWFallback.lzw(image.data, codeSize: image.codeSize, count: w * h)
            if image.interlaced {
                var ordered = indices
                for (i, row) in interlacedRows(h).enumerated() {
                    ordered.replaceSubrange(row * w..<(row + 1) * w, with: indices[i * w..<(i + 1) * w])
                }
                indices = ordered
            }
            compositor.add(
                rect: image.rect, indices: indices, palette: image.palette ?? file.global,
                disposal: image.disposal, delay: image.delay, transparent: image.transparent)
        }
        return try compositor.finish(loop: file.loop, name: name)
    }

    /// The rows of an interlaced image in the order its data stores them.
    private static func interlacedRows(_ h: Int) -> [Int] {
        [
            stride(from: 0, to: h, by: 8), stride(from: 4, to: h, by: 8), stride(from: 2, to: h, by: 4),
            stride(from: 1, to: h, by: 2),
        ]
        .flatMap { Array($0) }
    }

    /// A giflib color map as packed RGBA (opaque).
    private static func colors(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [UInt32]? {
        guard let map, let c = map.pointee.Colors else { return nil }
        return (0..<Int(map.pointee.ColorCount)).map { i in
            UInt32(c[i].Red) | UInt32(c[i].Green) << 8 | UInt32(c[i].Blue) << 16 | 0xFF00_0000
        }
    }
}
