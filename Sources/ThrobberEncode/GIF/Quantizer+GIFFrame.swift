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

    /// A planned frame's rectangle mapped to a shared palette (the global
    /// table), dithered as `quantize` dithers: error diffusion, except
    /// next to strong edges.
    func remap(_ f: PlannedFrame, with mapper: PaletteMapper) -> Remapped {
        let crop = FrameDiff.crop(f.target, f.geometry.rect)
        var indices = mapper.map(crop, dither: dither)
        if dither > 0 { EdgeMaskedDither.apply(crop, &indices, colors: mapper.colors) }
        return Remapped(indices: indices, colors: mapper.colors, transparent: mapper.transparent, global: true)
    }

    /// A planned frame's rectangle mapped to the shared palette `colors`
    /// (the global table: opaque entries and, at `transparent`, at most one
    /// clear one; `palette` holds exactly those entries, fixed), dithered
    /// as `quantize` dithers.
    func remap(_ f: PlannedFrame, to palette: Palette, colors: [UInt32], transparent: Int?) throws -> Remapped {
        let crop = FrameDiff.crop(f.target, f.geometry.rect)
        var (indices, own) = try remap(crop, to: palette, background: nil)
        // libimagequant orders the entries its own way (and could round
        // one by a level on its way through its own color space): each of
        // its entries is turned into the global table's nearest, of the
        // same transparency.
        if own != colors {
            let lookup = own.map { UInt8(Self.nearest($0, in: colors)) }
            for i in indices.indices { indices[i] = lookup[Int(indices[i])] }
        }
        if dither > 0 { EdgeMaskedDither.apply(crop, &indices, colors: colors) }
        return Remapped(indices: indices, colors: colors, transparent: transparent, global: true)
    }

    /// The entry of `colors` equal to `color`, else the nearest by RGB
    /// among those as clear or opaque as it is (alpha under 50 % or not).
    private static func nearest(_ color: UInt32, in colors: [UInt32]) -> Int {
        if let same = colors.firstIndex(of: color) { return same }
        let clear = color >> 24 < 128
        let alike = colors.indices.filter { (colors[$0] >> 24 < 128) == clear }
        let pool = alike.isEmpty ? Array(colors.indices) : alike
        return pool.min { ColorTable.distance(color, colors[$0]) < ColorTable.distance(color, colors[$1]) }!
    }
}
