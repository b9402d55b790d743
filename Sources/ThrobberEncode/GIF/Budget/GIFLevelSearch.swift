import Glibc
import ThrobberCodecs
import ThrobberCore

/// The lossy levels of one GIF budget step between its lowest and highest
/// (`GIFBudget`): where the lowest level's file is too large and a higher
/// one fits, more levels between, aimed at the budget's last few percent.
enum GIFLevelSearch {
    /// One GIF step's files at more lossy levels, all sorted by level:
    /// where the lowest level of `files` is too large and a higher one
    /// fits, up to `GIFTuning.levelRounds` rounds of two more levels between the highest
    /// too large and the lowest that fits, written by `write` (two at a
    /// time, so both cores work; the levels never depend on the thread
    /// count). Both aim at `GIFTuning.budgetEnough` of the budget along the line between
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
        for _ in 0..<GIFTuning.levelRounds {
            guard let probes = probes(files, maxBytes: maxBytes) else { break }
            let aimed = try look.flatMap { try aim(files, looked: &looked, maxBytes: maxBytes, look: $0) }
            files = (files + (try write(aimed ?? probes.sorted()))).sorted { $0.level < $1.level }
        }
        return files
    }

    /// The next two levels to try between the highest too large and the
    /// lowest that fits of `files` (sorted by level), nil when none is
    /// needed (a file fills `GIFTuning.budgetEnough` of the budget, or no level lies
    /// between).
    private static func probes(_ files: [LossyTrials.File], maxBytes: Int) -> Set<Int>? {
        let target = GIFTuning.budgetEnough * Double(maxBytes)
        guard let fit = files.firstIndex(where: { $0.size <= maxBytes }), fit > 0 else { return nil }
        let (low, high) = (files[fit - 1], files[fit])
        guard high.level - low.level > 1, Double(high.size) < target else { return nil }
        let next = fit + 1 < files.count ? files[fit + 1] : nil
        return probesAfterJump(low, high, next, maxBytes: maxBytes) ?? probesBetween(low, high, target: target)
    }

    /// Levels to write whole, found without writing any: up to
    /// `GIFTuning.lookRounds` rounds of the probes `levels` would write, each only to
    /// its checkpoint (`look`, kept in `looked` for later rounds) and
    /// scaled to a whole file by how the whole files around its level grew
    /// past theirs (`scale`), until one is expected to fill `GIFTuning.budgetEnough` of
    /// the budget. Then the levels expected to reach `GIFTuning.aimShares` of it,
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
        for _ in 0..<GIFTuning.lookRounds {
            let seen = known.union(looked.map(\.level))
            guard let probes = probes(current, maxBytes: maxBytes)?.subtracting(seen), !probes.isEmpty else { break }
            looked += try look(probes.sorted())
            guard let next = model() else { return nil }
            current = next
        }
        // The first aim rounds toward the smaller file, the second toward
        // the larger, both toward the budget's last 3 %.
        let aims = zip(GIFTuning.aimShares, [FloatingPointRoundingRule.up, .down]).compactMap {
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
    /// that any loss makes (`GIFTuning.lossyJump`), and the line covers the rest.
    static func scale(level: Int, _ files: [LossyTrials.File]) -> Double? {
        let known = files.compactMap { file in file.expectedGrowth.map { (level: file.level, growth: $0) } }
            .sorted { $0.level < $1.level }
        guard let last = known.last else { return nil }
        guard let above = known.firstIndex(where: { $0.level >= level }) else { return last.growth }
        guard above > 0, known[above].level != level else { return known[above].growth }
        let (low, high) = (known[above - 1], known[above])
        let (a, b) = (log(Double(low.level + 1)), log(Double(high.level + 1)))
        var t = (log(Double(level + 1)) - a) / (b - a)
        if low.level == 0 { t += (1 - t) * GIFTuning.lossyJump }
        return low.growth + t * (high.growth - low.growth)
    }

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
}
