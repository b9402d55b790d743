/// The tuned constants of the byte-budget loop every format shares
/// (`AnimationEncoder.encodeWithin`). A format's own search constants sit
/// with its other tuning (`GIFTuning`, `WebPTuning`). Measured on the
/// benchmark corpora (docs/tuning.md, "How `--max-bytes` searches").
enum BudgetTuning {
    /// The palette ladder after the settings as given (`BudgetStep.
    /// paletteLadder`): quality, colors and the most dithering (nil: as
    /// given). Fewer colors than 64 go undithered, as dither noise costs
    /// compression more than it gains PSNR; 24 colors fill the gap between
    /// 32 and 16, where half budgets fell between a step at its smallest
    /// and the next at its largest.
    static let paletteLadder: [(quality: Int, colors: Int, dither: Double?)] = [
        (80, 256, nil), (60, 128, 0.5), (40, 64, 0), (20, 32, 0), (15, 24, 0), (10, 16, 0),
    ]

    /// The most one step of the ladder has shrunk the smallest file: to
    /// 0.805 of it (most steps 0.85–1.0). A step is not tried while the
    /// budget needs more shrinking than this per step from the smallest
    /// file so far. Trades: too high costs a pass, never the result.
    static let fastestStep = 0.8

    /// How far past the budget the smallest settings' file must grow for
    /// the budget to be refused before the search: files shrink along the
    /// ladder, but not always strictly (a 2-color animation grew 2.4 % at
    /// 24 colors). Trades: a wider margin only searches longer before a
    /// refusal.
    static let boundMargin = 1.05

    /// The sample of the whole animation whose bytes tell the lower bound
    /// whether the smallest file passes the budget (`BudgetRun.
    /// sampledSize`): 8 stretches of 4 entries. Trades: more entries
    /// estimate closer (each stretch's first frame is a jump) and cost
    /// their encode before every search.
    static let sampleRuns = 8
    static let sampleLength = 4

    /// A budget's file with fewer colors than this is posterized (the
    /// ladder's undithered 32, 24 and 16 colors); heavily lossy is each
    /// format's own (`FormatEncoder.heavyLoss`). Either way the summary
    /// names the frame rate and width that would fit at the best settings
    /// short of that.
    static let posterizedBelow = 64

    /// A note names a width only where a palette per frame (3 bytes a
    /// color of the settings it names) is at most this share of the
    /// budget: palettes do not shrink with the width (testsrc2 at
    /// 50 px wide, 256 colors: 31 kB against 60 kB at 160 px), pixels at
    /// least as fast as it.
    static let notedWidthPaletteShare = 0.05

    /// How much of the bytes' ratio a note's lower frame rate or width
    /// takes: frames further apart differ more, and headers do not shrink.
    static let adviceMargin = 0.85

    /// The share of the width that a refusal's advice takes off beyond the
    /// bytes' ratio: headers and palettes do not shrink with the frames.
    static let widthMargin = 0.9

    /// With leave to reduce (`--allow-reduce`): the frame steps (every kth
    /// frame kept) and scales tried (`BudgetReduction.ladder`), and the
    /// most searches after the first. The search jumps to the first
    /// reduction whose share of the pixels a second is at most the
    /// budget's ratio to the smallest good file (less `adviceMargin`), and
    /// goes on from there while the file is still degraded. Trades: more
    /// searches find a fit in more cases, each costs up to a full search.
    static let reduceEvery = [1, 2, 3, 4, 6, 8]
    static let reduceScales = [1, 0.75, 0.5, 0.375, 0.25]
    static let reduceSearches = 4
    /// No side is scaled below this many pixels.
    static let reducedSideMinimum = 16
}
