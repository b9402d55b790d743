import ThrobberCore

/// Natural ("numeric") ordering of names. Digit runs compare by value
/// (leading zeros ignored), other runs by bytes; a tie is broken by byte
/// order so the ordering is total and deterministic.
enum NaturalOrder {
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                let (ai, ae) = run(a, from: i)
                let (bj, be) = run(b, from: j)
                let aDigits = a[ai..<ae]
                let bDigits = b[bj..<be]
                if aDigits.count != bDigits.count { return aDigits.count < bDigits.count ? -1 : 1 }
                if let c = zip(aDigits, bDigits).first(where: { $0 != $1 }) { return c.0 < c.1 ? -1 : 1 }
                i = ae
                j = be
            } else {
                if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        if i < a.count || j < b.count { return i < a.count ? 1 : -1 }
        // Equal by value (e.g. "f01" and "f1"): fall back to bytes.
        return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
    }

    @inline(__always) private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    /// The significant digits of the digit run starting at `start` (leading
    /// zeros skipped) and the index just past the run.
    private static func run(_ s: [UInt8], from start: Int) -> (Int, Int) {
        var end = start
        while end < s.count && isDigit(s[end]) { end += 1 }
        var first = start
        while first < end - 1 && s[first] == 0x30 { first += 1 }
        return (first, end)
    }
}
