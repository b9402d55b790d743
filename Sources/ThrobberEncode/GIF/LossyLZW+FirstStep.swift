import ThrobberCodecs
import ThrobberCore

// The first pixel of each string: its own entry, or another allowed one
// whose strings match further.
extension LossyLZW {
    /// The pixel a new string starts with at `p`: its own index, or
    /// another allowed one whose strings match further. `after` is the
    /// code of the string that just ended (−1 at the first pixel): an
    /// entry that continues it is not taken, since giflib would then go on
    /// with that string (`better` may end a string where a costly child
    /// would continue it).
    mutating func firstStep(
        _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, at p: Int, after: Int
    ) -> UInt8 {
        @inline(__always) func continues(_ k: Int) -> Bool { after >= 0 && child[after << 8 | k] != 0 }
        let own = ix[p]
        heldValid = false
        let cell = cells[p]
        guard cell.canChange, p + 1 < ix.count else { return own }
        // One budget for every candidate: a new string may start with any
        // allowed pixel, so looking at fewer only costs compression.
        budget = GIFTuning.lossySearchBudget
        watch = after
        defer { watch = -1 }
        var chosen = own
        var longest = extend(from: Int(own), ix, src, at: p + 1, fresh: false) ? bestCount : 0
        var chosenError = longest > 0 ? bestError : 0
        hold()
        let other = Int(cell.alternative)
        if other != Int(FewestRuns.none), firstChild[other] != 0, !continues(other),
            extend(from: other, ix, src, at: p + 1, fresh: false),
            better(bestCount, bestError + Int(cell.cost), than: longest, chosenError)
        {
            longest = bestCount
            chosenError = bestError + Int(cell.cost)
            chosen = UInt8(other)
            hold()
        }
        guard tolerance > 0, Int(own) != transparent else {
            ix[p] = chosen
            return chosen
        }
        for j in 0..<candidates(own: Int(own), cell: cell, source: src[p]) {
            let k = Int(candidate[j].entry)
            guard k != Int(chosen), firstChild[k] != 0, !continues(k) else { continue }
            guard budget > 0 else { break }
            let d = Int(candidate[j].cost) * GIFTuning.lossyFirstStepWeight
            if extend(from: k, ix, src, at: p + 1, fresh: false),
                better(bestCount, bestError + d, than: longest, chosenError)
            {
                longest = bestCount
                chosenError = bestError + d
                chosen = UInt8(k)
                hold()
            }
        }
        ix[p] = chosen
        return chosen
    }

    /// The entries other than `own` that an opaque pixel of `source` may
    /// start a string with (`allows`), into `candidate` in `byGreen` order
    /// (the order they are tried in, which decides ties and where the
    /// budget ends); how many.
    ///
    /// Every entry within the tolerance of `source` is near `own` too:
    /// the distance d lies between m² = 2·dr² + 4·dg² + 2·db² and
    /// M² = 3·dr² + 4·dg² + 3·db² ≤ 1.5·m² (the redmean weights of red and
    /// blue lie in [2, 3)), and M is a metric, so
    /// √d(k, own) ≤ M(k, own) ≤ M(k, source) + M(source, own)
    /// ≤ √1.5 · (√d(k, source) + √d(source, own)). Only `own`'s neighbors
    /// up to that bound are measured, not all of `byGreen` within the
    /// green reach; the lists are kept ring by ring of distance, so the
    /// scan ends soon past the bound.
    mutating func candidates(own: Int, cell: Cell, source: UInt32) -> Int {
        let ownError = Double(ColorTable.perceptualDistance(colors[own], source)).squareRoot()
        let limit = GIFTuning.lossyMetricSlack * (Double(tolerance).squareRoot() + ownError)
        let bound = limit * limit
        let other = Int(cell.alternative)
        var count = 0
        @inline(__always) func add(_ k: Int, _ cost: Int) {
            let rank = greenRank[k]
            var j = count
            while j > 0 && candidate[j - 1].rank > rank {
                candidate[j] = candidate[j - 1]
                j -= 1
            }
            candidate[j] = Candidate(rank: rank, entry: UInt8(k), cost: Int32(cost))
            count += 1
        }
        let row = own << 8
        listNeighbors(of: own)
        let end = Int(
            neighborEnd[
                own * GIFTuning.lossyRings + min(GIFTuning.lossyRings - 1, Int(limit) / GIFTuning.lossyRingWidth)])
        for j in 0..<end where Double(neighborDistance[row + j]) <= bound {
            let k = Int(neighbor[row + j])
            if k == other { continue }
            let d = ColorTable.perceptualDistance(colors[k], source) * Int(cell.weight)
            if d <= tolerance { add(k, d) }
        }
        // The alternative at its own cost, wherever it lies, if `byGreen`
        // has it within the green reach.
        if other >= 0, other != own, greenRank[other] >= 0,
            abs(Int(colors[other] >> 8 & 0xFF) - Int(source >> 8 & 0xFF)) <= greenReach
        {
            add(other, Int(cell.cost))
        }
        return count
    }
}
