import ThrobberCodecs
import ThrobberCore

// The error metric: which entries a pixel may take and at what error, and
// each entry's neighbors ring by ring of distance.
extension LossyLZW {
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
        var lastWeight: UInt8 = 0
        var lastAnswer = false
        for i in 0..<ix.count {
            if cells[i].alternative != FewestRuns.none {
                cells[i].canChange = true
                any = true
                continue
            }
            let own = Int(ix[i])
            if own == transparent || own >= palette.count { continue }
            let weight = cells[i].weight
            if own != lastOwn || src[i] != lastSource || weight != lastWeight {
                let ownError = Double(ColorTable.perceptualDistance(colors[own], src[i])).squareRoot()
                let limit = 1.5 * ((weight == 1 ? reach : (Double(tolerance) / Double(weight)).squareRoot()) + ownError)
                lastOwn = own
                lastSource = src[i]
                lastWeight = weight
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
        let d = ColorTable.perceptualDistance(colors[k], src[i]) * Int(cell.weight)
        return d <= tolerance ? d : nil
    }

    /// Lists `own`'s neighbors ring by ring, if not yet listed for this
    /// palette.
    mutating func listNeighbors(of own: Int) {
        guard !listed[own] else { return }
        let row = own << 8
        let ends = neighborEnd + own * GIFTuning.lossyRings
        var distance = [Int32](repeating: 0, count: 256)
        var ring = [UInt8](repeating: 0, count: 256)
        var start = [Int16](repeating: 0, count: GIFTuning.lossyRings)
        for k in byGreen where Int(k) != own {
            let d = ColorTable.perceptualDistance(colors[Int(k)], colors[own])
            let r = min(GIFTuning.lossyRings - 1, Int(Double(d).squareRoot()) / GIFTuning.lossyRingWidth)
            distance[Int(k)] = Int32(d)
            ring[Int(k)] = UInt8(r)
            start[r] += 1
        }
        var total: Int16 = 0
        for r in 0..<GIFTuning.lossyRings {
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
}
