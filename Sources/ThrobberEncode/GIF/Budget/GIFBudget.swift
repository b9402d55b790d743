import Glibc
import ThrobberCodecs
import ThrobberCore

/// GIF's byte-budget search (`BudgetStrategy`): the palette ladder, each
/// step written in one pass at its lowest and highest lossy level
/// (`LossyTrials`: one palette search, an LZW coder per level), and at
/// levels between where the budget lies between those
/// (`GIFLevelSearch.levels`, from the kept palettized frames, LZW only),
/// to use the budget fully. The fitting file with the highest PSNR
/// against the source (measured while writing) wins.
struct GIFBudget: BudgetStrategy {
    var steps: [BudgetStep]
    let maxBytes: Int
    var boundsAfterFirstStep: Bool { false }
    var sizesFollowSteps: Bool { true }

    /// Per step, the sizes of its files at its lowest and highest lossy
    /// level; the highest is the smallest it makes (estimated where the
    /// file stopped over the budget).
    var sizes: [Int: (lowest: Int, highest: Int)] = [:]
    /// The colors of the settings' lossless palette, where it is one exact
    /// global palette.
    private var exactColors: Int?
    /// Per lossy level, how a file of the last pass grew past its
    /// checkpoint: later passes stop files expected not to fit there.
    private var growth: [Int: Double] = [:]

    /// The ladder for `settings`, each step at the asked lossy level and
    /// every level of `GIFTuning.budgetLevels` above it.
    init(_ settings: EncodeSettings, maxBytes: Int) {
        let levels = Array(Set([settings.lossy] + GIFTuning.budgetLevels.filter { $0 >= settings.lossy })).sorted()
        steps = BudgetStep.paletteLadder(settings, levels: levels)
        self.maxBytes = maxBytes
    }

    func lowerBound(_ last: BudgetStep, level: Int, run: BudgetRun) throws -> BudgetRun.Overrun? {
        var trial = last.applied(to: run.settings)
        trial.lossy = level
        return try run.countSmallest(trial)
    }

    /// Where the settings' file is lossless with no more colors than every
    /// later step allows, those steps cannot drop a color: they only
    /// quantize the same ones again, with error and no fewer bytes (a
    /// 2-color animation: 474,871 B lossless, 486,219 B at 24 colors).
    func laterStepsHelp() -> Bool {
        let fewest = steps.dropFirst().map { $0.colors ?? 256 }.min() ?? 0
        return (exactColors ?? .max) > fewest
    }

    func describe(_ step: BudgetStep, levels: [Int]) -> String {
        var parts = [step.colors.map { "\($0) colors" } ?? "256 colors"]
        parts.append(step.quality.map { "quality \($0)" } ?? "default quality")
        if let low = levels.min(), let high = levels.max() {
            parts.append(low == high ? "lossy \(low)" : "lossy \(low)–\(high)")
        }
        return parts.joined(separator: ", ")
    }

