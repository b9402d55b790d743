import ThrobberCodecs
import ThrobberCore

/// Palette APNG: maps frames to one shared palette. Each frame is remapped
/// with the previous (already reduced) frame as libimagequant's background,
/// so pixels it approximates well keep their old value and do not shimmer.
struct PaletteReducer {
    let quantizer: Quantizer
    let palette: Quantizer.Palette
    /// The palette as packed RGBA (fully transparent entries as 0).
    let colors: [UInt32]
    private let transparent: Int?

    init(quantizer: Quantizer, palette: Quantizer.Palette, first: RGBAImage) throws {
        self.quantizer = quantizer
        self.palette = palette
        // libimagequant settles the palette on the first remap.
        let (_, colors) = try quantizer.remap(first, to: palette, background: nil)
        self.colors = colors.map { $0 >> 24 == 0 ? 0 : $0 }
        transparent = self.colors.firstIndex(of: 0)
    }

    /// `image` in palette colors (as RGBA), given the previous reduced frame.
    func reduce(_ image: RGBAImage, after previous: RGBAImage?) throws -> RGBAImage {
        let (indices, now) = try quantizer.remap(image, to: palette, background: previous)
        guard now.map({ $0 >> 24 == 0 ? 0 : $0 }) == colors else {
            throw ThrobberError(.software, "libimagequant changed the shared palette between frames")
        }
        // "Keep" (the transparent entry on a visible pixel): what the viewer
        // already shows there.
        var out = previous?.pixels ?? [UInt8](repeating: 0, count: image.pixels.count)
        out.withUnsafeMutableBytes { oRaw in
            image.pixels.withUnsafeBytes { sRaw in
                let o = oRaw.bindMemory(to: UInt32.self)
                let src = sRaw.bindMemory(to: UInt32.self)
                for i in indices.indices {
                    let index = Int(indices[i])
                    if index == transparent && previous != nil && UInt32(littleEndian: src[i]) >> 24 != 0 { continue }
                    o[i] = UInt32(littleEndian: colors[index])
                }
            }
        }
        return RGBAImage(width: image.width, height: image.height, pixels: out)
    }
}
