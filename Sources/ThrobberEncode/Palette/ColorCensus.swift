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
    /// Frames that differ from the one before (the first included).
    private(set) var distinctFrames = 0
    /// Most colors the changed pixels of any frame after the first have.
    private(set) var mostInAChange = 0
    /// Each frame's colors (of the rectangle it changes), for ordering the
    /// palette and choosing a shared one; forgotten once they pass
    /// ``sharingColors`` in all, to bound memory.
    private var frameColors: [[UInt32]] = []
    /// The pixels of each of those rectangles.
    private var frameAreas: [Int] = []
    /// Whether each of those frames is cleared for the next one (some pixel
    /// it shows turns transparent there), so the writer disposes of it.
    /// The last frame counts as cleared: the loop starts over from the
    /// first frame.
    private var frameDisposed: [Bool] = []
    /// Colors seen over all frames, each frame's counted once.
    private var keptColors = 0
    /// Most colors kept over all frames (a frame's colors count once per
    /// frame): 1 MB of them, and at most a few times that while the palette
    /// is ordered. 1,000 frames of 256 colors, or 2,600 of 100, fit.
    static let sharingColors = 1 << 18

    /// Adds a frame, given the one before it: what matters for local
    /// palettes is the pixels that changed (GIFs of many colors in all
    /// often change few at a time, and an input GIF's frames each have at
    /// most 256 colors besides the pixels they leave transparent). Returns
    /// false once a change alone has over 256 colors (nothing more to learn
    /// then).
    mutating func add(_ frame: RGBAImage, after previous: RGBAImage?) -> Bool {
        let full = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let changed = previous.map { FrameDiff.changedRect(frame, $0) } ?? full
        if !changed.isEmpty { distinctFrames += 1 }
        // The colors the frame needs: where the previous frame stays on
        // screen (nothing of it turns transparent, so the planner does not
        // dispose of it), those of the pixels that change, the others left
        // transparent; else those of the changed rectangle, which the
        // writer draws whole where a disposal cleared it, or if they are
        // too many, again those of the changed pixels.
        let previousStays = previous.map { FrameDiff.rectToClear($0, before: frame).isEmpty } ?? false
        var own = ColorTable(limit: 256)
        var fits =
            changed.isEmpty
            || own.insertColors(of: frame, in: changed, changedFrom: previousStays ? previous : nil)
        if !fits, !previousStays, let previous {
            own = ColorTable(limit: 256)
            fits = own.insertColors(of: frame, in: changed, changedFrom: previous)
        }
        guard fits else {
            everyFrameFits = false
            return false
        }
        mostInAFrame = max(mostInAFrame, own.count)
        if previous != nil { mostInAChange = max(mostInAChange, own.count) }
        keptColors += own.count
        if keptColors <= Self.sharingColors {
            if previous != nil, !frameDisposed.isEmpty { frameDisposed[frameDisposed.count - 1] = !previousStays }
            frameColors.append(own.colors)
            frameAreas.append(changed.width * changed.height)
            frameDisposed.append(true)
        } else if !frameColors.isEmpty {
            frameColors = []
            frameAreas = []
            frameDisposed = []
        }
        // Where the frame equals the previous one, the union has its colors:
        // the changed pixels' are all it can gain, in the same order of
        // first appearance as over the whole frame.
        if unionFits {
            for c in own.colors where !union.insert(c) {
                unionFits = false
                break
            }
        }
        return true
    }

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
