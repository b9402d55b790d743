import ThrobberCodecs
import ThrobberCore

extension LossyLZW {
    /// Whether a string of `count` pixels with summed error `error` is
    /// better than one of `bestCount` with `bestError`. Lossy: by
    /// gifsicle's score, length less four pixels for each tolerance's worth
    /// of error, so that a change is made only where it buys a string
    /// several pixels longer; "longest, then least error" changed about
    /// twice as many pixels for the same bytes (testsrc2, `--lossy 20`:
    /// 46.63 dB, now 48.22 dB in 0.2 % more bytes). Exact (level 0): longest,
    /// then fewest alternatives taken.
    @inline(__always)
    func better(_ count: Int, _ error: Int, than bestCount: Int, _ bestError: Int) -> Bool {
        guard tolerance > 0 else { return count > bestCount || (count == bestCount && error < bestError) }
        return count * tolerance - 4 * error > bestCount * tolerance - 4 * bestError
    }

    /// Pixels that may take another entry at all: those with an exact
    /// alternative, and opaque ones with some other entry possibly within
    /// the tolerance of the source color (the nearest other entry to its own
    /// one is close enough, by the triangle inequality with room to spare).
    /// A filter for speed; every decision below uses the same answer, so
    /// giflib still agrees.
    /// Sets each cell's `canChange`; whether any pixel can.
    func markChangeable(_ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>) -> Bool {
        var any = false
        guard tolerance > 0 else {
            guard hasAlternatives else { return false }
            for i in 0..<ix.count where cells[i].alternative != FewestRuns.none {
                cells[i].canChange = true
                any = true
            }
            return any
        }
        let reach = Double(tolerance).squareRoot()
        var lastSource: UInt32 = 0
        var lastOwn = -1
        var lastAnswer = false
        for i in 0..<ix.count {
            if cells[i].alternative != FewestRuns.none {
                cells[i].canChange = true
                any = true
                continue
            }
            let own = Int(ix[i])
            if own == transparent || own >= palette.count { continue }
            if own != lastOwn || src[i] != lastSource {
                let ownError = Double(ColorTable.perceptualDistance(colors[own], src[i])).squareRoot()
                let limit = 1.5 * (reach + ownError)
                lastOwn = own
                lastSource = src[i]
                lastAnswer = Double(nearestOther[own]) <= limit * limit
            }
            cells[i].canChange = lastAnswer
            any = any || lastAnswer
        }
        return any
    }

    /// The error of pixel `i` showing entry `k`, or nil when it may not.
    @inline(__always)
    func allows(_ k: Int, _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, _ i: Int)
        -> Int?
    {
        let own = Int(ix[i])
        if k == own { return 0 }
        let cell = cells[i]
        if !cell.canChange { return nil }
        // An exact alternative costs a token error, so that of two strings
        // as long the one with fewer changes wins; another its own error.
        if Int(cell.alternative) == k { return Int(cell.cost) }
        // A transparent pixel stays transparent, an opaque one opaque.
        if own == transparent || !takes[k] { return nil }
        let d = ColorTable.perceptualDistance(colors[k], src[i])
        return d <= tolerance ? d : nil
    }

    /// How much more a changed pixel's error weighs when it starts a new
    /// string than inside one (the pixel also ends the dictionary entry
    /// made for the string before). Against 1, at equal bytes, levels
    /// 40–80: testsrc2 0.2–0.25 dB better (0.5 dB with no change there at
    /// all, but then lossy 200 reaches 1.7 % less far), mandelbrot
    /// 0.1–0.2 dB lower PSNR and higher SSIM (+0.0007 to +0.0034); 2 lies
    /// between.
    static let firstStepWeight = 4

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
        budget = Self.searchBudget
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
            let d = Int(candidate[j].cost) * Self.firstStepWeight
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
        let limit = Self.metricSlack * (Double(tolerance).squareRoot() + ownError)
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
        let end = Int(neighborEnd[own * Self.rings + min(Self.rings - 1, Int(limit) / Self.ringWidth)])
        for j in 0..<end where Double(neighborDistance[row + j]) <= bound {
            let k = Int(neighbor[row + j])
            if k == other { continue }
            let d = ColorTable.perceptualDistance(colors[k], source)
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

    /// √1.5 (1.2247…), rounded up: how far apart two colors within the
    /// tolerance of one source can be, as a share of the summed roots.
    static let metricSlack = 1.2248

    /// Rings of `ringWidth` in √distance that neighbor lists are ordered
    /// by (the last takes all beyond): a scan stops at the ring past its
    /// bound, and no list needs a full sort.
    static let rings = 64
    static let ringWidth = 4

    /// Lists `own`'s neighbors ring by ring, if not yet listed for this
    /// palette.
    mutating func listNeighbors(of own: Int) {
        guard !listed[own] else { return }
        let row = own << 8
        let ends = neighborEnd + own * Self.rings
        var distance = [Int32](repeating: 0, count: 256)
        var ring = [UInt8](repeating: 0, count: 256)
        var start = [Int16](repeating: 0, count: Self.rings)
        for k in byGreen where Int(k) != own {
            let d = ColorTable.perceptualDistance(colors[Int(k)], colors[own])
            let r = min(Self.rings - 1, Int(Double(d).squareRoot()) / Self.ringWidth)
            distance[Int(k)] = Int32(d)
            ring[Int(k)] = UInt8(r)
            start[r] += 1
        }
        var total: Int16 = 0
        for r in 0..<Self.rings {
            total += start[r]
            ends[r] = total
            start[r] = total - start[r]
        }
        for k in byGreen where Int(k) != own {
            let r = Int(ring[Int(k)])
            let j = row + Int(start[r])
            start[r] += 1
            neighbor[j] = k
            neighborDistance[j] = distance[Int(k)]
        }
        listed[own] = true
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
        if fresh { budget = Self.searchBudget }
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

    /// Adds the string `prefix` + `pixel` as the next code.
    mutating func insert(prefix: Int, pixel: UInt8) {
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
    mutating func reset() {
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
    mutating func output(_ code: Int) {
        codes += 1
        bits += runningBits
        if runningCode >= maxCode1 && code <= 4095 {
            runningBits += 1
            maxCode1 = 1 << runningBits
        }
    }
}
