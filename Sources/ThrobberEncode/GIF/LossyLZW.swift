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
/// quantization; the error never adds up along a string), and only where
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
    /// (0…200): 16 × level, about 1.3·√level levels of gray on every
    /// channel (a gray step of g is about 9·g²), so 100 lets a pixel move
    /// about 13 levels and 200 about 19. Linear in the level, as gifsicle's
    /// tolerance is, and scaled so that N gives about the PSNR of
    /// gifsicle's `--lossy=N` (within 1 dB on testsrc2 and mandelbrot).
    /// Under gifsicle's score a pixel changes only where that pays, so the
    /// scale 8 that matched gifsicle with "longest string first" left
    /// `--lossy 200` at the bytes gifsicle reaches at 80 (testsrc2).
    package static func tolerance(level: Int) -> Int { 16 * level }

    let tolerance: Int
    var palette: [UInt32] = []
    var transparent = -1
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
    /// What the search asks of each pixel of the frame being coded.
    struct Cell {
        /// An entry that shows the same (or, with lossy keeps, close
        /// enough), `FewestRuns.none` if none.
        var alternative: Int16
        /// Whether it may take another entry than its own at all.
        var canChange: Bool
        /// The error of taking the alternative: its own, at least the
        /// token 1 an exact one costs.
        var cost: Int32
    }
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
    /// ends, in rows of `rings`; `listed` whether the row is made yet for
    /// this palette.
    let neighbor: UnsafeMutablePointer<UInt8>
    let neighborDistance: UnsafeMutablePointer<Int32>
    let listed: UnsafeMutablePointer<Bool>
    let neighborEnd: UnsafeMutablePointer<Int16>
    /// Per entry, its place in `byGreen` (−1: not there).
    let greenRank: UnsafeMutablePointer<Int16>
    /// An entry `firstStep` may start a string with, and its error.
    struct Candidate {
        var rank: Int16
        var entry: UInt8
        var cost: Int32
    }
    let candidate: UnsafeMutablePointer<Candidate>

    // The dictionary: `child[code << 8 | pixel]` is the code of that string
    // (0 = none; codes below `clearCode` are never children), and each
    // code's children as a list for the lossy search.
    /// Owns the tables below (plain pointers: no copy-on-write or
    /// exclusivity checks in the search).
    private final class Storage {
        let child = UnsafeMutablePointer<Int16>.allocate(capacity: 4096 << 8)
        let firstChild = UnsafeMutablePointer<Int16>.allocate(capacity: 4096)
        let nextSibling = UnsafeMutablePointer<Int16>.allocate(capacity: 4096)
        let pixelOf = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
        let keyOf = UnsafeMutablePointer<Int32>.allocate(capacity: 4096)
        let path = UnsafeMutablePointer<Int16>.allocate(capacity: 1 << 16)
        let best = UnsafeMutablePointer<Int16>.allocate(capacity: 1 << 16)
        let held = UnsafeMutablePointer<Int16>.allocate(capacity: 1 << 16)
        let colors = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        let takes = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        let neighbor = UnsafeMutablePointer<UInt8>.allocate(capacity: 256 * 256)
        let neighborDistance = UnsafeMutablePointer<Int32>.allocate(capacity: 256 * 256)
        let listed = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        let neighborEnd = UnsafeMutablePointer<Int16>.allocate(capacity: 256 * LossyLZW.rings)
        let greenRank = UnsafeMutablePointer<Int16>.allocate(capacity: 256)
        let candidate = UnsafeMutablePointer<Candidate>.allocate(capacity: 257)
        private(set) var cells = UnsafeMutablePointer<Cell>.allocate(capacity: 1)
        private var cellCapacity = 1

        /// Cells for a frame of `count` pixels.
        func cells(for count: Int) -> UnsafeMutablePointer<Cell> {
            if count > cellCapacity {
                cells.deallocate()
                cellCapacity = max(count, 2 * cellCapacity)
                cells = UnsafeMutablePointer<Cell>.allocate(capacity: cellCapacity)
            }
            return cells
        }

        init() {
            child.initialize(repeating: 0, count: 4096 << 8)
            firstChild.initialize(repeating: 0, count: 4096)
            nextSibling.initialize(repeating: 0, count: 4096)
            pixelOf.initialize(repeating: 0, count: 4096)
            keyOf.initialize(repeating: -1, count: 4096)
            colors.initialize(repeating: 0, count: 256)
            takes.initialize(repeating: false, count: 256)
            neighbor.initialize(repeating: 0, count: 256 * 256)
            neighborDistance.initialize(repeating: 0, count: 256 * 256)
            listed.initialize(repeating: false, count: 256)
            neighborEnd.initialize(repeating: 0, count: 256 * LossyLZW.rings)
            greenRank.initialize(repeating: -1, count: 256)
        }

        deinit {
            for p in [child, firstChild, nextSibling, path, best, held] { p.deallocate() }
            pixelOf.deallocate()
            keyOf.deallocate()
            colors.deallocate()
            takes.deallocate()
            neighbor.deallocate()
            neighborDistance.deallocate()
            listed.deallocate()
            neighborEnd.deallocate()
            greenRank.deallocate()
            candidate.deallocate()
            cells.deallocate()
        }
    }
    private let storage = Storage()
    let child: UnsafeMutablePointer<Int16>
    let firstChild: UnsafeMutablePointer<Int16>
    let nextSibling: UnsafeMutablePointer<Int16>
    let pixelOf: UnsafeMutablePointer<UInt8>
    let keyOf: UnsafeMutablePointer<Int32>
    var runningCode = 0
    var runningBits = 0
    var maxCode1 = 0
    /// Codes below this may be in use (from an earlier frame).
    var used = 4096

    /// Most nodes one search looks at below its first step: a bound on
    /// the worst case (a search branches at every pixel that may change),
    /// not a speed setting. At 12, which it was until the eleventh
    /// session, it cut most searches short and lost 1–2 dB at equal bytes
    /// on testsrc2 (0.1–0.3 dB on mandelbrot); past about 200 nothing
    /// changes (testsrc2 at 1,000: the same strings within 0.01 %), and
    /// `--lossy 80` took no more CPU time at 200 than at 12.
    static let searchBudget = 256
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
    var bestError = 0
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
    package mutating func rewrite(
        _ indices: inout [UInt8], sources: [UInt32], palette: [UInt32], transparent: Int?,
        alternatives: [Int16]? = nil, alternativeErrors: [Int32]? = nil
    ) {
        precondition(alternatives.map { $0.count == indices.count } ?? true)
        // Level 0 never looks at the sources.
        precondition(tolerance == 0 || sources.count == indices.count)
        precondition(alternativeErrors.map { $0.count == indices.count && alternatives != nil } ?? true)
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
                cost: alternativeErrors.map { max(1, $0[i]) } ?? 1)
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

    /// The code size and tables for a frame of `palette`.
    private mutating func prepare(palette: [UInt32], transparent: Int?) {
        self.palette = palette
        self.transparent = transparent ?? -1
        var size = 2
        while size < palette.count { size *= 2 }
        var bpp = 1
        while 1 << bpp < size { bpp += 1 }
        bitsPerPixel = max(2, bpp)
        clearCode = 1 << bitsPerPixel
        for c in 0..<clearCode { pixelOf[c] = UInt8(truncatingIfNeeded: c) }
        nearestOther = palette.indices.map { j in
            var d = Int.max
            for k in palette.indices where k != j && k != self.transparent {
                d = min(d, ColorTable.perceptualDistance(palette[j], palette[k]))
            }
            return d
        }
        for k in 0..<256 {
            colors[k] = k < palette.count ? palette[k] : 0
            takes[k] = tolerance > 0 && k < palette.count && k != self.transparent
        }
        let entries = palette.indices.filter { $0 != self.transparent && $0 < clearCode }
        byGreen = entries.sorted { (palette[$0] >> 8 & 0xFF, $0) < (palette[$1] >> 8 & 0xFF, $1) }.map(UInt8.init)
        greenStart = [Int](repeating: byGreen.count, count: 257)
        for (position, k) in byGreen.enumerated().reversed() { greenStart[Int(palette[Int(k)] >> 8 & 0xFF)] = position }
        for g in stride(from: 255, through: 0, by: -1) { greenStart[g] = min(greenStart[g], greenStart[g + 1]) }
        greenReach = Int((Double(tolerance) / 4).squareRoot()) + 1
        for k in 0..<256 {
            listed[k] = false
            greenRank[k] = -1
        }
        for (position, k) in byGreen.enumerated() { greenRank[Int(k)] = Int16(position) }
        codes = 0
        bits = 0
        reset()
    }
}
