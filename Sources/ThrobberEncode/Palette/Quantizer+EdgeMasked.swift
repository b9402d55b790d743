import ThrobberCodecs
import ThrobberCore

extension Quantizer {
    /// A palette of its own for `image` and the image mapped to it
    /// (`quantizeAndRemap`), dithered at `dither` except next to strong
    /// edges, where the closest palette color is kept (`EdgeMaskedDither`):
    /// how a frame rectangle is quantized for GIF and palette WebP. With
    /// `transparentEntry`, the palette holds clear black.
    func quantizeEdgeMasked(_ image: RGBAImage, transparentEntry: Bool) throws -> (
        indices: [UInt8], colors: [UInt32]
    ) {
        var (indices, colors) = try quantizeAndRemap(image, transparentEntry: transparentEntry)
        if dither > 0 { EdgeMaskedDither.apply(image, &indices, colors: colors) }
        return (indices, colors)
    }
}
