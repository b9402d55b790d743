import ThrobberCodecs
import ThrobberCore

/// Lossy LZW on the index stream (`--lossy N`): rewrites a frame's indices
/// so that giflib's own greedy LZW encoder, given them unchanged, finds
/// longer matches.
///
/// It follows giflib's dictionary exactly (`egif_lib.c`): the code size
/// from the palette's size (at least 2 bits), a clear code first, and on
/// every miss the prefix code out, then either a new entry or, once the
/// next code would be 4095, a clear code and an empty dictionary. Where the
/// dictionary has a longer string than the exact indices allow, a pixel may
/// take another palette entry, when that entry's color is within the
/// tolerance of the pixel's own source color (the color before
/// quantization; the error never adds up along a string; a distance weighs
/// more where the source is flat, `LossyMasking`), and only where
/// that buys a string several pixels longer: strings are ranked by
/// gifsicle's score, length less four pixels for each tolerance's worth of
/// summed error (`better`). A transparent pixel stays transparent and an
/// opaque one opaque, so still areas stay still, except where the caller
/// names an exact alternative (the same color shown either way); at level
/// 0 those are the only choices.
/// Because every choice is one giflib would make itself on the rewritten
/// stream, `codes` and `bits` are exactly what giflib's own coder writes
/// (`GIFWriter` may keep a full dictionary instead, and then writes less).
package struct LossyLZW {
    /// The largest `lossy` level (gifsicle's scale).
    package static let maxLevel = 200

    /// Codes giflib writes for the last stream (clear and end codes included).
    package internal(set) var codes = 0
    /// Bits of those codes.
    package internal(set) var bits = 0

    /// Whether `rewrite` follows the dictionary (to count `codes` and
    /// `bits`) also through a frame where no pixel may change. A writer
    /// that only wants the indices turns it off: such a frame (a
    /// lossless frame of few, distant colors, as every frame of a
    /// two-color animation) then costs one pass over its pixels, not an
    /// LZW pass, and comes out as it went in either way.
    package var followsUnchanged = true

    /// Bytes of LZW image data giflib writes: the code size byte, the
    /// codes in sub-blocks of at most 255 bytes, and the empty block.
    package var imageDataBytes: Int {
        let bytes = (bits + 7) / 8
        return 1 + bytes + (bytes + 254) / 255 + 1
    }

    /// The largest `ColorTable.perceptualDistance` allowed at `level`
    /// (0…200): `GIFTuning.lossyToleranceScale` × level, about
    /// 1.3·√level levels of gray on every channel (a gray step of g is
    /// about 9·g²), so 100 lets a pixel move about 13 levels and 200 about
    /// 19. Linear in the level, as gifsicle's tolerance is.
    package static func tolerance(level: Int) -> Int { GIFTuning.lossyToleranceScale * level }

    /// The largest error a pixel may take (`tolerance(level:)`).
    let tolerance: Int
    /// The frame's palette, and its transparent entry (−1: none).
    var palette: [UInt32] = []
    var transparent = -1
    /// The LZW minimum code size giflib uses for the palette, and the
    /// clear code it implies (the end code follows it).
    var bitsPerPixel = 2
    var clearCode = 4
    /// Per palette entry: the perceptual distance to its nearest other
    /// entry, to skip pixels that cannot change at all.
    var nearestOther: [Int] = []
    /// Palette entries (not the transparent one) by green, and where each
    /// green level starts among them: a color within the tolerance has its
    /// green within `greenReach` (green weighs 4 in the distance).
    var byGreen: [UInt8] = []
    var greenStart: [Int] = []
    var greenReach = 0
    /// One cell per pixel of the frame being coded (`Storage` owns them).
    var cells: UnsafeMutablePointer<Cell>
    /// Whether any pixel of the frame has an alternative.
    var hasAlternatives = false
    /// The palette's colors, and per entry whether a lossy pixel may take
    /// it (not the transparent one, and in the palette).
    let colors: UnsafeMutablePointer<UInt32>
    let takes: UnsafeMutablePointer<Bool>
    /// Per entry, the other entries a lossy pixel may take (those of
    /// `byGreen`) and their distances to it, in rows of 256, ring by ring
    /// of distance (`listNeighbors`): `neighborEnd` has where each ring
    /// ends, in rows of `GIFTuning.lossyRings`; `listed` whether the row
    /// is made yet for this palette.
    let neighbor: UnsafeMutablePointer<UInt8>
    let neighborDistance: UnsafeMutablePointer<Int32>
    let listed: UnsafeMutablePointer<Bool>
    let neighborEnd: UnsafeMutablePointer<Int16>
    /// Per entry, its place in `byGreen` (−1: not there).
    let greenRank: UnsafeMutablePointer<Int16>
    /// The candidates for a string's first pixel (`candidates`).
    let candidate: UnsafeMutablePointer<Candidate>

    // The dictionary: `child[code << 8 | pixel]` is the code of that string
    // (0 = none; codes below `clearCode` are never children), and each
    // code's children as a list for the lossy search.
    /// Owns every table the pointers here point into.
    private let storage = Storage()
    /// The code of each string's child by pixel, `child[code << 8 | pixel]`.
    let child: UnsafeMutablePointer<Int16>
    /// Each code's first child and next sibling: its children as a list.
    let firstChild: UnsafeMutablePointer<Int16>
    let nextSibling: UnsafeMutablePointer<Int16>
    /// Each code's last pixel, and its key in `child` (−1: free).
    let pixelOf: UnsafeMutablePointer<UInt8>
    let keyOf: UnsafeMutablePointer<Int32>
    /// giflib's next code, its code width, and the code that widens it.
    var runningCode = 0
    var runningBits = 0
    var maxCode1 = 0
    /// Codes below this may be in use (from an earlier frame).
    var used = 4096

    /// Nodes the current search may still look at
    /// (`GIFTuning.lossySearchBudget` at its start).
    var budget = 0
    // The search: the path being tried, the best so far, and how much of
    // the best still equals the path (so a new best copies only the rest).
    /// Codes of the string being tried (`pathCount` of them) and of the
    /// best one (`bestCount`); a string is at most 4096 × 4096 pixels
    /// long only in theory, so both stop growing at 65,536.
    let path: UnsafeMutablePointer<Int16>
    var pathCount = 0
    let best: UnsafeMutablePointer<Int16>
    var bestCount = 0
    /// The summed error of the best string.
    var bestError = 0
    /// How many codes of `best` still equal those of `path`.
    var shared = 0

    // What `firstStep` found below the pixel it chose, held for the
    // search that follows it (`extend` from that pixel's code one pixel
    // on), which would find the same again: where the first search ran
    // out of budget it may not, and where it passed the node that gets the
    // new dictionary entry in between it may not either.
    /// The string held (`heldCount` codes), and whether it may be used.
    let held: UnsafeMutablePointer<Int16>
    var heldCount = 0
    var heldValid = false
    /// The node that gets a child before the held string is used, and
    /// whether the search passed it; whether it ran out of budget.
    var watch = -1
    var touched = false
    var truncated = false

    /// A coder at `level` (1…200; 0 only follows the stream), for any
    /// number of frames.
    package init(level: Int) {
        tolerance = Self.tolerance(level: level)
        child = storage.child
        firstChild = storage.firstChild
        nextSibling = storage.nextSibling
        pixelOf = storage.pixelOf
        keyOf = storage.keyOf
        path = storage.path
        best = storage.best
        held = storage.held
        colors = storage.colors
        takes = storage.takes
        neighbor = storage.neighbor
        neighborDistance = storage.neighborDistance
        listed = storage.listed
        neighborEnd = storage.neighborEnd
        greenRank = storage.greenRank
        candidate = storage.candidate
        cells = storage.cells
    }

    /// Rewrites `indices` (one frame rectangle) in place. `sources` are
    /// the colors each pixel should show, in the same order; `palette` is
    /// the table giflib is given for the frame (it pads it to a power of
    /// two, as `GIFWriter` does) and `transparent` its transparent entry.
    ///
    /// At level 0, `sources` may be empty.
    /// `alternatives`, if given, has per pixel another entry that shows
    /// exactly what its own does (`FewestRuns.none` if none): the
    /// transparent one where the viewer already shows the pixel's color, or
    /// the entry of what it shows where the pixel is transparent. Either may
    /// be taken at no error, also at level 0, where the coder then only
    /// chooses among exact equivalents the ones that match furthest.
    /// `weights`, if given, has per pixel how many times its distance any
    /// other entry weighs against the tolerance (`LossyMasking`: more in
    /// flat parts of the source); 1 where not given.
    package mutating func rewrite(
        _ indices: inout [UInt8], sources: [UInt32], palette: [UInt32], transparent: Int?,
        alternatives: [Int16]? = nil, alternativeErrors: [Int32]? = nil, weights: [UInt8]? = nil
    ) {
        precondition(alternatives.map { $0.count == indices.count } ?? true)
        // Level 0 never looks at the sources.
        precondition(tolerance == 0 || sources.count == indices.count)
        precondition(alternativeErrors.map { $0.count == indices.count && alternatives != nil } ?? true)
        precondition(weights.map { $0.count == indices.count } ?? true)
        prepare(palette: palette, transparent: transparent)
        output(clearCode)
        guard !indices.isEmpty else {
            output(clearCode + 1)
            return
        }
        let n = indices.count
        cells = storage.cells(for: n)
        hasAlternatives = alternatives != nil
        for i in 0..<n {
            cells[i] = Cell(
                alternative: alternatives?[i] ?? FewestRuns.none, canChange: false,
                cost: alternativeErrors.map { max(1, $0[i]) } ?? 1, weight: weights?[i] ?? 1)
        }
        indices.withUnsafeMutableBufferPointer { ix in
            sources.withUnsafeBufferPointer { src in
                let anyChanges = markChangeable(ix, src)
                if !followsUnchanged && !anyChanges { return }
                // The first pixel: the one whose strings reach furthest.
                var current = Int(firstStep(ix, src, at: 0, after: -1))
                var p = 1
                while p < n {
                    if heldValid ? takeHeld() : extend(from: current, ix, src, at: p) {
                        for j in 0..<bestCount { ix[p + j] = pixelOf[Int(best[j])] }
                        current = Int(best[bestCount - 1])
                        p += bestCount
                        continue
                    }
                    output(current)
                    let pixel = firstStep(ix, src, at: p, after: current)
                    if runningCode >= 4095 {
                        output(clearCode)
                        reset()
                        heldValid = false
                    } else {
                        insert(prefix: current, pixel: pixel)
                    }
                    current = Int(pixel)
                    p += 1
                }
                output(current)
                output(clearCode + 1)
            }
        }
    }
}
