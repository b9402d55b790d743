import ThrobberCodecs
import ThrobberCore

/// One step of a byte-budget ladder: the settings a pass tries, and the
/// levels (GIF's lossy LZW) it writes from the same frames.
struct BudgetStep: Sendable {
    /// libimagequant quality, or the format's lossy quality; nil as given.
    var quality: Int?
    /// Most colors per palette; nil for the format's default.
    var colors: Int?
    /// Dithering strength.
    var dither: Double
    /// The levels one pass writes (`[0]` where the format has none).
    var lossy: [Int]

    /// `settings` with this step's palette and quality.
    func applied(to settings: EncodeSettings) -> EncodeSettings {
        var trial = settings
        trial.quality = quality
        trial.colors = colors
        trial.dither = dither
        return trial
    }

    /// The palette ladder, best-looking first: the settings as given, then
    /// ever fewer colors at lower quality; from 128 colors on with less
    /// dithering and from 64 with none, as dither noise costs compression
    /// more than it gains PSNR there; 24 colors between 32 and 16. A step
    /// that changes nothing from the settings is left out. Each step
    /// writes `levels`.
    static func paletteLadder(_ settings: EncodeSettings, levels: [Int]) -> [BudgetStep] {
        let s = settings
        let colors = s.colors ?? 256
        var steps = [BudgetStep(quality: s.quality, colors: s.colors, dither: s.dither, lossy: levels)]
        for r in BudgetTuning.paletteLadder where r.colors < colors || r.quality < (s.quality ?? 101) {
            steps.append(
                BudgetStep(
                    quality: min(r.quality, s.quality ?? 100), colors: min(r.colors, colors),
                    dither: min(r.dither ?? s.dither, s.dither), lossy: levels))
        }
        return steps
    }
}

/// How a format meets a byte budget (``EncodeSettings/maxBytes``): the
/// ladder of settings it offers, and how it tries a step. The skeleton's
/// loop (`AnimationEncoder.encodeWithin`) bounds the budget, tries the
/// settings as given, and bisects the ladder for the first step that fits;
/// it knows nothing of palettes, LZW or libwebp, only steps and files.
protocol BudgetStrategy {
    /// The ladder, best-looking first (sizes fall along it). `prepare` may
    /// change a step before it is tried.
    var steps: [BudgetStep] { get set }

    /// Whether the lower bound is checked after the settings as given did
    /// not fit (a format whose smallest setting can be larger than the
    /// settings as given), rather than before the search.
    var boundsAfterFirstStep: Bool { get }

    /// Whether sizes fall with every step strictly enough for the search
    /// to skip steps the smallest file so far shows cannot fit, and to end
    /// where a failed step made nothing smaller than the settings' file.
    var sizesFollowSteps: Bool { get }

    /// Tries step `i` (or only its `level`, written whole), adding its
    /// files to `search`; true when one fits.
    mutating func attempt(_ i: Int, level: Int?, run: BudgetRun, search: inout BudgetSearch) throws -> Bool

    /// The lower bound: the ladder's smallest step, `last`, at `level`,
    /// counted without keeping the file. Returns how far it got past the
    /// budget where no step can fit, nil where the search should go on.
    func lowerBound(_ last: BudgetStep, level: Int, run: BudgetRun) throws -> BudgetRun.Overrun?

    /// Whether the steps after the first can fit where the first did not,
    /// judged from the first step's files.
    func laterStepsHelp() -> Bool

    /// Before step `next` is tried between `fails` (a step that did not
    /// fit) and `fits` (one that did, or one past the last): may change
    /// the step; false where it is not worth a pass, which ends the search.
    mutating func prepare(next: Int, fails: Int, fits: Int, search: BudgetSearch) -> Bool

    /// Where nothing fits: makes sure the smallest file reached was
    /// written whole, so its size is told exactly.
    mutating func writeSmallest(run: BudgetRun, search: inout BudgetSearch) throws

    /// What a pass of `step` at `levels` tries, for its progress label.
    func describe(_ step: BudgetStep, levels: [Int]) -> String
}

extension BudgetStrategy {
    func laterStepsHelp() -> Bool { true }
    mutating func prepare(next: Int, fails: Int, fits: Int, search: BudgetSearch) -> Bool { true }
    mutating func writeSmallest(run: BudgetRun, search: inout BudgetSearch) throws {}
}
