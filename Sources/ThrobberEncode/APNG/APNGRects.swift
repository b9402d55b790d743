import ThrobberCodecs
import ThrobberCore

/// A frame's rectangle for blend OVER.
enum APNGRects {
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
