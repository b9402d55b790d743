import ThrobberCodecs

/// Every tuned constant of the WebP encoder, each with what it trades and
/// where it was measured: docs/tuning.md, "WebP: which lossless settings
/// race", "WebP: lossy method and segment smoothing" and "WebP: palette
/// frames", docs/benchmarks.md, "Animated WebP" (the current tables), and
/// docs/reliability.md, "Memory". Numbers below come from those tables, on
/// the benchmark corpora (mandelbrot, testsrc2, life at 320x240, a camera's
/// 60 frames) and the 18 presets.
enum WebPTuning {
    // MARK: Lossless racers

    /// `fast`: method 1 at effort 25, one racer; trades 0–21 % more bytes for
    /// a fraction of `best`'s time (docs/benchmarks.md, "Animated WebP", `--compression fast`).
    static let fastLossless = WebPAnimWriter.Settings(lossless: true, quality: 25, method: 1)

    /// `best`'s first racer: method 3 at effort 50 wins where method 5's
    /// heuristic guesses badly (testsrc2 10 % under both others) in an
    /// eighth of its time ("WebP: which lossless settings race").
    static let method3 = WebPAnimWriter.Settings(lossless: true, quality: 50, method: 3)

    /// `best`'s second racer and the exhaustive sample's baseline: method 5
    /// at effort 90, smaller than method 3 on most presets; method 4 at
    /// effort 75 won on none by more than 2 bytes and as a third racer
    /// doubled the time of 20–200 ms files ("WebP: which lossless settings race").
    static let method5 = WebPAnimWriter.Settings(lossless: true, quality: 90, method: 5)

    /// Method 4 at effort 100, where libwebp clusters a frame's tile
    /// histograms without first binning them by entropy (`histogram_enc.c`):
    /// textured frames 3.2 % smaller than method 5 (mandelbrot) at 3.5 times
    /// its time, a camera's frames 3.1 % larger, so it races beside method 5,
    /// never instead ("WebP: which lossless settings race", the 4-frame table).
    static let fullEffort = WebPAnimWriter.Settings(lossless: true, quality: 100, method: 4)

    /// libwebp's exhaustive lossless setting (method 6, effort 100: every
    /// transform tried, not the one a heuristic guesses): 3–28 % smaller on
    /// small loaders at about 15 times method 5's time a pixel ("Lossless:
    /// which settings race", the exhaustive table).
    static let exhaustive = WebPAnimWriter.Settings(lossless: true, quality: 100, method: 6)

    // MARK: The prefix race of `fullEffort`

    /// Frames each racer codes as an animation of its own before one is
    /// stopped: more decides surer, fewer wastes less of the loser's time;
    /// on 4 frames the three settings came in the order of the whole file
    /// on every corpus ("WebP: which lossless settings race", the 4-frame and
    /// time tables: the camera 4.2 s with three racers, 2.8–3.0 s after it).
    static let prefixFrames = 4

    /// How much smaller (percent) `fullEffort`'s prefix must be than every
    /// other racer's for it to go on: less lets it replace a racer that
    /// wins on the whole file (the ease preset: equal prefixes, 0.2 % larger
    /// file at effort 100), more drops it where it gains 3–6 % (mandelbrot's
    /// prefixes 1.7 % and 3.4 % smaller) ("WebP: which lossless settings race").
    static let prefixGainPercent = 1

    /// How much smaller (percent) method 3's prefix must be than method 5's
    /// for method 5 to stop with `fullEffort` (method 3 then races alone,
    /// in a third to a half of method 5's time): less let method 5 stop
    /// where it wins the whole file (the dots-flip example 0.19 % smaller
    /// at method 3, 4 B larger in all; the ease preset's equal prefixes,
    /// 140 B), more keeps it on testsrc2 (3.4 % smaller, a 10 % smaller
    /// file) ("WebP: time against img2webp").
    static let method3AloneGainPercent = 1

