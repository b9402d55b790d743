/// Pixel comparisons between whole frames.
package enum FrameDiff {
    /// Bounding box of the pixels that differ between two same-size images.
    package static func changedRect(_ a: RGBAImage, _ b: RGBAImage) -> PixelRect {
        boundingBox(width: a.width, height: a.height, a, b) { $0 != $1 }
    }

    /// Bounding box of the pixels that differ from `image`'s top-left
    /// pixel (any two fully transparent pixels counting as the same): what
    /// is drawn on a plain or transparent background; empty for a frame of
    /// one color.
    package static func contentBox(_ image: RGBAImage) -> PixelRect {
        let corner = image.pixels.withUnsafeBytes { $0.load(as: UInt32.self) }
        let clear = corner >> 24 == 0
        return boundingBox(width: image.width, height: image.height, image, image) { c, _ in
            clear ? c >> 24 != 0 : c != corner
        }
    }

    /// Bounding box of pixels opaque in `current` but transparent in `next`.
    package static func rectToClear(_ current: RGBAImage, before next: RGBAImage) -> PixelRect {
        boundingBox(width: current.width, height: current.height, current, next) { c, n in
            c >> 24 != 0 && n >> 24 == 0
        }
    }

    /// Makes `rect` of `image` transparent.
    package static func clear(_ image: inout RGBAImage, _ rect: PixelRect) {
        let w = image.width
        image.pixels.withUnsafeMutableBufferPointer { px in
            for y in rect.y..<rect.maxY {
                let start = (y * w + rect.x) * 4
                for i in start..<(start + rect.width * 4) { px[i] = 0 }
            }
        }
    }

    private static func boundingBox(
        width: Int, height: Int, _ a: RGBAImage, _ b: RGBAImage,
        _ differs: (UInt32, UInt32) -> Bool
    ) -> PixelRect {
        a.pixels.withUnsafeBytes { ra in
            b.pixels.withUnsafeBytes { rb in
                let pa = ra.bindMemory(to: UInt32.self)
                let pb = rb.bindMemory(to: UInt32.self)
                var minX = width
                var maxX = -1
                var minY = height
                var maxY = -1
                for y in 0..<height {
                    let row = y * width
                    var x = 0
                    while x < width && !differs(pa[row + x], pb[row + x]) { x += 1 }
                    if x == width { continue }
                    var r = width - 1
                    while !differs(pa[row + r], pb[row + r]) { r -= 1 }
                    minY = min(minY, y)
                    maxY = y
                    minX = min(minX, x)
                    maxX = max(maxX, r)
                }
                if maxY < 0 { return .empty }
                return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
            }
        }
    }

    /// The pixels of `rect` as a new image.
    package static func crop(_ image: RGBAImage, _ rect: PixelRect) -> RGBAImage {
        if rect.x == 0 && rect.y == 0 && rect.width == image.width && rect.height == image.height { return image }
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let rowBytes = rect.width * 4
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<rect.height {
                    let s = ((rect.y + y) * image.width + rect.x) * 4
                    (dst.baseAddress! + y * rowBytes).update(from: src.baseAddress! + s, count: rowBytes)
                }
            }
        }
        return RGBAImage(width: rect.width, height: rect.height, pixels: out)
    }

    /// Copies `rect` of `source` into the same place in `image`.
    package static func paste(_ source: RGBAImage, _ rect: PixelRect, into image: inout RGBAImage) {
        let w = image.width
        let rowBytes = rect.width * 4
        source.pixels.withUnsafeBufferPointer { src in
            image.pixels.withUnsafeMutableBufferPointer { dst in
                for y in rect.y..<rect.maxY {
                    let o = (y * w + rect.x) * 4
                    (dst.baseAddress! + o).update(from: src.baseAddress! + o, count: rowBytes)
                }
            }
        }
    }
}
