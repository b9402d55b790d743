/// What a byte budget may give up beyond palettes and lossy levels
/// (``EncodeSettings/budgetMayReduce``, `--allow-reduce`).
public struct BudgetReductions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Fewer frames, each shown longer, so the loop lasts as long.
    public static let frameRate = BudgetReductions(rawValue: 1)
    /// Fewer pixels: both sides scaled by the same factor.
    public static let size = BudgetReductions(rawValue: 2)

    /// The names `--allow-reduce` takes: "fps" and "size".
    public static let names: [(name: String, value: BudgetReductions)] = [("fps", .frameRate), ("size", .size)]

    /// "fps,size" as the option gives it; nil for an unknown name.
    public static func parse(_ text: String) -> BudgetReductions? {
        var set: BudgetReductions = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = part.filter { $0 != " " }.lowercased()
            guard let named = names.first(where: { $0.name == word }) else { return nil }
            set.insert(named.value)
        }
        return set
    }
}

/// One way a budget gives up frames or pixels: every `every`th frame
/// kept (each shown `every` times as long) and both sides scaled by
/// `scale`.
struct BudgetReduction: Equatable {
    var every: Int
    var scale: Double

    /// The share of the pixels a second shown that is left.
    var share: Double { scale * scale / Double(every) }

    /// The reductions `allowed` permits, least first (the most of the
    /// pixels a second kept; fewer frames before fewer pixels at the same
    /// share, as text and fine lines stay legible at a lower rate).
    static func ladder(_ allowed: BudgetReductions) -> [BudgetReduction] {
        let everies = allowed.contains(.frameRate) ? BudgetTuning.reduceEvery : [1]
        let scales = allowed.contains(.size) ? BudgetTuning.reduceScales : [1]
        var all: [BudgetReduction] = []
        for k in everies {
            for s in scales where k > 1 || s < 1 { all.append(BudgetReduction(every: k, scale: s)) }
        }
        return all.sorted { a, b in a.share != b.share ? a.share > b.share : a.every > b.every }
    }
}
