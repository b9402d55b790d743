import ThrobberCodecs
import ThrobberCore

/// The state of a byte-budget search (`AnimationEncoder.encodeWithin`):
/// the best-looking file that fits so far, the smallest one reached, and
/// for the best one's step the lossy levels around the budget, to refine.
struct BudgetSearch {
    let maxBytes: Int
    /// Files encoded so far (each lossy level counted once).
    private(set) var trials = 0
    private(set) var best: AnimationEncoder.BudgetFile?
    private(set) var smallest: BudgetChoice?
    /// Of the best file's step: its kept frames and the level just below
    /// the best one that was too large, with its size.
    private var bracket: (trials: LossyTrials, tooBig: Int, tooBigBytes: Int)?

    /// The most LZW-only trials `refine` makes.
    static let refinements = 4
    /// `refine` stops once the file uses this much of the budget.
    static let enough = 0.99

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// The files of one GIF step (one per lossy level); true if one fits.
    mutating func add(
        _ step: AnimationEncoder.BudgetStep, index: Int, trials outputs: LossyTrials, report: EncodeReport,
        format: AnimationFormat
    ) -> Bool {
        var fits = false
        for (j, level) in outputs.levels.enumerated() {
            let psnr = j < outputs.psnr.count ? outputs.psnr[j] : nil
            var s = step
            s.lossy = [level]
            let improved = add(
                s, index: index, bytes: outputs.outputs[j].bytes, psnr: psnr, report: report, format: format)
            if outputs.outputs[j].bytes.count <= maxBytes {
                if improved {
                    let below = j > 0 ? outputs.outputs[j - 1].bytes.count : 0
                    bracket = below > maxBytes ? (outputs, outputs.levels[j - 1], below) : nil
                }
                fits = true
            }
        }
        return fits
    }

    /// One file of `step` (whose `lossy` is its one level); true when it
    /// fits and is now the best.
    @discardableResult
    mutating func add(
        _ step: AnimationEncoder.BudgetStep, index: Int, bytes: [UInt8], psnr: Double?, report: EncodeReport,
        format: AnimationFormat
    ) -> Bool {
        trials += 1
        let choice = BudgetChoice(
            format: format, quality: step.quality, lossy: step.lossy.first ?? 0, colors: step.colors,
            dither: step.dither, bytes: bytes.count, trials: trials)
        guard bytes.count <= maxBytes else {
            if bytes.count < smallest?.bytes ?? .max { smallest = choice }
            return false
        }
        var fitting = report
        fitting.budget = choice
        let file = AnimationEncoder.BudgetFile(bytes: bytes, report: fitting, step: index, psnr: psnr)
        guard best.map({ file.beats($0) }) ?? true else { return false }
        best = file
        return true
    }

    /// Moves the best file's lossy level down towards the level that was
    /// too large, LZW only, while a level between them still fits: each
    /// try interpolates the sizes for `enough` of the budget.
    mutating func refine() throws {
        guard let (outputs, tooBig, tooBigBytes) = bracket, outputs.canReplay, var file = best,
            var high = file.report.budget?.lossy
        else { return }
        var (low, lowBytes) = (tooBig, tooBigBytes)
        var highBytes = file.bytes.count
        for _ in 0..<Self.refinements where high - low > 1 && Double(highBytes) < Self.enough * Double(maxBytes) {
            let target = Self.enough * Double(maxBytes)
            let fraction =
                Double(lowBytes) - target > 0 ? (Double(lowBytes) - target) / Double(lowBytes - highBytes) : 1
            let level = min(high - 1, max(low + 1, low + Int((fraction * Double(high - low)).rounded())))
            let (bytes, psnr) = try outputs.replay(level: level)
            trials += 1
            if bytes.count <= maxBytes {
                high = level
                highBytes = bytes.count
                file.bytes = bytes
                file.psnr = psnr
                file.report.budget?.lossy = level
                file.report.budget?.bytes = bytes.count
                best = file
            } else {
                low = level
                lowBytes = bytes.count
            }
        }
        bracket = nil
    }
}
