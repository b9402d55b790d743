import ThrobberCodecs
import ThrobberCore

/// Pixels of a frame's rectangle in the layouts APNG frames are written in.
enum APNGRects {
    /// The rectangle's pixels as RGBA (`bpp` 4) or RGB (3) rows.
    static func pixels(_ image: RGBAImage, _ rect: PixelRect, bpp: Int) -> [UInt8] {
        if bpp == 4 { return FrameDiff.crop(image, rect).pixels }
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * bpp)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var o = 0
                for y in rect.y..<rect.maxY {
                    var i = (y * image.width + rect.x) * 4
                    for _ in 0..<rect.width {
                        dst[o] = src[i]
                        dst[o + 1] = src[i + 1]
                        dst[o + 2] = src[i + 2]
                        o += 3
                        i += 4
                    }
                }
            }
        }
        return out
    }

    /// The rectangle for blend OVER: unchanged pixels transparent, changed
    /// ones as they are. Nil when OVER cannot give the exact result (a
    /// changed pixel that is not opaque lands on a pixel that is not clear).
    static func overPixels(_ image: RGBAImage, over canvas: RGBAImage, _ rect: PixelRect) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let ok = image.pixels.withUnsafeBytes { tRaw in
            canvas.pixels.withUnsafeBytes { cRaw in
                out.withUnsafeMutableBytes { oRaw -> Bool in
                    let t = tRaw.bindMemory(to: UInt32.self)
                    let c = cRaw.bindMemory(to: UInt32.self)
                    let o = oRaw.bindMemory(to: UInt32.self)
                    var k = 0
                    for y in rect.y..<rect.maxY {
                        for x in rect.x..<rect.maxX {
                            let p = t[y * image.width + x]
                            let q = c[y * image.width + x]
                            if p != q {
                                if UInt32(littleEndian: p) >> 24 != 255 && UInt32(littleEndian: q) >> 24 != 0 {
                                    return false
                                }
                                o[k] = p
                            }
                            k += 1
                        }
                    }
                    return true
                }
            }
        }
        return ok ? out : nil
    }
}
