import ThrobberCodecs
import ThrobberCore

/// A sink for byte-budget trials: given to the GIF encoder, it writes one
/// file per lossy level from the same palettized frames, so a lossy trial
/// costs only its LZW, not another palette search.
final class LossyTrials: ByteSink {
    /// The levels tried, lowest first.
    let levels: [Int]
    /// One file per level, in memory.
    let outputs: [MemorySink]

    init(levels: [Int]) {
        self.levels = levels
        outputs = levels.map { _ in MemorySink() }
    }

    /// Nothing is written here itself, only to `outputs`.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool { false }
}
