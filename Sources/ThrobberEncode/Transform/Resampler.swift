import CPixman
import Foundation
import ThrobberCore

/// Resizes images with pixman, cairo's pixel backend: a separable
/// convolution (Lanczos-3 or Mitchell) on premultiplied alpha, so colors of
/// transparent pixels never bleed into soft edges, or nearest neighbour.
///
/// Downscaling samples the kernel stretched over the scale factor
/// (impulse reconstruction); upscaling interpolates with it. The two axes
/// are resampled in two passes, each a one-dimensional filter: the same
/// result as pixman's two-dimensional pass within rounding, and 3–4× faster
/// (docs/benchmarks.md).
enum Resampler {
    /// Subpixel positions of the precomputed kernel: 2⁴ = 16 phases.
    static let subsampleBits: Int32 = 4

    /// `layout` applied to `image`: cropped, resampled, placed on the canvas.
    static func apply(_ layout: ResizeLayout, to image: RGBAImage, filter: ResizeFilter) -> RGBAImage {
        if layout.isIdentity(inputWidth: image.width, inputHeight: image.height) { return image }
        let scaled = resample(
            image, source: layout.source, width: layout.scaledWidth, height: layout.scaledHeight,
            filter: filter)
        if layout.canvasWidth == scaled.width && layout.canvasHeight == scaled.height { return scaled }
        var canvas = RGBAImage(width: layout.canvasWidth, height: layout.canvasHeight)
        canvas.draw(scaled, at: layout.offsetX, layout.offsetY, over: false)
        return canvas
    }

