import ThrobberCodecs
import ThrobberCore

extension Quantizer {
    /// A frame rectangle mapped to its own palette.
    struct Remapped: Sendable {
        var indices: [UInt8]
        /// Packed RGBA; alpha ignored except to find the transparent entry.
        var colors: [UInt32]
        var transparent: Int?
        /// Whether `colors` is the global table (a shared palette): the
        /// frame then has no table of its own.
        var global = false
    }

    /// Palette search and remap of a planned frame's rectangle: independent
    /// of every other frame, so frames are quantized in parallel.
    func quantize(_ f: PlannedFrame) throws -> Remapped {
        let crop = FrameDiff.crop(f.target, f.geometry.rect)
        var (indices, colors) = try quantizeEdgeMasked(
            crop, transparentEntry: f.index > 0 || crop.hasTransparency || f.geometry.disposal == .background)
        // GIF has no partial alpha: entries libimagequant made from the
        // transparent pixels (alpha < 50%) all mean "transparent".
        let transparent = colors.firstIndex { $0 >> 24 < 128 }
        if let transparent, colors.indices.contains(where: { $0 != transparent && colors[$0] >> 24 < 128 }) {
            let lookup = colors.indices.map { UInt8(colors[$0] >> 24 < 128 ? transparent : $0) }
            for i in indices.indices { indices[i] = lookup[Int(indices[i])] }
        }
        return Remapped(indices: indices, colors: colors, transparent: transparent)
    }

    /// A planned frame's rectangle mapped to the shared palette `colors`
    /// (the global table; `palette` holds exactly those entries, fixed),
    /// dithered as `quantize` dithers.
    func remap(_ f: PlannedFrame, to palette: Palette, colors: [UInt32]) throws -> Remapped {
        let crop = FrameDiff.crop(f.target, f.geometry.rect)
        var (indices, own) = try remap(crop, to: palette, background: nil)
        // libimagequant may order the entries its own way: its indices are
        // turned into the global table's, by color.
        if own != colors {
            var first: [UInt32: Int] = [:]
            for (i, c) in colors.enumerated().reversed() { first[c] = i }
            guard own.allSatisfy({ first[$0] != nil }) else {
                throw ThrobberError(.software, "libimagequant added a color to the shared palette")
            }
            let lookup = own.map { UInt8(first[$0]!) }
            for i in indices.indices { indices[i] = lookup[Int(indices[i])] }
        }
        if dither > 0 { EdgeMaskedDither.apply(crop, &indices, colors: colors) }
        let transparent = colors.firstIndex { $0 >> 24 < 128 }
        if let transparent, colors.indices.contains(where: { $0 != transparent && colors[$0] >> 24 < 128 }) {
            let lookup = colors.indices.map { UInt8(colors[$0] >> 24 < 128 ? transparent : $0) }
            for i in indices.indices { indices[i] = lookup[Int(indices[i])] }
        }
        return Remapped(indices: indices, colors: colors, transparent: transparent, global: true)
    }
}