    /// Tiles of 8x8 pixels above which libwebp bins histograms below effort
    /// 100 (`histogram_enc.c`): `fullEffort` races only on frames with more,
    /// as smaller frames code the same at effort 100 in more time
    /// ("WebP: which lossless settings race").
    static let fullEffortTiles = 128

    // MARK: The exhaustive race

    /// Most pixels in all (frames × width × height) on which the default
    /// races `exhaustive`: more tries it where its time is seconds, fewer
    /// misses gains; 256 Ki is a 64x64 loader of 64 frames, and the ease
    /// preset (432 Ki) spent twice its whole method-5 file on the sample and
    /// gains nothing ("WebP: which lossless settings race", the exhaustive table).
    static let exhaustivePixels = 1 << 18

    /// Most bytes the sample's lead at method 5 times the frames (about the
    /// file) may come to for `exhaustive` to race: above it are
    /// high-entropy frames (noise, fractals) that cost it several times more
    /// a pixel and gain little ("WebP: which lossless settings race").
    static let exhaustiveBytes = 256 << 10

    /// How much smaller (percent) the exhaustive sample must code than
    /// method 5 for `exhaustive` to race: on the 18 presets, truecolor and
    /// with `--colors` 8 to 256, the sample agreed with the whole file on
    /// every preset at this threshold ("WebP: which lossless settings race").
    static let exhaustiveGainPercent = 1

    // MARK: Lossy

    /// Lossy key frames at least every `kmax` and at most every `kmin`
    /// frames: more cost bytes, fewer let libwebp's error build up from
    /// frame to frame (+0.8 dB PSNR at the same size at quality 75,
    /// measured on the benchmark corpora: docs/benchmarks.md, "Animated
    /// WebP").
    static let lossyKeyFrames: (kmin: Int32, kmax: Int32) = (3, 5)

    /// Lossy methods for `fast`, `best` and `max`: `best` is 4, not 5, as
    /// method 5's trellis buys under 0.01 dB PSNR with 0.001–0.002 SSIM at
    /// equal bytes in more time ("WebP: lossy method and segment smoothing").
    static let lossyMethods: (fast: Int32, best: Int32, max: Int32) = (2, 4, 6)

    // MARK: Memory and heap

    /// Frames of RGBA each libwebp encoder holds at most for the memory
    /// plan: a higher count refuses or splits encodes that fit, a lower one
    /// overruns the budget; each coder peaked at 8–10 frames of 2048²
    /// (docs/reliability.md, "Memory").
    static let heldPerWriter = 12

    /// Bytes each libwebp encoder holds whatever the frame size (hash
    /// table, histogram sets): 512x512 frames measured 116 MB where the
    /// estimate with it is 114 (docs/reliability.md, "Memory").
    static let heldBytesPerWriter = 16 << 20

    /// Frames up to this many pixels are coded under `HeapPolicy.reuse`:
    /// glibc keeps libwebp's tables in its heaps, 10–15 % faster on the
    /// 320x240 corpora, where larger frames grew the peak (four 2048² frames
    /// 551 → 825 MB) ("WebP: which lossless settings race", heap).
    static let reusePixels = 512 * 512

    // MARK: - Byte budget (`WebPBudget`)

    /// The share of the timeline the budget's lower bound encodes first
    /// (a sixteenth). Trades: a feasible budget pays about a sixteenth of
    /// one pass of a search of eight or so; a larger share refuses sooner.
    static let budgetSampleShare = 16

    /// Below this lossy quality a budget's file is heavily lossy
    /// (`WebPEncoder.heavyLoss`): the summary says so, and `--allow-reduce`
    /// lowers the frame rate or the size instead. On the camera frames and
    /// the photographic pan at 2x, quality 10 shows 16-pixel blocks and 20
    /// smears texture, 30 keeps it (camera frames: 32.3, 33.8, 35.1 dB,
    /// SSIM 0.858, 0.889, 0.907; quality 50 37.4 dB, 0.925).
    static let heavyLossyBelow = 30
}
