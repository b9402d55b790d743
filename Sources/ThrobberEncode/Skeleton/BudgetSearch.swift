import Glibc
import ThrobberCodecs
import ThrobberCore

/// The state of a byte-budget search (`AnimationEncoder.encodeWithin`):
/// the best-looking file that fits so far and the smallest one reached.
/// Whether a file fits is decided here alone: its size is at most
/// `maxBytes`.
struct BudgetSearch {
    let maxBytes: Int
    /// Files encoded so far (each lossy level counted once).
    private(set) var trials = 0
    private(set) var best: BudgetFile?
    private(set) var smallest: BudgetChoice?
    /// The step of `smallest`.
    private(set) var smallestStep = 0
    /// The smallest file written whole (`smallest` may be an estimate).
    private(set) var smallestWritten: BudgetChoice?
    /// The smallest file tried that is not degraded (`BudgetChoice.
    /// isDegraded`), fitting or not: what better settings cost.
    private(set) var smallestGood: BudgetChoice?

    /// The format searched, for the choices it records.
    let format: AnimationFormat

    init(maxBytes: Int, format: AnimationFormat) {
        self.maxBytes = maxBytes
        self.format = format
    }

    /// One file of `step` (whose `lossy` is its one level); true when it
    /// fits and is now the best.
    /// (`size` and `estimated` stand for a file left unfinished over the
    /// budget, see `LossyTrials`.)
    @discardableResult
    mutating func add(
        _ step: BudgetStep, index: Int, bytes: [UInt8], size: Int? = nil, estimated: Bool = false,
        psnr: Double?, report: EncodeReport
    ) -> Bool {
        trials += 1
        let size = size ?? bytes.count
        var choice = BudgetChoice(
            format: format, quality: step.quality, lossy: step.lossy.first ?? 0, colors: step.colors,
            dither: step.dither, bytes: size, trials: trials)
        choice.estimated = estimated
        choice.maxBytes = maxBytes
        if !choice.isDegraded, size < smallestGood?.bytes ?? .max { smallestGood = choice }
        guard fits(size) else {
            if size < smallest?.bytes ?? .max {
                smallest = choice
                smallestStep = index
            }
            if !estimated, size < smallestWritten?.bytes ?? .max { smallestWritten = choice }
            return false
        }
        var fitting = report
        fitting.budget = choice
        let file = BudgetFile(bytes: bytes, report: fitting, step: index, psnr: psnr)
        guard best.map({ file.beats($0) }) ?? true else { return false }
        best = file
        return true
    }

    /// Whether a file of `size` bytes fits the budget.
    func fits(_ size: Int) -> Bool { size <= maxBytes }
}

/// A file that fits, from step `step` of the ladder.
struct BudgetFile {
    var bytes: [UInt8]
    var report: EncodeReport
    var step: Int
    /// PSNR of the file against the source, nil where not measured.
    var psnr: Double?
    /// Whether it is better looking than `other`: higher PSNR, or where
    /// that is not measured the earlier step (fewer reductions).
    func beats(_ other: BudgetFile) -> Bool {
        if let a = psnr, let b = other.psnr, a != b { return a > b }
        return step < other.step
    }
}
