/// GIF has one transparent index and no partial alpha. This decides what a
/// partially transparent pixel becomes: alpha ≥ 50% is opaque, the rest is
/// transparent. With a matte, partial alpha is first composited onto the
/// matte color (which makes it opaque), so anti-aliased edges and faded
/// parts look as they would on a page of that color, with no dark fringe;
/// only fully transparent pixels stay transparent.
public struct AlphaPolicy: Equatable, Sendable {
    /// The page color partial alpha is composited onto (its own alpha is
    /// ignored); nil: threshold alpha at 50% instead.
    public var matte: Color?

    /// Thresholds alpha at 50%, or composites onto `matte` when given.
    public init(matte: Color? = nil) { self.matte = matte }

    /// Rewrites `image` so every alpha is 0 or 255 and every transparent
    /// pixel is 0,0,0,0 (so equal-looking pixels are equal bytes).
    public func apply(to image: inout RGBAImage) {
        let matte = self.matte
        image.pixels.withUnsafeMutableBufferPointer { px in
            var i = 0
            while i < px.count {
                let a = Int(px[i + 3])
                if a == 255 {
                    // opaque already
                } else if let m = matte, a > 0 {
                    let inv = 255 - a
                    px[i] = UInt8((Int(px[i]) * a + Int(m.r) * inv + 127) / 255)
                    px[i + 1] = UInt8((Int(px[i + 1]) * a + Int(m.g) * inv + 127) / 255)
                    px[i + 2] = UInt8((Int(px[i + 2]) * a + Int(m.b) * inv + 127) / 255)
                    px[i + 3] = 255
                } else if a < 128 {
                    px[i] = 0
                    px[i + 1] = 0
                    px[i + 2] = 0
                    px[i + 3] = 0
                } else {
                    px[i + 3] = 255
                }
                i += 4
            }
        }
    }
}

extension RGBAImage {
    /// Sets the color of fully transparent pixels to 0,0,0,0: they look the
    /// same, so they should compare and compress the same.
    package mutating func clearInvisibleColor() {
        pixels.withUnsafeMutableBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for i in px.indices where UInt32(littleEndian: px[i]) >> 24 == 0 { px[i] = 0 }
        }
    }

    /// True when no pixel has alpha below 255.
    package var isOpaque: Bool {
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return false }
            i += 4
        }
        return true
    }
}
