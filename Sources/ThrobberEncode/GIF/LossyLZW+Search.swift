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
    func changeable(_ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>) -> [Bool] {
        let hasAlternatives = !alternative.isEmpty
        guard tolerance > 0 else {
            return hasAlternatives
                ? alternative.map { $0 != FewestRuns.none } : [Bool](repeating: false, count: ix.count)
        }
        let reach = Double(tolerance).squareRoot()
        var lastSource: UInt32 = 0
        var lastOwn = -1
        var lastAnswer = false
        return (0..<ix.count).map { i in
            if hasAlternatives && alternative[i] != FewestRuns.none { return true }
            let own = Int(ix[i])
            if own == transparent || own >= palette.count { return false }
            if own == lastOwn && src[i] == lastSource { return lastAnswer }
            let ownError = Double(ColorTable.perceptualDistance(palette[own], src[i])).squareRoot()
            let limit = 1.5 * (reach + ownError)
            lastOwn = own
            lastSource = src[i]
            lastAnswer = Double(nearestOther[own]) <= limit * limit
            return lastAnswer
        }
    }

    /// The error of pixel `i` showing entry `k`, or nil when it may not.
    @inline(__always)
    func allows(_ k: Int, _ ix: UnsafeMutableBufferPointer<UInt8>, _ src: UnsafeBufferPointer<UInt32>, _ i: Int)
        -> Int?
    {
        let own = Int(ix[i])
        if k == own { return 0 }
        if !canChange[i] { return nil }
        // An exact alternative costs a token error, so that of two strings
        // as long the one with fewer changes wins; another its own error.
        if !alternative.isEmpty && Int(alternative[i]) == k { return alternativeCost(i) }
        // A transparent pixel stays transparent, an opaque one opaque.
        if own == transparent || k == transparent || k >= palette.count || tolerance == 0 { return nil }
        let d = ColorTable.perceptualDistance(palette[k], src[i])
        return d <= tolerance ? d : nil
    }

    /// The error of taking pixel `i`'s alternative: its own, at least the
    /// token 1 an exact one costs.
    @inline(__always)
    func alternativeCost(_ i: Int) -> Int { alternativeError.isEmpty ? 1 : max(1, Int(alternativeError[i])) }

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
        guard canChange[p], p + 1 < ix.count else { return own }
        // One budget for every candidate: a new string may start with any
        // allowed pixel, so looking at fewer only costs compression.
        budget = Self.searchBudget
        var chosen = own
        var longest = extend(from: Int(own), ix, src, at: p + 1, fresh: false) ? bestCount : 0
        var chosenError = longest > 0 ? bestError : 0
        if !alternative.isEmpty, alternative[p] != FewestRuns.none, firstChild[Int(alternative[p])] != 0,
            !continues(Int(alternative[p])),
            extend(from: Int(alternative[p]), ix, src, at: p + 1, fresh: false),
            better(bestCount, bestError + alternativeCost(p), than: longest, chosenError)
        {
            longest = bestCount
            chosenError = bestError + alternativeCost(p)
            chosen = UInt8(alternative[p])
        }
        guard tolerance > 0, Int(own) != transparent else {
            ix[p] = chosen
            return chosen
        }
        let green = Int(src[p] >> 8 & 0xFF)
        for position in greenStart[max(0, green - greenReach)]..<greenStart[min(256, green + greenReach + 1)] {
            let k = Int(byGreen[position])
            guard k != Int(own), k != Int(chosen), firstChild[k] != 0, !continues(k) else { continue }
            guard budget > 0 else { break }
            guard let d = allows(k, ix, src, p) else { continue }
            if extend(from: k, ix, src, at: p + 1, fresh: false),
                better(bestCount, bestError + d, than: longest, chosenError)
            {
                longest = bestCount
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
        search(node, ix, src, p, error: 0)
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
        if better(pathCount, error, than: bestCount, bestError) {
            keepPath()
            bestError = error
        }
        guard p < ix.count, pathCount < (1 << 16) - 1 else { return }
        if !canChange[p] {
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
            let other = child[node << 8 | Int(alternative[p])]
            if other != 0 { follow(other, ix, src, p, error: error + alternativeCost(p)) }
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
        } else if better(pathCount, error, than: bestCount, bestError) {
            keepPath()
            bestError = error
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
