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
    /// Each frame's colors (of the rectangle it changes), for ordering the
    /// palette and choosing a shared one; forgotten once they pass
    /// ``sharingColors`` in all, to bound memory.
    private var frameColors: [[UInt32]] = []
    /// Colors seen over all frames, each frame's counted once.
    private var keptColors = 0
    /// Most colors kept over all frames (a frame's colors count once per
    /// frame): 1 MB of them, and at most a few times that while the palette
    /// is ordered. 1,000 frames of 256 colors, or 2,600 of 100, fit.
    static let sharingColors = 1 << 18

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
        keptColors += own.count
        if keptColors <= Self.sharingColors {
            frameColors.append(own.colors)
        } else if !frameColors.isEmpty {
            frameColors = []
        }
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
        guard unionFits, union.count <= maxColors else {
            return .local(
                limit: maxColors, fallback: fallback,
                shared: Self.sharedPalette(frameColors, maxColors: maxColors) ?? [])
        }
        // The coverage order (transparent first), so that frames of few
        // colors use low indices; a full union without transparent keeps
        // its own order. Any color the kept frames missed goes last.
        let hasRoom = union.count < maxColors || union.index(of: 0) != nil
        var colors = hasRoom ? Self.coverage(frameColors, limit: maxColors).colors : union.colors
        let placed = Set(colors)
        colors += union.colors.filter { !placed.contains($0) }
        return .global(colors: colors, transparentIndex: colors.firstIndex(of: 0))
    }

    /// Colors in the order that holds the most frames whole in the fewest
    /// entries: transparent first, then, again and again, the colors of the
    /// frame that needs the fewest new ones (ties: the frame with more
    /// colors, then the earlier), until a frame would pass `limit`. Frames
    /// that use only the first 2^k entries can have k-bit LZW codes
    /// (GIFWriter) and, with a shared palette, no table of their own.
    /// Returns the colors and the bytes of the local tables of the frames
    /// held whole.
    static func coverage(_ frames: [[UInt32]], limit: Int) -> (colors: [UInt32], savedBytes: Int) {
        var framesOf: [UInt32: [Int]] = [:]
        var missing = [Int](repeating: 0, count: frames.count)
        for (f, colors) in frames.enumerated() {
            for c in colors where c != 0 {
                framesOf[c, default: []].append(f)
                missing[f] += 1
            }
        }
        var order: [UInt32] = [0]
        var held: Set<UInt32> = [0]
        var done = [Bool](repeating: false, count: frames.count)
        var saved = 0
        // Each pass takes every frame already held whole and picks the next
        // one to add: at most `limit` passes, each one look at every frame.
        while true {
            var pick = -1
            for f in frames.indices where !done[f] {
                if missing[f] == 0 {
                    done[f] = true
                    saved += GIFWriter.colorTableBytes(frames[f].count + 1)
                } else if pick < 0 || missing[f] < missing[pick]
                    || (missing[f] == missing[pick] && frames[f].count > frames[pick].count)
                {
                    pick = f
                }
            }
            guard pick >= 0, order.count + missing[pick] <= limit else { break }
            for c in frames[pick] where held.insert(c).inserted {
                order.append(c)
                for g in framesOf[c, default: []] { missing[g] -= 1 }
            }
        }
        return (order, saved)
    }

    /// A global palette for frames that have local ones, as gifsicle merges
    /// colormaps: the ``coverage(_:limit:)`` order up to `maxColors`. Nil
    /// when the local tables of the frames it holds whole do not outweigh
    /// its own table. The writer then decides frame by frame, by encoded
    /// size, whether a frame that fits uses it.
    static func sharedPalette(_ frames: [[UInt32]], maxColors: Int) -> [UInt32]? {
        let (shared, saved) = coverage(frames, limit: maxColors)
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
