internal import CGIF

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

    static func decode(_ bytes: [UInt8], name: String) throws -> DecodedAnimation {
        let reader = Reader(bytes)
        var error: Int32 = 0
        let user = Unmanaged.passUnretained(reader).toOpaque()
        guard let gif = DGifOpen(user, { file, buffer, length in
            guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
            let r = Unmanaged<Reader>.fromOpaque(user).takeUnretainedValue()
            let n = min(Int(length), r.bytes.count - r.offset)
            if n > 0 { r.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + r.offset, count: n) } }
            r.offset += n
            return Int32(n)
        }, &error) else {
            throw ThrobberError(.data, "\(name): not a valid GIF: \(GIFWriter.describe(error))")
        }
        defer { withExtendedLifetime(reader) { var e: Int32 = 0; DGifCloseFile(gif, &e) } }
        func fail(_ what: String) -> ThrobberError {
            ThrobberError(.data, "\(name): not a valid GIF: \(what) (\(GIFWriter.describe(gif.pointee.Error)))")
        }

        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        try DecodedAnimation.checkCanvas(width, height, name: name)
        let global = colors(gif.pointee.SColorMap)

        var canvas = RGBAImage(width: width, height: height)
        var frames: [RGBAImage] = []
        var durations: [Rational] = []
        var stored: [DecodedAnimation.StoredFrame] = []
        var loop = 1
        var gcb = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
        var total = 0

        loop: while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else {
                if !frames.isEmpty { break loop }   // a missing trailer after whole frames: show what is there
                throw fail("truncated")
            }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw fail("bad image descriptor") }
                let d = gif.pointee.Image
                let x = Int(d.Left), y = Int(d.Top), w = Int(d.Width), h = Int(d.Height)
                guard w > 0, h > 0, w <= ImageDecoder.maxSide, h <= ImageDecoder.maxSide, w * h <= DecodedAnimation.maxPixels else {
                    throw ThrobberError(.data, "\(name): frame \(frames.count) is \(w)x\(h), larger than Throbber decodes (decompression bomb?)")
                }
                total += width * height * 4
                guard total <= DecodedAnimation.maxTotalBytes else {
                    throw ThrobberError(.data, "\(name): too many frames to decode (over \(DecodedAnimation.maxTotalBytes >> 20) MiB)")
                }
                var indices = [UInt8](repeating: 0, count: w * h)
                let rowOrder: [Int] = d.Interlace
                    ? [stride(from: 0, to: h, by: 8), stride(from: 4, to: h, by: 8), stride(from: 2, to: h, by: 4), stride(from: 1, to: h, by: 2)].flatMap { Array($0) }
                    : Array(0..<h)
                for row in rowOrder {
                    let ok = indices.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress! + row * w, Int32(w)) }
                    guard ok == GIF_OK else {
                        if frames.isEmpty { throw fail("image data is truncated or corrupt") }
                        break loop   // keep the whole frames before a damaged one, as browsers do
                    }
                }
                // No color table at all: like Pillow and browsers, a gray ramp.
                let palette = colors(d.ColorMap) ?? global ?? (0..<256).map { UInt32($0) * 0x010101 | 0xFF00_0000 }
                let before = gcb.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
                // The visible part of the frame (frames may reach past the canvas).
                for yy in 0..<h where y + yy < height {
                    for xx in 0..<w where x + xx < width {
                        let index = Int(indices[yy * w + xx])
                        if index == Int(gcb.TransparentColor) { continue }
                        let c = index < palette.count ? palette[index] : 0xFF00_0000
                        let o = ((y + yy) * width + x + xx) * 4
                        canvas.pixels[o] = UInt8(c & 0xFF)
                        canvas.pixels[o + 1] = UInt8((c >> 8) & 0xFF)
                        canvas.pixels[o + 2] = UInt8((c >> 16) & 0xFF)
                        canvas.pixels[o + 3] = 255
                    }
                }
                frames.append(canvas)
                durations.append(Rational(Int64(gcb.DelayTime), 100))
                let disposals = ["unspecified", "none", "background", "previous"]
                stored.append(.init(rect: PixelRect(x: x, y: y, width: w, height: h), delay: (Int(gcb.DelayTime), 100),
                                    dispose: gcb.DisposalMode >= 0 && gcb.DisposalMode < 4 ? disposals[Int(gcb.DisposalMode)] : "unspecified",
                                    blend: "over", colors: palette.count,
                                    transparent: gcb.TransparentColor == NO_TRANSPARENT_COLOR ? nil : Int(gcb.TransparentColor)))
                switch gcb.DisposalMode {
                case DISPOSE_BACKGROUND:
                    let r = PixelRect(x: x, y: y, width: min(w, width - x), height: min(h, height - y))
                    if !r.isEmpty { FrameDiff.clear(&canvas, r) }
                case DISPOSE_PREVIOUS:
                    canvas = before!
                default: break
                }
                gcb = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
            case EXTENSION_RECORD_TYPE:
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
                        netscape = length == 11 && String(decoding: UnsafeBufferPointer(start: b + 1, count: 11), as: UTF8.self) == "NETSCAPE2.0"
                    } else if netscape && length >= 3 && b[1] == 1 {
                        let repeats = Int(b[2]) | Int(b[3]) << 8
                        loop = repeats == 0 ? 0 : repeats + 1
                    }
                    first = false
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw fail("bad extension data") }
                }
            case TERMINATE_RECORD_TYPE:
                break loop
            default:
                throw fail("unknown record")
            }
        }
        guard !frames.isEmpty else { throw ThrobberError(.data, "\(name): GIF has no frames") }
        return DecodedAnimation(width: width, height: height, frames: frames, durations: durations, loop: loop,
                                format: .gif, stored: stored)
    }

    /// A giflib color map as packed RGBA (opaque).
    private static func colors(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [UInt32]? {
        guard let map, let c = map.pointee.Colors else { return nil }
        return (0..<Int(map.pointee.ColorCount)).map { i in
            UInt32(c[i].Red) | UInt32(c[i].Green) << 8 | UInt32(c[i].Blue) << 16 | 0xFF00_0000
        }
    }
}
