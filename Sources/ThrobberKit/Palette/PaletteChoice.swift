/// How a GIF gets its colors.
enum PaletteChoice {
    /// Every frame together fits in the palette: one exact global palette.
    case global(colors: [UInt32], transparentIndex: Int?)
    /// What each frame redraws fits in a palette of `limit` colors: exact
    /// local palettes (a frame whose redrawn rectangle grows past that, to
    /// clear pixels for the next one, is quantized with `fallback`).
    case local(limit: Int, fallback: Quantizer)
    /// libimagequant, per frame.
    case quantized(Quantizer)

    var summary: String {
        switch self {
        case .global(let colors, _): return "lossless, one palette of \(colors.count) colors"
        case .local: return "lossless, a palette per frame"
        case .quantized(let q): return "quantized with libimagequant (quality \(q.quality), up to \(q.colors) colors)"
        }
    }
}

/// Collects the colors of prepared frames to decide whether the GIF can be
/// lossless.
struct ColorCensus {
    private(set) var union = ColorTable(limit: 256)
    private(set) var unionFits = true
    private(set) var everyFrameFits = true
    /// Most colors any single frame has.
    private(set) var mostInAFrame = 0

    /// Adds a frame, given the one before it: what matters for local
    /// palettes is the part that changed (GIFs of many colors in all often
    /// change few at a time). Returns false once a change alone has over 256
    /// colors (nothing more to learn then).
    mutating func add(_ frame: RGBAImage, after previous: RGBAImage?) -> Bool {
        let full = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let changed = previous.map { FrameDiff.changedRect(frame, $0) } ?? full
        var own = ColorTable(limit: 256)
        guard changed.isEmpty || own.insertColors(of: frame, in: changed) else {
            everyFrameFits = false
            return false
        }
        mostInAFrame = max(mostInAFrame, own.count)
        // Outside the changed rectangle the frame is the previous one, whose
        // colors the union has: its own colors are all the union can gain,
        // in the same order of first appearance as over the whole frame.
        if unionFits {
            for c in own.colors where !union.insert(c) { unionFits = false; break }
        }
        return true
    }

    /// The choice for a lossless GIF with palettes of at most `maxColors`,
    /// or nil when some frame needs quantizing. A transparent entry is added
    /// to the global palette when there is room (for unchanged pixels).
    func lossless(maxColors: Int, fallback: Quantizer) -> PaletteChoice? {
        guard everyFrameFits, mostInAFrame <= maxColors else { return nil }
        guard unionFits, union.count <= maxColors else { return .local(limit: maxColors, fallback: fallback) }
        var colors = union.colors
        var transparent = union.index(of: 0)
        if transparent == nil && colors.count < maxColors {
            colors.append(0)
            transparent = colors.count - 1
        }
        return .global(colors: colors, transparentIndex: transparent)
    }
}
