import ThrobberCodecs
import ThrobberCore

// The GIF's lossless palette choice from the colors a census collected.
extension ColorCensus {
    /// The choice for a lossless GIF with palettes of at most `maxColors`,
    /// or nil when some frame needs quantizing. For opaque frames, the
    /// global palette gets a transparent entry (for unchanged pixels) when
    /// there is room and `reservesTransparent`; else each frame takes as
    /// transparent an entry that none of the pixels it changes needs, as
    /// gifsicle does (`GIFFrameWriter.unusedEntry`).
    func lossless(maxColors: Int, fallback: Quantizer) -> PaletteChoice? {
        guard everyFrameFits, mostInAFrame <= maxColors else { return nil }
        guard unionFits, union.count <= maxColors else {
            return .local(
                limit: maxColors, fallback: fallback,
                shared: sharedPalette(maxColors: maxColors) ?? [])
        }
        if union.index(of: 0) == nil, union.count < maxColors, !reservesTransparent {
            // The order without its transparent entry.
            let ordered = order.best(limit: union.count + 1).colors.filter { $0 != 0 }
            let placed = Set(ordered)
            return .global(colors: ordered + union.colors.filter { !placed.contains($0) }, transparentIndex: nil)
        }
        // The palette order (transparent first), so that frames of few
        // colors use low indices; a full union without transparent keeps
        // its own order. Any color the kept frames missed goes last.
        let hasRoom = union.count < maxColors || union.index(of: 0) != nil
        var colors = hasRoom ? order.best(limit: maxColors).colors : union.colors
        let placed = Set(colors)
        colors += union.colors.filter { !placed.contains($0) }
        return .global(colors: colors, transparentIndex: colors.firstIndex(of: 0))
    }

    /// Whether an opaque animation's global palette gets a transparent
    /// entry: not for a still (nothing to keep); where it fits in the
    /// table as it is, always; where it doubles the table, only when some
    /// frame changes pixels of every color (it could not take an unused
    /// entry) and the codes stay as wide (2, 3 colors: the 2-bit minimum).
    /// A wider code costs every pixel a bit, more than a frame drawn whole.
    private var reservesTransparent: Bool {
        guard distinctFrames > 1 else { return false }
        let n = union.count
        if GIFWriter.colorTableBytes(n + 1) == GIFWriter.colorTableBytes(n) { return true }
        return mostInAChange >= n && GIFWriter.codeBits(n - 1) == GIFWriter.codeBits(n)
    }

    /// The palette orders of the frames kept (`frameColors`).
    private var order: PaletteOrder {
        PaletteOrder(frames: frameColors, areas: frameAreas, disposed: frameDisposed)
    }

    /// A global palette for frames that have local ones, as gifsicle merges
    /// colormaps: the best ``PaletteOrder`` up to `maxColors`, with or
    /// without a transparent entry (`maxColors` colors then: two frames of
    /// 256 colors, the same, can share it). Nil when the
    /// local tables of the frames it holds whole do not outweigh its own
    /// table. The writer then decides frame by frame, by encoded size,
    /// whether a frame that fits uses it.
    func sharedPalette(maxColors: Int) -> [UInt32]? {
        let (shared, saved) = order.best(limit: maxColors, opaque: true)
        return saved > GIFWriter.colorTableBytes(shared.count) ? shared : nil
    }

    /// Counts colors over all frames (stopping early once some change alone
    /// has too many) and returns the lossless choice, if there is one.
    static func survey(_ frames: inout FrameLoader, maxColors: Int, fallback: Quantizer) throws -> PaletteChoice? {
        var census = ColorCensus()
        var previous: RGBAImage? = nil
        try frames.scan { _, image in
            defer { previous = image }
            return census.add(image, after: previous)
        }
        return census.lossless(maxColors: maxColors, fallback: fallback)
    }
}
