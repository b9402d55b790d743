import Glibc
import ThrobberCodecs
import ThrobberCore

extension GIFBudget {
    /// Before a step that is the one left between a failed step and the
    /// step holding the best file: where that file does not fill
    /// `GIFTuning.budgetEnough` of the budget, the step's colors become
    /// those expected to fill it (`colorsBetween`); where it does and the
    /// step's smallest file is expected over the budget
    /// (`smallestBetween`), the search ends without that pass.
    mutating func prepare(next: Int, fails: Int, fits: Int, search: BudgetSearch) -> Bool {
        guard fits - fails == 2, next == fails + 1, fits < steps.count, let best = search.best, best.step == fits,
            let failed = sizes[fails], let fitted = sizes[fits]
        else { return true }
        let (more, fewer) = (steps[fails].colors ?? 256, steps[fits].colors ?? 256)
        let full = Double(best.bytes.count) >= GIFTuning.budgetEnough * Double(maxBytes)
        if !full {
            if let colors = Self.colorsBetween(
                more, failed.lowest, fewer, fitted.lowest, bytes: GIFTuning.fillShare * Double(maxBytes)),
                colors < steps[next].colors ?? 256
            {
                steps[next].colors = colors
            }
            return true
        }
        guard
            let expected = Self.smallestBetween(
                more, failed.highest, fewer, fitted.highest, colors: steps[next].colors ?? 256)
        else { return true }
        return expected <= Double(maxBytes)
    }

    /// The colors between `fewer` colors (a palette whose lowest-level
    /// file has `smaller` bytes) and `more` colors (`larger` bytes) expected
    /// to give `bytes`, along the line between them over the logarithm of
    /// the colors, rounded down; nil where `bytes` does not lie between, or
    /// no count lies strictly between.
    static func colorsBetween(_ more: Int, _ larger: Int, _ fewer: Int, _ smaller: Int, bytes: Double) -> Int? {
        guard more > fewer + 1, larger > smaller, Double(smaller) < bytes, bytes < Double(larger) else { return nil }
        let t = (bytes - Double(smaller)) / Double(larger - smaller)
        let colors = Int(exp2(log2(Double(fewer)) + t * (log2(Double(more)) - log2(Double(fewer)))))
        return colors > fewer && colors < more ? colors : nil
    }

    /// The smallest file expected of a palette of `colors`, between `more`
    /// colors (whose smallest file has `larger` bytes) and `fewer`
    /// (`smaller` bytes): along the line between them over the logarithm
    /// of the colors; nil where `colors` does not lie between.
    static func smallestBetween(_ more: Int, _ larger: Int, _ fewer: Int, _ smaller: Int, colors: Int) -> Double? {
        guard more > fewer, colors > fewer, colors < more else { return nil }
        let t = (log2(Double(colors)) - log2(Double(fewer))) / (log2(Double(more)) - log2(Double(fewer)))
        return Double(smaller) + t * Double(larger - smaller)
    }
}
