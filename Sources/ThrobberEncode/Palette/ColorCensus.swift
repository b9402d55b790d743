import ThrobberCodecs
import ThrobberCore

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
            for c in own.colors where !union.insert(c) {
                unionFits = false
                break
            }
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
