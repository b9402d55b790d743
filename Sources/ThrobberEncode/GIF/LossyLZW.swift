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
/// quantization; the error never adds up along a string). A transparent
/// pixel stays transparent and an opaque one opaque, so still areas stay
/// still. Because every choice is one giflib would make itself on the
/// rewritten stream, `codes` and `bits` are exactly what giflib writes.
package struct LossyLZW {
    /// The largest `lossy` level (gifsicle's scale).
    package static let maxLevel = 200

    /// Codes giflib writes for the stream (clear and end codes included).
    package private(set) var codes = 0
    /// Bits of those codes.
    package private(set) var bits = 0

    /// Bytes of LZW image data giflib writes: the code size byte, the
    /// codes in sub-blocks of at most 255 bytes, and the empty block.
    package var imageDataBytes: Int {
        let bytes = (bits + 7) / 8
        return 1 + bytes + (bytes + 254) / 255 + 1
    }

    /// The squared `ColorTable.perceptualDistance` allowed at `level`
    /// (0…200): level / 5 levels of gray on every channel, so 80 lets a
    /// pixel move about 16 levels.
    package static func tolerance(level: Int) -> Int { 9 * level * level / 25 }

    private let tolerance: Int
    private var palette: [UInt32] = []
    private var transparent = -1
    private var bitsPerPixel = 2
    private var clearCode = 4

    // The dictionary: `child[code << 8 | pixel]` is the code of that
    // string (0 = none; codes below `clearCode` are never children), and
    // each code's children as a list for the lossy search.
    private var child: [Int16]
    private var firstChild: [Int16]
    private var nextSibling: [Int16]
    private var pixelOf: [UInt8]
    private var keyOf: [Int32]
    private var runningCode = 0
    /// Codes below this may be in use (from an earlier frame).
    private var used = 4096
    private var runningBits = 0
    private var maxCode1 = 0

    /// A search for the longest string: most nodes looked at per search
    /// below its first step.
    private static let searchBudget = 48
    private var budget = 0
    private var path: [Int16] = []
    private var best: [Int16] = []
    private var bestError = 0

    /// A coder at `level` (1…200; 0 only follows the stream), for any
    /// number of frames.
    package init(level: Int) {
        tolerance = Self.tolerance(level: level)
        child = [Int16](repeating: 0, count: 4096 << 8)
        firstChild = [Int16](repeating: 0, count: 4096)
        nextSibling = [Int16](repeating: 0, count: 4096)
        pixelOf = [UInt8](repeating: 0, count: 4096)
        keyOf = [Int32](repeating: -1, count: 4096)
    }

    /// Rewrites `indices` (one frame rectangle) in place. `sources` are
    /// the colors each pixel should show, in the same order; `palette` is
    /// the table giflib is given for the frame (it pads it to a power of
    /// two, as `GIFWriter` does) and `transparent` its transparent entry.
    package mutating func rewrite(_ indices: inout [UInt8], sources: [UInt32], palette: [UInt32], transparent: Int?) {
        self.palette = palette
        self.transparent = transparent ?? -1
        var size = 2
        while size < palette.count { size *= 2 }
        var bpp = 1
        while 1 << bpp < size { bpp += 1 }
        bitsPerPixel = max(2, bpp)
        clearCode = 1 << bitsPerPixel
        for c in 0..<clearCode { pixelOf[c] = UInt8(truncatingIfNeeded: c) }
        codes = 0
        bits = 0
        reset()
        output(clearCode)
        guard !indices.isEmpty else {
            output(clearCode + 1)
            return
        }
        let n = indices.count
        indices.withUnsafeMutableBufferPointer { ix in
            sources.withUnsafeBufferPointer { src in
                // The first pixel: the one whose strings reach furthest.
                var current = Int(firstStep(ix, src, at: 0))
                var p = 1
                while p < n {
                    if extend(from: current, ix, src, at: p) {
                        for (j, code) in best.enumerated() { ix[p + j] = pixelOf[Int(code)] }
                        current = Int(best.last!)
                        p += best.count
                        continue
                    }
                    output(current)
                    let pixel = firstStep(ix, src, at: p)
                    if runningCode >= 4095 {
                        output(clearCode)
                        reset()
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

    /// May pixel `i` show entry `k`?
    @inline(__always)
    private func allows(_ k: Int, _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, _ i: Int)
        -> Int?
    {
        let own = Int(ix[i])
        if k == own { return 0 }
        if own == transparent || k == transparent || k >= palette.count { return nil }
        let d = ColorTable.perceptualDistance(palette[k], src[i])
        return d <= tolerance ? d : nil
    }

    /// The pixel a new string starts with at `p`: its own index, or
    /// another allowed one whose strings match further.
    private mutating func firstStep(
        _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, at p: Int
    ) -> UInt8 {
        let own = ix[p]
        guard tolerance > 0, p + 1 < ix.count else { return own }
        // One budget for every candidate: a new string may start with any
        // allowed pixel, so looking at fewer only costs compression.
        budget = Self.searchBudget
        var chosen = own
        var longest = extend(from: Int(own), ix, src, at: p + 1, fresh: false) ? best.count : 0
        var chosenError = longest > 0 ? bestError : 0
        for k in 0..<min(palette.count, clearCode) where k != Int(own) && firstChild[k] != 0 {
            guard budget > 0 else { break }
            guard let d = allows(k, ix, src, p) else { continue }
            if extend(from: k, ix, src, at: p + 1, fresh: false),
                best.count > longest || (best.count == longest && bestError + d < chosenError)
            {
                longest = best.count
                chosenError = bestError + d
                chosen = UInt8(k)
            }
        }
        ix[p] = chosen
        return chosen
    }

    /// The longest string below `node` that pixels from `p` on may show,
    /// into `best`; false when no child of `node` fits pixel `p`. A
    /// `fresh` search has a budget of its own.
    private mutating func extend(
        from node: Int, _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, at p: Int,
        fresh: Bool = true
    ) -> Bool {
        best.removeAll(keepingCapacity: true)
        bestError = 0
        guard p < ix.count else { return false }
        if tolerance == 0 {
            // Exact: follow the stream as giflib does.
            var code = node
            var i = p
            while i < ix.count {
                let next = child[code << 8 | Int(ix[i])]
                if next == 0 { break }
                best.append(next)
                code = Int(next)
                i += 1
            }
            return !best.isEmpty
        }
        if fresh { budget = Self.searchBudget }
        path.removeAll(keepingCapacity: true)
        search(node, ix, src, p, error: 0)
        return !best.isEmpty
    }

    /// Depth-first: every child of `node` is tried against pixel `p` (so a
    /// string only ends where giflib's would), deeper levels while the
    /// budget lasts; longest wins, then the smallest summed error.
    private mutating func search(
        _ node: Int, _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, _ p: Int,
        error: Int
    ) {
        if path.count > best.count || (path.count == best.count && error < bestError) {
            best = path
            bestError = error
        }
        guard p < ix.count else { return }
        var c = firstChild[node]
        while c != 0 {
            let code = Int(c)
            if let d = allows(Int(pixelOf[code]), ix, src, p) {
                path.append(c)
                if budget > 0 || path.count == 1 {
                    budget -= 1
                    search(code, ix, src, p + 1, error: error + d)
                } else if path.count > best.count {
                    best = path
                    bestError = error + d
                }
                path.removeLast()
            }
            c = nextSibling[code]
        }
    }

    /// Adds the string `prefix` + `pixel` as the next code.
    private mutating func insert(prefix: Int, pixel: UInt8) {
        let code = runningCode
        runningCode += 1
        let key = prefix << 8 | Int(pixel)
        child[key] = Int16(code)
        keyOf[code] = Int32(key)
        pixelOf[code] = pixel
        nextSibling[code] = firstChild[prefix]
        firstChild[prefix] = Int16(code)
    }

    /// An empty dictionary, as after a clear code.
    private mutating func reset() {
        // Everything up to the highest code used so far (by this frame or,
        // with another code size, by the one before).
        for code in 0..<max(used, runningCode) {
            if keyOf[code] >= 0 {
                child[Int(keyOf[code])] = 0
                keyOf[code] = -1
            }
            firstChild[code] = 0
        }
        used = 0
        runningCode = clearCode + 2
        runningBits = bitsPerPixel + 1
        maxCode1 = 1 << runningBits
    }

    /// Counts a code as giflib writes it, widening codes as it does.
    private mutating func output(_ code: Int) {
        codes += 1
        bits += runningBits
        if runningCode >= maxCode1 && code <= 4095 {
            runningBits += 1
            maxCode1 = 1 << runningBits
        }
    }
}
