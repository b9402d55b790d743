/// The GIF encoder's tuned constants, each with what it trades and the
/// section of `docs/tuning.md` that measured it on the benchmark
/// corpora (mandelbrot, testsrc2 and life, 320x240). Facts of the format
/// (`LossyLZW.maxLevel`, giflib's 4,096 codes) are not here.
enum GIFTuning {
    // MARK: - Lossy LZW

    /// Tolerance per `--lossy` level (`LossyLZW.tolerance(level:)`): trades
    /// bytes for PSNR per step of N ("The `--lossy` scale").
    /// 16 makes N give about the PSNR of gifsicle's `--lossy=N` (within
    /// 1 dB on the corpora); under gifsicle's score a pixel changes only
    /// where that pays, and the scale 8 that matched gifsicle with
    /// "longest string first" left `--lossy 200` at the bytes gifsicle
    /// reaches at 80.
    static let lossyToleranceScale = 16

    /// Lossy LZW in flat parts of the source (`LossyMasking`): a pixel
    /// whose 3x3 neighborhood has no luma step above
    /// `lossyFlatContrast` weighs its distances `lossyFlatWeight` times,
    /// so there it moves about 2 gray levels at `--lossy 100`, not 13.
    /// Trades: the coder's streaks and gray strings on white margins and
    /// dark still backgrounds for bytes. At equal bytes, SSIM +0.04 to
    /// +0.07 on the camera frames (PSNR −0.1 to −0.5 dB), PSNR and SSIM
    /// both up on the 1440x900 text recording, the photographic pan as
    /// before; a contrast of 4 took the grain of the pan and the camera
    /// frames' shadows for flat ("How the lossy coder is tuned").
    static let lossyFlatWeight: UInt8 = 64
    static let lossyFlatContrast = 1

    /// Pixels of string length one tolerance's worth of summed error costs
    /// in the string score (`LossyLZW.better`): trades changed pixels for
    /// longer strings ("How the lossy coder is tuned"). gifsicle's 4; 2, 8,
    /// 16 and 32 each only move along nearly the same curve (at 580 kB:
    /// 45.2, 45.7, 46.0, 45.8 dB for 2, 4, 8, 16). "Longest, then least
    /// error" changed about twice as many pixels for the same bytes
    /// (`--lossy 20`: 46.63 dB against 48.22 dB in 0.2 % more bytes).
    static let lossyErrorWeight = 4

    /// How much more a changed pixel's error weighs when it starts a new
    /// string than inside one (the pixel also ends the dictionary entry
    /// made for the string before): trades bytes for fewer changed pixels
    /// at string starts ("How the lossy coder is tuned"). Against 1, at
    /// equal bytes, levels 40–80: testsrc2 0.2–0.25 dB better (0.5 dB with
    /// no change there at all, but then lossy 200 reaches 1.7 % less far),
    /// mandelbrot 0.1–0.2 dB lower PSNR and higher SSIM (+0.0007 to
    /// +0.0034); 2 lies between.
    static let lossyFirstStepWeight = 4

    /// Most nodes one dictionary search looks at below its first step:
    /// trades a bound on the worst case (a search branches at every pixel
    /// that may change) against strings cut short ("How the lossy coder
    /// is tuned"). At 12 most searches were cut short, 1–2 dB lost at
    /// equal bytes on testsrc2 (0.1–0.3 dB on mandelbrot); past about 200
    /// nothing changes (at 1,000: the same strings within 0.01 %), and
    /// `--lossy 80` took no more CPU time at 200 than at 12.
    static let lossySearchBudget = 256

    /// √1.5 (1.2247…), rounded up: how far apart two colors within the
    /// tolerance of one source can be, as a share of the summed roots
    /// (`LossyLZW.candidates`); a bound, not a trade: smaller would drop
    /// allowed entries, larger only measures more neighbors.
    static let lossyMetricSlack = 1.2248

    /// Rings of `lossyRingWidth` in √distance that the coder's neighbor
    /// lists are ordered by (the last takes all beyond): trades the time to
    /// list an entry's neighbors against the neighbors a scan measures past
    /// its bound; output is the same at any setting, only the time differs
    /// ("How the lossy coder is tuned", its instruction counts).
    static let lossyRings = 64
    static let lossyRingWidth = 4

    /// How far (`ColorTable.perceptualDistance`) a pixel's source may
    /// move from the source its shown color was drawn for while it keeps
    /// that color at a loss (`GIFFrameWriter.keepsAtLoss`), as a share of
    /// the tolerance: trades bytes on noisy video for what earlier frames
    /// drew staying on screen ("How the lossy coder is tuned"). A quarter
    /// (about half the tolerance's levels) on the 1440x900 text recording
    /// through H.264: 1.5–2.4 % more bytes than judging keeps by the current
    /// source alone, 0.24 dB more PSNR, stale pixels halved at lossy 200
    /// and a seventh at 80; a fixed 3–4 gray levels cost 9–13 % more bytes
    /// for 0.1–0.9 dB less (refused keeps are drawn again, at a loss).
    static func lossyKeepDrift(tolerance: Int) -> Int { tolerance / 4 }

