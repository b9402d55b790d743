import ThrobberCodecs
import ThrobberCore

/// Chooses between indices that look the same on screen so that the frame
/// compresses better.
///
/// After the first frame many pixels can be written two ways that a viewer
/// shows identically: as their own palette index, or as the transparent index
/// that keeps the pixel already shown. Making all of them transparent breaks
/// up runs wherever an unchanged pixel sits next to a changed one of the same
/// color; making none of them transparent gives up the long transparent runs
/// over unchanged areas. This takes, per pixel, the choice that gives the
/// whole frame the fewest changes of value from one pixel to the next (found
/// exactly, by dynamic programming over the two choices of each pixel; ties go
/// to the alternative). LZW codes long runs of one value in few codes, so on
/// sparse changes this is smaller than either extreme; the writer still
/// measures all three and keeps the smallest.
package enum FewestRuns {
    /// No alternative for this pixel.
    package static let none: Int16 = -1

    /// `primary[i]`, or `alternative[i]` where that is not `none` and the
    /// fewest-runs choice takes it. Rows are consecutive, as LZW sees them.
    package static func choose(primary: [UInt8], alternative: [Int16]) -> [UInt8] {
        precondition(primary.count == alternative.count)
        let n = primary.count
        var out = primary
        guard n > 1 else { return out }
        let unreachable = Int.max / 2
        // Bit 0 of cameFromAlternative[i]: the cheapest path that takes the
        // primary value at i takes the alternative at i − 1; bit 1: the same
        // for the path that takes the alternative at i.
        var cameFromAlternative = [UInt8](repeating: 0, count: n)
        // Fewest value changes over pixels 0…i, ending with each choice at i.
        var costPrimary = 0
        var costAlternative = alternative[0] >= 0 ? 0 : unreachable
        for i in 1..<n {
            let previousPrimary = Int(primary[i - 1])
            let previousAlternative = Int(alternative[i - 1])
            func cheapest(endingWith v: Int) -> (cost: Int, viaAlternative: Bool) {
                let viaPrimary = costPrimary + (previousPrimary == v ? 0 : 1)
                let viaAlternative =
                    previousAlternative >= 0
                    ? costAlternative + (previousAlternative == v ? 0 : 1) : unreachable
                return viaAlternative <= viaPrimary ? (viaAlternative, true) : (viaPrimary, false)
            }
            let p = cheapest(endingWith: Int(primary[i]))
            var a = (cost: unreachable, viaAlternative: false)
            if alternative[i] >= 0 { a = cheapest(endingWith: Int(alternative[i])) }
            cameFromAlternative[i] = (p.viaAlternative ? 1 : 0) | (a.viaAlternative ? 2 : 0)
            costPrimary = p.cost
            costAlternative = a.cost
        }
        var takeAlternative = costAlternative <= costPrimary
        var i = n - 1
        while true {
            if takeAlternative { out[i] = UInt8(alternative[i]) }
            if i == 0 { break }
            takeAlternative = cameFromAlternative[i] & (takeAlternative ? 2 : 1) != 0
            i -= 1
        }
        return out
    }

    /// `primary`, where each stretch of pixels that all have an alternative
    /// (consecutive in LZW order) takes the alternatives when the stretch
    /// holds two or more runs of different values, and keeps its own values
    /// when it is one run. The rule gifsicle's optimizer writes frames by:
    /// a single run gains nothing from turning into a run of the
    /// alternative, and may lose, as it often continues a run of the same
    /// color that cannot change; a stretch of several runs becomes one.
    /// Where alternatives are mixed (a stretch of pixels whose alternatives
    /// differ), each pixel still takes its own alternative.
    package static func stretches(primary: [UInt8], alternative: [Int16]) -> [UInt8] {
        precondition(primary.count == alternative.count)
        var out = primary
        var start = -1  // the open stretch, or −1
        var several = false
        for i in primary.indices {
            guard alternative[i] >= 0 else {
                start = -1
                continue
            }
            if start < 0 {
                start = i
                several = false
            } else if !several && primary[i] != primary[start] {
                several = true
                for j in start..<i { out[j] = UInt8(alternative[j]) }
            }
            if several { out[i] = UInt8(alternative[i]) }
        }
        return out
    }
}
