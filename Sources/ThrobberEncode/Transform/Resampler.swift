import CPixman
import ThrobberCore

/// Resizes images with well-kept libraries: libswscale (FFmpeg's scaler)
/// for the Lanczos-3 and Mitchell kernels, on premultiplied alpha so colors
/// of transparent pixels never bleed into soft edges; pixman (cairo's pixel
/// backend) for nearest neighbour, which it does exactly.
///
/// libswscale runs bit-exact (`SWS_BITEXACT`, so the bytes do not depend on
/// the processor's SIMD) with accurate rounding: 55 dB from ImageMagick's
/// Lanczos on testsrc2 1280x720 → 480x270, and 7× faster than pixman's
/// separable convolution (two 1-D passes), which reaches 53 dB
/// (docs/tuning.md, "Resampling with libswscale"). Its point sampling is
/// not exact (alpha drifts by one), hence pixman for nearest.
enum Resampler {
    /// `layout` applied to `image`: cropped, resampled, placed on the canvas.
    static func apply(_ layout: ResizeLayout, to image: RGBAImage, filter: ResizeFilter) throws -> RGBAImage {
        if layout.isIdentity(inputWidth: image.width, inputHeight: image.height) { return image }
        let scaled = try resample(
            image, source: layout.source, width: layout.scaledWidth, height: layout.scaledHeight, filter: filter)
        if layout.canvasWidth == scaled.width && layout.canvasHeight == scaled.height { return scaled }
        var canvas = RGBAImage(width: layout.canvasWidth, height: layout.canvasHeight)
        canvas.draw(scaled, at: layout.offsetX, layout.offsetY, over: false)
        return canvas
    }

    /// The `source` rectangle of `image` resampled to `width`×`height`.
    static func resample(
        _ image: RGBAImage, source: PixelRect, width: Int, height: Int, filter: ResizeFilter
    ) throws -> RGBAImage {
        // A crop alone copies the pixels exactly; nearest never mixes pixels,
        // so it keeps straight alpha exactly.
        if source.width == width && source.height == height { return FrameDiff.crop(image, source) }
        if filter == .nearest { return nearest(FrameDiff.crop(image, source), width: width, height: height) }
        return try Swscale.resample(image, source: source, width: width, height: height, filter: filter)
    }

    /// 16.16 fixed point, rounded (pixman's macro for it truncates).
    private static func fixed(_ value: Double) -> pixman_fixed_t { pixman_fixed_t((value * 65536).rounded()) }

    /// R, G, B, A bytes in memory order, as pixman names the format.
    private static var byteOrder: pixman_format_code_t {
        #if _endian(little)
            PIXMAN_a8b8g8r8
        #else
            PIXMAN_r8g8b8a8
        #endif
    }

    /// `image` scaled to `width`×`height` by one nearest-neighbour pixman
    /// composite: destination pixel centers map to source positions, so
    /// whole-number factors repeat every pixel exactly.
    private static func nearest(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        var src = image.pixels
        var out = [UInt8](repeating: 0, count: width * height * 4)
        src.withUnsafeMutableBytes { s in
            out.withUnsafeMutableBytes { d in
                let source = pixman_image_create_bits(
                    byteOrder, Int32(image.width), Int32(image.height),
                    s.baseAddress!.assumingMemoryBound(to: UInt32.self),
                    Int32(image.width * 4))!
                let dest = pixman_image_create_bits(
                    byteOrder, Int32(width), Int32(height), d.baseAddress!.assumingMemoryBound(to: UInt32.self),
                    Int32(width * 4))!
                defer {
                    pixman_image_unref(source)
                    pixman_image_unref(dest)
                }
                var transform = pixman_transform()
                pixman_transform_init_scale(
                    &transform, fixed(Double(image.width) / Double(width)), fixed(Double(image.height) / Double(height))
                )
                pixman_image_set_transform(source, &transform)
                pixman_image_set_repeat(source, PIXMAN_REPEAT_PAD)
                pixman_image_set_filter(source, PIXMAN_FILTER_NEAREST, nil, 0)
                pixman_image_composite32(
                    PIXMAN_OP_SRC, source, nil, dest, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }
}