    /// The `source` rectangle of `image` resampled to `width`×`height`.
    static func resample(
        _ image: RGBAImage, source: PixelRect, width: Int, height: Int, filter: ResizeFilter
    ) -> RGBAImage {
        // Nearest neighbour never mixes pixels, so it keeps straight alpha
        // exactly; the kernels mix, so they work on premultiplied values.
        var w = source.width
        var h = source.height
        let premultiplied = filter != .nearest && (w != width || h != height)
        var pixels = crop(image, source, premultiply: premultiplied)
        if w == width && h == height {
            return RGBAImage(width: w, height: h, pixels: finish(pixels, premultiplied: premultiplied))
        }
        if filter == .nearest {
            pixels = pass(pixels, w, h, to: width, height, filter: filter)
        } else {
            // Two one-dimensional passes, the cheaper order first. The cost is
            // output pixels × taps, taps growing with the downscale factor.
            func taps(_ from: Int, _ to: Int) -> Int { from == to ? 0 : 6 * max(1, (from + to - 1) / to) }
            let xFirst = width * h * taps(w, width) + width * height * taps(h, height)
            let yFirst = w * height * taps(h, height) + width * height * taps(w, width)
            if xFirst <= yFirst {
                if w != width {
                    pixels = pass(pixels, w, h, to: width, h, filter: filter)
                    w = width
                }
                if h != height {
                    pixels = pass(pixels, w, h, to: w, height, filter: filter)
                    h = height
                }
            } else {
                if h != height {
                    pixels = pass(pixels, w, h, to: w, height, filter: filter)
                    h = height
                }
                if w != width {
                    pixels = pass(pixels, w, h, to: width, h, filter: filter)
                    w = width
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: finish(pixels, premultiplied: premultiplied))
    }

    /// The pixels of `rect` as pixman a8r8g8b8 words (alpha in the top
    /// byte). Its separable convolution is wrong for the byte-order
    /// formats (a8b8g8r8 comes out at 18 dB), so words it is.
    private static func crop(_ image: RGBAImage, _ rect: PixelRect, premultiply: Bool) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: rect.width * rect.height)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var d = 0
                for y in rect.y..<rect.maxY {
                    var s = (y * image.width + rect.x) * 4
                    for _ in 0..<rect.width {
                        let a = UInt32(src[s + 3])
                        var r = UInt32(src[s])
                        var g = UInt32(src[s + 1])
                        var b = UInt32(src[s + 2])
                        if premultiply && a != 255 {
                            // c·a/255, rounded.
                            r = (r * a + 127) / 255
                            g = (g * a + 127) / 255
                            b = (b * a + 127) / 255
                        }
                        dst[d] = a << 24 | r << 16 | g << 8 | b
                        s += 4
                        d += 1
                    }
                }
            }
        }
        return out
    }

    /// Back to straight-alpha R, G, B, A bytes.
    private static func finish(_ words: [UInt32], premultiplied: Bool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: words.count * 4)
        words.withUnsafeBufferPointer { src in
            bytes.withUnsafeMutableBufferPointer { dst in
                for (i, word) in src.enumerated() {
                    let a = word >> 24
                    var r = word >> 16 & 255
                    var g = word >> 8 & 255
                    var b = word & 255
                    if premultiplied && a != 255 {
                        if a == 0 {
                            (r, g, b) = (0, 0, 0)
                        } else {
                            // c·255/a, rounded; a value above its alpha
                            // (kernel overshoot) is clamped.
                            r = min(255, (r * 255 + a / 2) / a)
                            g = min(255, (g * 255 + a / 2) / a)
                            b = min(255, (b * 255 + a / 2) / a)
                        }
                    }
                    dst[4 * i] = UInt8(r)
                    dst[4 * i + 1] = UInt8(g)
                    dst[4 * i + 2] = UInt8(b)
                    dst[4 * i + 3] = UInt8(a)
                }
            }
        }
        return bytes
    }

    /// 16.16 fixed point, rounded (pixman's macro for it truncates).
    private static func fixed(_ value: Double) -> pixman_fixed_t { pixman_fixed_t((value * 65536).rounded()) }

    /// Premultiplied ARGB in native 32-bit words.
    private static let format = PIXMAN_a8r8g8b8

    /// One pixman composite: `w`×`h` → `width`×`height`, where at most one
    /// axis changes for the convolution filters.
    private static func pass(
        _ pixels: [UInt32], _ w: Int, _ h: Int, to width: Int, _ height: Int, filter: ResizeFilter
    ) -> [UInt32] {
        var src = pixels
        var out = [UInt32](repeating: 0, count: width * height)
        src.withUnsafeMutableBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                let source = pixman_image_create_bits(format, Int32(w), Int32(h), s.baseAddress, Int32(w * 4))!
                let dest = pixman_image_create_bits(
                    format, Int32(width), Int32(height), d.baseAddress, Int32(width * 4))!
                defer {
                    pixman_image_unref(source)
                    pixman_image_unref(dest)
                }
                let sx = Double(w) / Double(width)
                let sy = Double(h) / Double(height)
                var transform = pixman_transform()
                pixman_transform_init_scale(&transform, fixed(sx), fixed(sy))
                pixman_image_set_transform(source, &transform)
                pixman_image_set_repeat(source, PIXMAN_REPEAT_PAD)
                if filter == .nearest {
                    pixman_image_set_filter(source, PIXMAN_FILTER_NEAREST, nil, 0)
                } else {
                    let kernel = filter == .mitchell ? PIXMAN_KERNEL_CUBIC : PIXMAN_KERNEL_LANCZOS3
                    /// (reconstruction, sampling) for one axis: the kernel
                    /// sampled over the footprint when shrinking,
                    /// interpolating when growing, a plain copy when equal.
                    func kernels(_ scale: Double) -> (pixman_kernel_t, pixman_kernel_t) {
                        scale > 1
                            ? (PIXMAN_KERNEL_IMPULSE, kernel)
                            : scale < 1 ? (kernel, PIXMAN_KERNEL_IMPULSE) : (PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_IMPULSE)
                    }
                    let (rx, sxk) = kernels(sx)
                    let (ry, syk) = kernels(sy)
                    var count: Int32 = 0
                    let params = pixman_filter_create_separable_convolution(
                        &count, fixed(max(sx, 1)), fixed(max(sy, 1)),
                        rx, ry, sxk, syk, subsampleBits, subsampleBits)!
                    pixman_image_set_filter(source, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, params, count)
                    free(params)
                }
                pixman_image_composite32(
                    PIXMAN_OP_SRC, source, nil, dest, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
            }
        }
        return out
    }
}
