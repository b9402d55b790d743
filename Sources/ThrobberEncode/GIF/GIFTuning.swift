/// The GIF encoder's tuned constants, each with what it trades and the
/// section of `docs/benchmarks.md` that measured it on the benchmark
/// corpora (mandelbrot, testsrc2 and life, 320x240). Facts of the format
/// (`LossyLZW.maxLevel`, giflib's 4,096 codes) are not here.
enum GIFTuning {
    // MARK: - Lossy LZW

    /// Tolerance per `--lossy` level (`LossyLZW.tolerance(level:)`): trades
    /// bytes for PSNR per step of N ("`--lossy N` on gifsicle's scale").
    /// 16 makes N give about the PSNR of gifsicle's `--lossy=N` (within
    /// 1 dB on the corpora); under gifsicle's score a pixel changes only
    /// where that pays, and the scale 8 that matched gifsicle with
    /// "longest string first" left `--lossy 200` at the bytes gifsicle
    /// reaches at 80.
    static let lossyToleranceScale = 16

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

    // MARK: - Byte budget
}
