/// "Did you mean" hints for a mistyped name, as git gives them for commands:
/// the known names nearest to it by edit distance, when one is near enough
/// to be a typo rather than a different word.
package enum Suggestion {
    /// The optimal string alignment distance (Damerau–Levenshtein without
    /// editing a substring twice): how many single-character insertions,
    /// deletions, substitutions and swaps of two neighbours turn `a` into
    /// `b`, case ignored. `widht` is 1 from `width`, `colour` 1 from `color`.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Three rows of the table: i − 2, i − 1 and i.
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], before[j - 2] + 1)
                }
            }
            (before, previous, row) = (previous, row, before)
        }
        return previous[b.count]
    }

    /// The largest distance still taken for a typo of a word of `length`
    /// characters: one edit per three characters, rounded to nearest, at
    /// least 1 and at most 3. More would suggest unrelated short words
    /// (`red` for `tan`); fewer would miss `spinr` for `spinner`.
    package static func limit(forLength length: Int) -> Int {
        min(3, max(1, (length + 1) / 3))
    }

    /// The candidates nearest to `word`, in their given order: every one at
    /// the smallest distance, if that is within ``limit(forLength:)`` and
    /// below the word's length (so no word is wholly replaced); a name that
    /// differs only in case is nearest of all. Empty when `word` is a
    /// candidate itself or nothing is near.
    package static func nearest(to word: String, among candidates: [String]) -> [String] {
        let allowed = min(limit(forLength: word.count), word.count - 1)
        var best: [String] = []
        var bestDistance = allowed
        for candidate in candidates where !best.contains(candidate) {
            if candidate == word { return [] }
            let d = distance(word, candidate)
            guard d <= allowed else { continue }
            if best.isEmpty || d < bestDistance {
                best = [candidate]
                bestDistance = d
            } else if d == bestDistance {
                best.append(candidate)
            }
        }
        return best
    }

    /// The hint that ends an error message: `; did you mean 'width'?`
    /// (`'a' or 'b'` for a tie), each name written between `quote`s after
    /// `prefix` (`--` for options); "" when no candidate is near `word`.
    package static func didYouMean(
        _ word: String, among candidates: [String], prefix: String = "", quote: String = "'"
    ) -> String {
        let names = nearest(to: word, among: candidates).map { quote + prefix + $0 + quote }
        guard let last = names.last else { return "" }
        let list = names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(list)?"
    }
}
