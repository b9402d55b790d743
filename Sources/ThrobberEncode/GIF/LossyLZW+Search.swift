import ThrobberCodecs
import ThrobberCore

// The dictionary search: the best string below a node that the pixels
// ahead may show, depth-first within a budget of nodes.
extension LossyLZW {
    /// Whether a string of `count` pixels with summed error `error` is
    /// better than one of `bestCount` with `bestError`. Lossy: by
    /// gifsicle's score, length less `GIFTuning.lossyErrorWeight` pixels
    /// for each tolerance's worth of error, so that a change is made only
    /// where it buys a string several pixels longer. Exact (level 0):
    /// longest, then fewest alternatives taken.
    @inline(__always)
    func better(_ count: Int, _ error: Int, than bestCount: Int, _ bestError: Int) -> Bool {
        guard tolerance > 0 else { return count > bestCount || (count == bestCount && error < bestError) }
        let weight = GIFTuning.lossyErrorWeight
        return count * tolerance - weight * error > bestCount * tolerance - weight * bestError
    }

    /// The longest string below `node` that pixels from `p` on may show,
    /// into `best`; false when no child of `node` fits pixel `p`. A
    /// `fresh` search has a budget of its own.
    mutating func extend(
        from node: Int, _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, at p: Int,
        fresh: Bool = true
    ) -> Bool {
        bestCount = 0
        bestError = 0
        shared = 0
        guard p < ix.count else { return false }
        if fresh { budget = GIFTuning.lossySearchBudget }
        pathCount = 0
        touched = false
        truncated = false
        search(node, ix, src, p, error: 0)
        return bestCount > 0
    }

    /// Holds the string the last `extend` found (none if it found none)
    /// for the search after `firstStep`, if that search is sure to find it
    /// again: it has a budget of its own, at least what this one had left.
    @inline(__always)
    mutating func hold() {
        heldCount = bestCount
        for j in 0..<bestCount { held[j] = best[j] }
        heldValid = !touched && !truncated
    }

    /// The held string as the search's result, as `extend` returns it.
    mutating func takeHeld() -> Bool {
        heldValid = false
        for j in 0..<heldCount { best[j] = held[j] }
        bestCount = heldCount
        return bestCount > 0
    }

    /// Depth-first: every child of `node` is tried against pixel `p` (so a
    /// string only ends where giflib's would); a pixel that cannot change
    /// has one child to follow, others branch while the budget lasts.
    /// The best string by `better` wins.
    private mutating func search(
        _ node: Int, _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, _ p: Int,
        error: Int
    ) {
        if node == watch { touched = true }
        if better(pathCount, error, than: bestCount, bestError) {
            keepPath()
            bestError = error
        }
        guard p < ix.count, pathCount < (1 << 16) - 1 else { return }
        let cell = cells[p]
        if !cell.canChange {
            let next = child[node << 8 | Int(ix[p])]
            guard next != 0 else { return }
            path[pathCount] = next
            pathCount += 1
            search(Int(next), ix, src, p + 1, error: error)
            pathCount -= 1
            shared = min(shared, pathCount)
            return
        }
        if tolerance == 0 {
            // Exact: the pixel's own entry or its alternative, looked up.
            let own = child[node << 8 | Int(ix[p])]
            if own != 0 { follow(own, ix, src, p, error: error) }
            let other = child[node << 8 | Int(cell.alternative)]
            if other != 0 { follow(other, ix, src, p, error: error + Int(cell.cost)) }
            return
        }
        var c = firstChild[node]
        while c != 0 {
            let code = Int(c)
            if let d = allows(Int(pixelOf[code]), ix, src, p) { follow(c, ix, src, p, error: error + d) }
            c = nextSibling[code]
        }
    }

    /// Takes `code` for pixel `p` and searches on from it while the budget
    /// lasts (the first step always).
    @inline(__always)
    private mutating func follow(
        _ code: Int16, _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, _ p: Int,
        error: Int
    ) {
        path[pathCount] = code
        pathCount += 1
        if budget > 0 || pathCount == 1 {
            budget -= 1
            search(Int(code), ix, src, p + 1, error: error)
        } else {
            truncated = true
            if better(pathCount, error, than: bestCount, bestError) {
                keepPath()
                bestError = error
            }
        }
        pathCount -= 1
        shared = min(shared, pathCount)
    }

    /// The path becomes the best string; only the part past what they
    /// still share is copied.
    @inline(__always)
    private mutating func keepPath() {
        for j in shared..<pathCount { best[j] = path[j] }
        bestCount = pathCount
        shared = pathCount
    }
}
