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
    /// issue asks for 97 %; each round more costs two lossy LZW passes,
    /// and a few levels buy a few tenths of a dB).
    static let enough = 0.97

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
    ///
    /// With `look` (files written only to their checkpoint, a quarter of
    /// the work), each round's levels are first found on those, scaled to
    /// whole files (`aim`), and only the levels they point to are written
    /// whole.
    static func levels(
        _ files: [LossyTrials.File], maxBytes: Int, write: ([Int]) throws -> [LossyTrials.File],
        look: (([Int]) throws -> [LossyTrials.File])? = nil
    ) throws -> [LossyTrials.File] {
        var files = files.sorted { $0.level < $1.level }
        var looked: [LossyTrials.File] = []
        for _ in 0..<rounds {
            guard let probes = probes(files, maxBytes: maxBytes) else { break }
            let aimed = try look.flatMap { try aim(files, looked: &looked, maxBytes: maxBytes, look: $0) }
            files = (files + (try write(aimed ?? probes.sorted()))).sorted { $0.level < $1.level }
        }
        return files
    }

    /// The next two levels to try between the highest too large and the
    /// lowest that fits of `files` (sorted by level), nil when none is
    /// needed (a file fills `enough` of the budget, or no level lies
    /// between).
    private static func probes(_ files: [LossyTrials.File], maxBytes: Int) -> Set<Int>? {
        let target = enough * Double(maxBytes)
        guard let fit = files.firstIndex(where: { $0.size <= maxBytes }), fit > 0 else { return nil }
        let (low, high) = (files[fit - 1], files[fit])
        guard high.level - low.level > 1, Double(high.size) < target else { return nil }
        let next = fit + 1 < files.count ? files[fit + 1] : nil
        return probesAfterJump(low, high, next, maxBytes: maxBytes) ?? probesBetween(low, high, target: target)
    }

    /// Rounds of looks at probes before each round of whole files.
    static let lookRounds = 2
    /// The shares of the budget that the two whole files after looks aim
    /// at. The scale's errors on mandelbrot and testsrc2 lay within
    /// −2.4 … +2.7 % (up to +5 % next to lossless); a file aimed at
    /// 99.75 % fills 97–100 % of the budget (`enough`) for errors of
    /// −2.8 … +0.25 %, one at 96.76 % for +0.25 … +3.3 %.
    static let aimShares = [0.9975, 0.9676]

    /// Levels to write whole, found without writing any: up to
    /// `lookRounds` rounds of the probes `levels` would write, each only to
    /// its checkpoint (`look`, kept in `looked` for later rounds) and
    /// scaled to a whole file by how the whole files around its level grew
    /// past theirs (`scale`), until one is expected to fill `enough` of
    /// the budget. Then the levels expected to reach `aimShares` of it,
    /// along the line (over the level's logarithm) between the expected
    /// sizes around them. From a quarter of the timeline, the
    /// scale was within −2.4 … +0.6 % of whole files at every level on
    /// mandelbrot and within 0.6 % on testsrc2, and every whole file
    /// written makes it better near the level sought. A look costs a
    /// quarter of a level: mandelbrot at half its size took two rounds of
    /// two whole levels, and now two looks and one round. Nil where no
    /// look can be scaled (no whole file grew from a checkpoint).
    static func aim(
        _ files: [LossyTrials.File], looked: inout [LossyTrials.File], maxBytes: Int,
        look: ([Int]) throws -> [LossyTrials.File]
    ) throws -> [Int]? {
        guard files.contains(where: { $0.expectedGrowth != nil }) else { return nil }
        let known = Set(files.map(\.level))
        func model() -> [LossyTrials.File]? {
            var model = files
            for var file in looked where !known.contains(file.level) {
                guard let prefix = file.prefix, let growth = scale(level: file.level, files) else { return nil }
                file.size = Int(Double(prefix) * growth)
                file.projected = true
                model.append(file)
            }
            return model.sorted { $0.level < $1.level }
        }
        guard var current = model() else { return nil }
        for _ in 0..<lookRounds {
            let seen = known.union(looked.map(\.level))
            guard let probes = probes(current, maxBytes: maxBytes)?.subtracting(seen), !probes.isEmpty else { break }
            looked += try look(probes.sorted())
            guard let next = model() else { return nil }
            current = next
        }
        // The first aim rounds toward the smaller file, the second toward
        // the larger, both toward the budget's last 3 %.
        let aims = zip(aimShares, [FloatingPointRoundingRule.up, .down]).compactMap {
            aim(at: $0 * Double(maxBytes), current, rounding: $1)
        }
        guard var levels = aims.first.map({ [$0] }) else { return nil }
        // Two levels, so both cores work: where both aims round to one
        // level, the next one toward the smaller file too.
        levels.append(aims.count > 1 && aims[1] != aims[0] ? aims[1] : aims[0] + 1)
        let unknown = Set(levels.filter { !known.contains($0) && $0 <= LossyLZW.maxLevel })
        return unknown.isEmpty ? nil : unknown.sorted()
    }

    /// How many times its bytes at the checkpoint a whole file at `level`
    /// is expected to be: the growth of the files around it, drawn as a
    /// line over the level's logarithm (or the one nearest, past the
    /// ends); a file stopped at its checkpoint counts with the growth it
    /// was projected with. Nil where no file grew from a checkpoint.
    ///
    /// Between a lossless file and a lossy one, part of the way is the jump
    /// that any loss makes (`lossyJump`), and the line covers the rest.
    static func scale(level: Int, _ files: [LossyTrials.File]) -> Double? {
        let known = files.compactMap { file in file.expectedGrowth.map { (level: file.level, growth: $0) } }
            .sorted { $0.level < $1.level }
        guard let last = known.last else { return nil }
        guard let above = known.firstIndex(where: { $0.level >= level }) else { return last.growth }
        guard above > 0, known[above].level != level else { return known[above].growth }
        let (low, high) = (known[above - 1], known[above])
        let (a, b) = (log(Double(low.level + 1)), log(Double(high.level + 1)))
        var t = (log(Double(level + 1)) - a) / (b - a)
        if low.level == 0 { t += (1 - t) * lossyJump }
        return low.growth + t * (high.growth - low.growth)
    }

    /// The share of the growth between a lossless file and a lossy one
    /// that the least loss already takes. mandelbrot's files grow 4.64
    /// times from the checkpoint lossless, 6.11 at lossy 200, and 5.59,
    /// 5.72, 5.83 and 5.96 at 10, 20, 40 and 80: 35 % of the way at once
    /// (35–37 % at each of them), the rest along the level's logarithm.
    /// A line from the lossless file alone put lossy 38 at 5.66, 2.8 %
    /// short, and both levels aimed at the budget came out over it: a
    /// round more (3.7 times a default encode). testsrc2's files grow the
    /// same at every level (3.96), so nothing changes there.
    static let lossyJump = 0.35

    /// The level expected to give `bytes`, on the line (over the level's
    /// logarithm) between the model's last file larger and the first file
    /// no larger, rounded by `rounding`; nil where none is larger or none
    /// is no larger.
    private static func aim(at bytes: Double, _ model: [LossyTrials.File], rounding: FloatingPointRoundingRule)
        -> Int?
    {
        guard let fit = model.firstIndex(where: { Double($0.size) <= bytes }), fit > 0 else { return nil }
        let (low, high) = (model[fit - 1], model[fit])
        guard high.level - low.level > 1 else { return high.level }
        let (a, b) = (log(Double(low.level + 1)), log(Double(high.level + 1)))
        let fraction = (Double(low.size) - bytes) / Double(low.size - high.size)
        let x = (exp(a + fraction * (b - a)) - 1).rounded(rounding)
        return min(high.level - 1, max(low.level + 1, Int(x)))
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
        choice.maxBytes = maxBytes
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
