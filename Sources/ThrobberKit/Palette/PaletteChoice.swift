/// How a GIF gets its colors.
enum PaletteChoice {
    /// Every frame together fits in 256 colors: one exact global palette.
    case global(colors: [UInt32], transparentIndex: Int?)
    /// Each frame fits in 256 colors on its own: exact local palettes.
    case local
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

    /// Adds a frame; returns false once some frame alone has over 256 colors
    /// (nothing more to learn then).
    mutating func add(_ frame: RGBAImage) -> Bool {
        var own = ColorTable(limit: 256)
        guard own.insertColors(of: frame, in: PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)) else {
            everyFrameFits = false
            return false
        }
        if unionFits {
            for c in own.colors where !union.insert(c) { unionFits = false; break }
        }
        return true
    }

    /// The choice for a lossless GIF, or nil when some frame needs quantizing.
    var lossless: PaletteChoice? {
        guard everyFrameFits else { return nil }
        guard unionFits else { return .local }
        var colors = union.colors
        var transparent = union.index(of: 0)
        if transparent == nil && colors.count < 256 {
            colors.append(0)
            transparent = colors.count - 1
        }
        return .global(colors: colors, transparentIndex: transparent)
    }
}
