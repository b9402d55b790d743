import Glibc
import ThrobberCodecs
import ThrobberCore

/// The state of a byte-budget search (`AnimationEncoder.encodeWithin`):
/// the best-looking file that fits so far and the smallest one reached.
struct BudgetSearch {
    let maxBytes: Int
    /// Files encoded so far (each lossy level counted once).
    private(set) var trials = 0
    private(set) var best: AnimationEncoder.BudgetFile?
    private(set) var smallest: BudgetChoice?
    /// The step of `smallest`.
    private(set) var smallestStep = 0
    /// The smallest file written whole (`smallest` may be an estimate).
    private(set) var smallestWritten: BudgetChoice?

    /// Rounds of `levels`, each writing two levels at once.
    static let rounds = 3
    /// `levels` stops once a file uses this much of the budget (the
    /// issue asks for 97 %; each round more costs two lossy LZW passes).
    static let enough = 0.975

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// One GIF step's files at more lossy levels, all sorted by level:
    /// where the lowest level of `files` is too large and a higher one
    /// fits, up to `rounds` rounds of two more levels between the highest
    /// too large and the lowest that fits, written by `write` (two at a
    /// time, so both cores work; the levels never depend on the thread
    /// count). Both aim at `enough` of the budget along the line between
    /// those two files, one with the line drawn over the level and one
    /// over its logarithm. Sizes fall ever more slowly as the level grows,
    /// so the first usually lands above the level sought and the second
    /// below it: on mandelbrot (noisy, a big step from lossless to any
    /// loss) the logarithm is right within a few levels, on testsrc2 (flat
    /// areas, sizes nearly straight in the level) the level itself. Right
    /// after the jump from lossless, the lossy files' own line is used
    /// instead (`probesAfterJump`).
    static func levels(
        _ files: [LossyTrials.File], maxBytes: Int, write: ([Int]) throws -> [LossyTrials.File]
    ) throws -> [LossyTrials.File] {
        var files = files.sorted { $0.level < $1.level }
        let target = enough * Double(maxBytes)
        for _ in 0..<rounds {
            guard let fit = files.firstIndex(where: { $0.size <= maxBytes }), fit > 0 else { break }
            let (low, high) = (files[fit - 1], files[fit])
            guard high.level - low.level > 1, Double(high.size) < target else { break }
            let next = fit + 1 < files.count ? files[fit + 1] : nil
            let probes =
                probesAfterJump(low, high, next, maxBytes: maxBytes)
                ?? probesBetween(low, high, target: target)
            files = (files + (try write(probes.sorted()))).sorted { $0.level < $1.level }
        }
        return files
    }

    /// A level strictly between `low` and `high`, rounded.
    private static func level(_ x: Double, between low: LossyTrials.File, _ high: LossyTrials.File) -> Int {
        min(high.level - 1, max(low.level + 1, Int(x.rounded())))
    }

    /// Where `low` is lossless and far larger than `high`, the first lossy
    /// file that fits: between them lies the jump that any loss makes
    /// (mandelbrot: 4.5 MB lossless, 2.1 MB at lossy 67), and a line from
    /// the lossless file aims far too low. The lossy files go on along the
    /// logarithm of the level: that line through `high` and `next` (the
    /// next lossy file), drawn back, aimed at 99 % and 97.5 % of the budget
    /// (mandelbrot at half its size: levels 47 and 51, where a line from
    /// the lossless file gave 53 and 63, both under 97 %). Nil elsewhere.
    private static func probesAfterJump(
        _ low: LossyTrials.File, _ high: LossyTrials.File, _ next: LossyTrials.File?, maxBytes: Int
    ) -> Set<Int>? {
        guard low.level == 0, let next, low.size > 2 * high.size else { return nil }
        let (a, b) = (log(Double(high.level + 1)), log(Double(next.level + 1)))
        let slope = (Double(next.size) - Double(high.size)) / (b - a)
        guard slope < 0 else { return nil }
        return Set(
            [0.99, 0.975].map { share in
                level(exp(a + (share * Double(maxBytes) - Double(high.size)) / slope) - 1, between: low, high)
            })
    }

    /// Two levels between `low` and `high` aimed at `target` bytes along
    /// the line between them, one drawn over the level and one over its
    /// logarithm.
    private static func probesBetween(_ low: LossyTrials.File, _ high: LossyTrials.File, target: Double) -> Set<Int> {
        let fraction = (Double(low.size) - target) / Double(low.size - high.size)
        let linear = level(Double(low.level) + fraction * Double(high.level - low.level), between: low, high)
        let (a, b) = (log(Double(low.level + 1)), log(Double(high.level + 1)))
        let logarithmic = level(exp(a + fraction * (b - a)) - 1, between: low, high)
        guard abs(linear - logarithmic) > 2 else {
            // Lines that agree (a segment with a jump at one end): the
            // other level halfway below.
            let near = min(linear, logarithmic)
            return Set([near, (low.level + near) / 2].filter { $0 > low.level })
        }
        return [linear, logarithmic]
    }

    /// The files of one GIF step, one per lossy level, lowest level first;
    /// true if one fits.
    mutating func add(
        _ step: AnimationEncoder.BudgetStep, index: Int, files: [LossyTrials.File], report: EncodeReport,
        format: AnimationFormat
    ) -> Bool {
        var fits = false
        for file in files {
            var s = step
            s.lossy = [file.level]
            add(
                s, index: index, bytes: file.bytes, size: file.size, estimated: file.estimated, psnr: file.psnr,
                report: report, format: format)
            fits = fits || file.size <= maxBytes
        }
        return fits
    }

    /// One file of `step` (whose `lossy` is its one level); true when it
    /// fits and is now the best.
    /// (`size` and `estimated` stand for a file left unfinished over the
    /// budget, see `LossyTrials`.)
    @discardableResult
    mutating func add(
        _ step: AnimationEncoder.BudgetStep, index: Int, bytes: [UInt8], size: Int? = nil, estimated: Bool = false,
        psnr: Double?, report: EncodeReport, format: AnimationFormat
    ) -> Bool {
        trials += 1
        let size = size ?? bytes.count
        var choice = BudgetChoice(
            format: format, quality: step.quality, lossy: step.lossy.first ?? 0, colors: step.colors,
            dither: step.dither, bytes: size, trials: trials)
        choice.estimated = estimated
        guard size <= maxBytes else {
            if size < smallest?.bytes ?? .max {
                smallest = choice
                smallestStep = index
            }
            if !estimated, size < smallestWritten?.bytes ?? .max { smallestWritten = choice }
            return false
        }
        var fitting = report
        fitting.budget = choice
        let file = AnimationEncoder.BudgetFile(bytes: bytes, report: fitting, step: index, psnr: psnr)
        guard best.map({ file.beats($0) }) ?? true else { return false }
        best = file
        return true
    }
}
