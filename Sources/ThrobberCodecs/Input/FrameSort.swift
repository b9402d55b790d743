import ThrobberCore

/// File-name orderings for frame folders.
public enum FrameSort: String, Sendable, CaseIterable {
    /// Runs of digits compare as numbers: `f9` < `f10`, `0009` < `00010`.
    case natural
    /// Plain byte order of the UTF-8 names.
    case name

    /// True when file name `a` comes before `b` in this order (a predicate
    /// for `sorted(by:)`).
    public func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        switch self {
        case .name: return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        case .natural: return NaturalOrder.compare(Array(a.utf8), Array(b.utf8)) < 0
        }
    }
}