    /// Step `i` at its lowest and highest lossy level (and between, where
    /// the budget lies between them), or at `level` alone, whole.
    mutating func attempt(_ i: Int, level: Int?, run: BudgetRun, search: inout BudgetSearch) throws -> Bool {
        let step = steps[i]
        let ends = level.map { [$0] } ?? Array(Set([step.lossy.first!, step.lossy.last!])).sorted()
        run.announce(describe(step, levels: ends))
        let trial = step.applied(to: run.settings)
        // The last step's smallest file is written whole, to tell how small
        // a file can get if none fits.
        let outputs = LossyTrials(
            levels: ends, limit: maxBytes, unlimited: level ?? (i == steps.count - 1 ? ends.last : nil))
        outputs.growth = growth
        let report = try Self.encode(trial, to: outputs, run: run)
        var written = outputs.files
        // Levels stopped because the lowest was expected to fit, where it
        // did not after all: written whole now.
        let below = written.filter(outputs.stoppedBelow).map(\.level)
        if !below.isEmpty, let lowest = written.first, lowest.estimated || !search.fits(lowest.size) {
            let whole = try Self.write(below, trial, outputs, run: run, again: true)
            written = (written.filter { !below.contains($0.level) } + whole).sorted { $0.level < $1.level }
        }
        for file in written { growth[file.level] = file.growth ?? growth[file.level] }
        if i == 0, case .global(let colors, let transparent)? = outputs.header?.choice {
            exactColors = colors.count - (transparent == nil ? 0 : 1)
        }
        let files = try GIFLevelSearch.levels(
            written, maxBytes: maxBytes,
            write: { levels in try Self.write(levels, trial, outputs, run: run, again: false) },
            look: outputs.canReplay
                ? { try outputs.replay(levels: $0, jobs: run.settings.jobs, untilCheckpoint: true) } : nil)
        if level == nil, let lowest = files.first(where: { $0.level == ends.first }),
            let highest = files.first(where: { $0.level == ends.last })
        {
            sizes[i] = (lowest.size, highest.size)
        }
        // A level stopped below the budget has no bytes to write.
        var fits = false
        for file in files where !outputs.stoppedBelow(file) {
            var s = step
            s.lossy = [file.level]
            search.add(
                s, index: i, bytes: file.bytes, size: file.size, estimated: file.estimated, psnr: file.psnr,
                report: report)
            fits = fits || search.fits(file.size)
        }
        return fits
    }

    /// Where nothing fits and every file of the smallest estimate's step
    /// was left unfinished over the budget, that file is written whole.
    mutating func writeSmallest(run: BudgetRun, search: inout BudgetSearch) throws {
        guard search.smallestWritten == nil, let smallest = search.smallest else { return }
        _ = try attempt(search.smallestStep, level: smallest.lossy, run: run, search: &search)
    }

    /// `trial` encoded into `outputs`, ended early (an empty report) where
    /// every file grew past its limit.
    private static func encode(_ trial: EncodeSettings, to outputs: LossyTrials, run: BudgetRun) throws
        -> EncodeReport
    {
        let report = try run.encoder.encodeTrials(
            trial, run.source, timeline: run.timeline, into: outputs, batch: run.batch)
        return outputs.abandoned ? EncodeReport() : report
    }

    /// The files of `trial` at `levels`: from the frames `outputs` kept
    /// (LZW only), or where they were too large to keep, from one more
    /// pass ("lossy 40, 60", "… again" where they are written `again`),
    /// each left unfinished past the budget.
    private static func write(
        _ levels: [Int], _ trial: EncodeSettings, _ outputs: LossyTrials, run: BudgetRun, again: Bool
    ) throws -> [LossyTrials.File] {
        if outputs.canReplay { return try outputs.replay(levels: levels, jobs: run.settings.jobs) }
        run.announce("lossy \(levels.map(String.init).joined(separator: ", "))\(again ? " again" : "")")
        guard !levels.isEmpty else { return [] }
        let more = LossyTrials(levels: levels, limit: run.maxBytes)
        _ = try encode(trial, to: more, run: run)
        return more.files
    }
}

extension GIFEncoder {
    static func budget(_ settings: EncodeSettings, maxBytes: Int) -> any BudgetStrategy {
        GIFBudget(settings, maxBytes: maxBytes)
    }

    /// "quality 82, lossy 40, 256 colors", "default quality, lossy 0, 16 colors, dither 0.5".
    static func describe(_ choice: BudgetChoice) -> String {
        var parts = [choice.quality.map { "quality \($0)" } ?? "default quality", "lossy \(choice.lossy)"]
        parts.append(choice.colors.map { "\($0) colors" } ?? "256 colors")
        if choice.dither != 1 { parts.append("dither \(cFormat("%g", choice.dither))") }
        return parts.joined(separator: ", ")
    }

    static func heavyLoss(_ choice: BudgetChoice) -> String? {
        choice.lossy > GIFTuning.heavyLossy ? "heavily lossy (lossy \(choice.lossy))" : nil
    }
}
