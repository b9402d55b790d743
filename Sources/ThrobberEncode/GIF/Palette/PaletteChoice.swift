import ThrobberCodecs
import ThrobberCore

/// How a GIF gets its colors.
enum PaletteChoice: Sendable {
    /// Every frame together fits in the palette: one exact global palette.
    case global(colors: [UInt32], transparentIndex: Int?)
    /// What each frame redraws fits in a palette of `limit` colors: exact
    /// local palettes (a frame whose redrawn rectangle grows past that, to
    /// clear pixels for the next one, is quantized with `fallback`).
    /// `shared`, when not empty, is a global palette of the colors most
    /// frames use (transparent first): a frame whose colors it all holds is
    /// written with it, without a table of its own, when that is smaller.
    case local(limit: Int, fallback: Quantizer, shared: [UInt32])
    /// libimagequant, per frame.
    case quantized(Quantizer)
    /// libimagequant, one palette for every frame (`colors`, packed RGBA,
    /// the global table, opaque but for the entry at `transparentIndex`):
    /// chosen from all frames' colors together, each frame remapped to it
    /// by libimagequant, or by `mapper` when there is one
    /// (`--compression fast`).
    case sharedQuantized(Quantizer, colors: [UInt32], transparentIndex: Int?, mapper: PaletteMapper?)

    var summary: String {
        switch self {
        case .global(let colors, _): return "lossless, one palette of \(colors.count) colors"
        case .local: return "lossless, a palette per frame"
        case .quantized(let q): return "quantized with libimagequant (quality \(q.quality), up to \(q.colors) colors)"
        case .sharedQuantized(let q, let colors, _, _):
            return "quantized with libimagequant to one palette of \(colors.count) colors (quality \(q.quality))"
        }
    }
}