    // MARK: - Frame writing

    /// A costly second candidate encoding (`TrialBackoff`) is skipped after
    /// this many losses in a row, and tried again every `trialRetry`
    /// frames: trades the candidate's time on content where it never wins
    /// against the bytes it finds where it does.
    static let trialLossLimit = 4
    static let trialRetry = 16

    // MARK: - Byte budget (`GIFBudget`), measured in docs/tuning.md, "How `--max-bytes` searches"

    /// The lossy levels of a budget step, from the asked level up. A pass
    /// writes only the lowest and the highest; levels between come from
    /// the same palettized frames, LZW only. Trades: more levels per pass
    /// cost an LZW coder each, fewer leave wider gaps to search.
    static let budgetLevels = [0, 25, 50, 100, 200]

    /// The share of the budget a file must fill for the level search to
    /// stop (97 %). Trades: each round more costs two lossy LZW passes for
    /// a few tenths of a dB.
    static let budgetEnough = 0.97

    /// Above this lossy level a budget's file is heavily lossy
    /// (`GIFEncoder.heavyLoss`): the summary says so, and `--allow-reduce`
    /// lowers the frame rate or the size instead. Past it a pixel may move
    /// more than about 13 gray levels (`LossyLZW.tolerance(level:)`).
    static let heavyLossy = 100

    /// The share of the budget that colors chosen between two steps aim
    /// at (`GIFBudget.colorsBetween`). Trades: higher fills more of the
    /// budget, but a miss costs the step.
    static let fillShare = 0.99

    /// Rounds of two more lossy levels between a step's levels
    /// (`GIFLevelSearch.levels`). Trades: a round is two LZW passes.
    static let levelRounds = 3

    /// Rounds of looks (files written to their checkpoint only) before
    /// each round of whole files. Trades: a look is a quarter of a level's
    /// LZW; two rounds of looks replaced a round of whole files.
    static let lookRounds = 2

    /// The shares of the budget the two whole files after looks aim at:
    /// with the looks' scale error of −2.4 … +2.7 %, one or the other
    /// fills 97–100 % of the budget. Trades: aims nearer 100 % miss more
    /// often, lower ones leave bytes unused.
    static let aimShares = [0.9975, 0.9676]

    /// The share of the growth from a checkpoint between a lossless file
    /// and a lossy one that the least loss already takes (35–37 % on the
    /// noisy corpus, none on the flat one); the rest follows the level's
    /// logarithm. Trades: too low aims lossy levels short of the budget,
    /// costing a round.
    static let lossyJump = 0.35

    /// Where trial files are measured to tell early how large they will
    /// be: a quarter of the timeline (nil under 8 entries). Scaled by a
    /// whole file of the same level, bytes there gave every step's size
    /// within 3.6 %. Trades: later is more exact and stops files later.
    static func checkpoint(entries: Int) -> Int? { entries >= 8 ? (entries + 3) / 4 : nil }

    /// How far past the budget a projected file must be to stop at the
    /// checkpoint: well beyond the projections' error, so that a file that
    /// could fit is written on. Trades: lower stops more files sooner, at
    /// the risk of stopping one that fits.
    static let projectionMargin = 1.1

    /// How far under the budget the lowest level's file must be projected
    /// for the higher levels to stop at the checkpoint (a step that fits
    /// lossless needs no lossy level; the second file cost a third more
    /// time). Trades: a file projected to fit that does not is written
    /// again whole.
    static let fitMargin = 1.02

    /// Bytes of palettized frames kept for writing more levels LZW only.
    /// Trades: memory for a whole palette pass per extra level on longer
    /// animations.
    static let keepBudget = 384 << 20

    /// Most frames `--palette shared` builds its palette from, spread
    /// evenly over a longer animation, so the survey's time and histogram
    /// stop growing with the clip (2 minutes of 720p testsrc2 at
    /// `--width 320 --fps 10`, 1200 frames: 26.5 → 18.9 s, peak RSS 176 →
    /// 141 MB, 20 s of it 138 MB; the file 1.7 % larger). Trades: colors
    /// that only unsampled frames show get no entries of their own; 10
    /// frames of 60–75 gave the video benchmark's screen recording and
    /// testsrc2 the same PSNR within 0.2 dB, so 120 leaves a wide margin.
    static let sharedPaletteSample = 120

    // MARK: - libimagequant speed

    /// libimagequant's speed for `--compression best` and `max`: its
    /// default, 4. Speed 5 saves 4–12 % of the CPU for files a few bytes
    /// larger, 6 and up lose a dB or more ("GIF: where a default encode's
    /// time goes").
    static let quantizerSpeed = 4

    /// libimagequant's speed under `--compression fast`, for each frame's
    /// palette and for the survey of `--palette shared` (whose one palette
    /// is still chosen at `quantizerSpeed`). 10 skips the contrast maps and
    /// most k-means rounds: trades 1–3 dB for about half of libimagequant's
    /// time ("GIF: `--compression fast`").
    static let fastQuantizerSpeed = 10
}
