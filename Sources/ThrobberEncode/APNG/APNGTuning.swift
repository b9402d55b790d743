/// The APNG encoder's tuned constants, each with what it trades and the
/// section of `docs/tuning.md` that measured it on the benchmark
/// corpora. The filter and deflate constants are the PNG compressor's
/// (`PNGTuning` in ThrobberCodecs).
enum APNGTuning {
    /// Unchanged runs shorter than this are drawn again in the third frame
    /// variant (OVER with short runs kept): trades the jumps a key pixel
    /// between changed ones costs the filtered row against the pixels drawn
    /// again ("APNG: the OVER variants"). In the encoder at level 10, mandelbrot
    /// 9,249,776 B without the third variant, 9,072,265 with 4, 9,054,179
    /// with 5, 9,074,829 with 6.
    static let shortRun = 5
}
