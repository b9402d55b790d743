/// An 8-bit RGBA image with straight (not premultiplied) alpha, rows top to
/// bottom, no padding. The one pixel format every stage speaks.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels, at least 1.
    public let width: Int
    /// Height in pixels, at least 1.
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A.
    public var pixels: [UInt8]

    /// Wraps `pixels` (rows top to bottom, R, G, B, A per pixel). Traps
    /// unless both sides are at least 1 and `pixels` holds exactly
    /// `width * height * 4` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A fully transparent image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// An image filled with one color.
    public init(width: Int, height: Int, fill: Color) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = fill.r
            pixels[i + 1] = fill.g
            pixels[i + 2] = fill.b
            pixels[i + 3] = fill.a
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// Draws `src` (straight alpha) at (x, y): copying when `over` is false,
    /// else compositing over what is there (Porter-Duff OVER).
    public mutating func draw(_ src: RGBAImage, at x0: Int, _ y0: Int, over: Bool) {
        let w = width
        pixels.withUnsafeMutableBufferPointer { dst in
            src.pixels.withUnsafeBufferPointer { s in
                for y in 0..<src.height {
                    for x in 0..<src.width {
                        let si = (y * src.width + x) * 4
                        let di = ((y0 + y) * w + x0 + x) * 4
                        let sa = Int(s[si + 3])
                        if !over || sa == 255 {
                            dst[di] = s[si]
                            dst[di + 1] = s[si + 1]
                            dst[di + 2] = s[si + 2]
                            dst[di + 3] = s[si + 3]
                            continue
                        }
                        if sa == 0 { continue }
                        let da = Int(dst[di + 3])
                        // out alpha = sa + da(1 − sa); colors weighted likewise (in 0…255·255).
                        let oa = sa * 255 + da * (255 - sa)
                        for c in 0..<3 {
                            let v = (Int(s[si + c]) * sa * 255 + Int(dst[di + c]) * da * (255 - sa) + oa / 2) / oa
                            dst[di + c] = UInt8(min(255, v))
                        }
                        dst[di + 3] = UInt8((oa + 127) / 255)
                    }
                }
            }
        }
    }

    /// The pixel at (x, y) packed as 0xAABBGGRR (little-endian RGBA bytes).
    @inline(__always)
    public func pixel(_ x: Int, _ y: Int) -> UInt32 {
        let i = (y * width + x) * 4
        return UInt32(pixels[i]) | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2]) << 16 | UInt32(pixels[i + 3])
            << 24
    }

    /// Runs `body` with the pixels as packed 0xAABBGGRR words, row by row
    /// (the bytes R, G, B, A read as one little-endian word).
    @inline(__always)
    package func withPackedPixels<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try pixels.withUnsafeBytes { try body($0.bindMemory(to: UInt32.self)) }
    }

    /// `withPackedPixels`, writable.
    @inline(__always)
    package mutating func withMutablePackedPixels<R>(
        _ body: (UnsafeMutableBufferPointer<UInt32>) throws -> R
    ) rethrows -> R {
        try pixels.withUnsafeMutableBytes { try body($0.bindMemory(to: UInt32.self)) }
    }

    /// `withPackedPixels` of three images at once.
    package static func withPackedPixels<R>(
        _ a: RGBAImage, _ b: RGBAImage, _ c: RGBAImage,
        _ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>) throws -> R
    ) rethrows -> R {
        try a.withPackedPixels { pa in
            try b.withPackedPixels { pb in try c.withPackedPixels { pc in try body(pa, pb, pc) } }
        }
    }

    /// Whether some pixel is fully transparent.
    package var hasTransparency: Bool {
        var i = 3
        while i < pixels.count {
            if pixels[i] == 0 { return true }
            i += 4
        }
        return false
    }
}
