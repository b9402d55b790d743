import ThrobberCodecs
import ThrobberCore

/// Collects the colors of prepared frames: whether all of them fit in one
/// palette (APNG's palette layouts, a GIF's global table) and, for a GIF,
/// what each frame's local palette needs (`ColorCensus+GIF.swift`).
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
    private(set) var frameColors: [[UInt32]] = []
    /// The pixels of each of those rectangles.
    private(set) var frameAreas: [Int] = []
    /// Whether each of those frames is cleared for the next one (some pixel
    /// it shows turns transparent there), so the writer disposes of it.
    /// The last frame counts as cleared: the loop starts over from the
    /// first frame.
    private(set) var frameDisposed: [Bool] = []
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
}
