import Glibc

/// What a byte-budget trial (`LossyTrials`) watches while a
/// `GIFFrameWriter` writes one lossy level's file: its error against the
/// source, the budget it may not pass, and its size at a checkpoint that
/// the search scales to the whole file.
struct GIFTrial {
    /// Whether the error of what is shown is measured (see `psnr`).
    var measures = true
    /// A file that grows past this many bytes cannot fit, and the writer
    /// stops (`over`); nil for no limit.
    var limit: Int?
    /// Once the frames written show this many timeline entries, the file's
    /// bytes are noted (`mark`; `GIFTuning.checkpoint`).
    var checkpoint: Int?
    /// Whether the writer stops at the checkpoint: a look at the first
    /// part of a file only.
    var stopsAtCheckpoint = false
    /// For a look: the limit the whole file would have. The writer does
    /// not stop there, but notes where the file first passed it
    /// (`firstOver`), so that the whole file can go on from the look.
    var watch: Int?
    /// The squared error of what is shown against each frame's source,
    /// summed over channels, pixels and centiseconds, and the samples it
    /// sums.
    private(set) var squaredError = 0.0
    private(set) var samples = 0.0
    /// Where the file passed `limit` (or was stopped, `stop`): the entries
    /// its frames showed then, and its bytes; nil while it has not.
    private(set) var over: (entries: Int, bytes: Int)?
    /// The entries shown and the bytes written at the checkpoint.
    private(set) var mark: (entries: Int, bytes: Int)?
    /// Where the file first passed `watch`: the entries shown and its
    /// bytes then; nil while it has not.
    private(set) var firstOver: (entries: Int, bytes: Int)?
    /// The size the file would reach, where it was stopped for being
    /// expected to grow past the limit (`stop`).
    private(set) var projected: Int?

    /// Whether the writer writes no more frames.
    var isDone: Bool { over != nil || (stopsAtCheckpoint && mark != nil) }

    /// Notes the file after a frame that ends at timeline entry `entries`,
    /// with `bytes` written so far (nil where the sink does not count).
    mutating func note(entries: Int, bytes: Int?) {
        guard let bytes else { return }
        if let limit, bytes > limit { over = (entries, bytes) }
        if firstOver == nil, let watch, bytes > watch { firstOver = (entries, bytes) }
        if mark == nil, let checkpoint, entries >= checkpoint { mark = (entries, bytes) }
    }

    /// Adds a frame's squared error `sum` over `samples` channel values,
    /// shown for `weight` centiseconds.
    mutating func add(error sum: Int, samples count: Int, weight: Double) {
        squaredError += Double(sum) * weight
        samples += Double(count) * weight
    }

    /// A look that stopped at its checkpoint without passing `watch` goes
    /// on as the whole file, stopping past `limit`: the state it reaches is
    /// the one a whole file written from the start with that limit has.
    mutating func resume(limit: Int?) {
        self.limit = limit
        watch = nil
        stopsAtCheckpoint = false
    }

    /// Stops the file at its checkpoint: it is expected to reach `size`
    /// bytes, past the limit.
    mutating func stop(projected size: Int) {
        over = mark
        projected = size
    }

    /// PSNR in dB of everything written so far (measured frames only);
    /// infinity when lossless.
    var psnr: Double {
        guard samples > 0, squaredError > 0 else { return .infinity }
        return 10 * log10(255 * 255 * samples / squaredError)
    }
}
