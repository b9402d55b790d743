import ThrobberCodecs
import ThrobberCore

/// A sink for byte-budget trials: given to the GIF encoder, it writes one
/// file per lossy level from the same palettized frames, so a lossy trial
/// costs only its LZW, not another palette search. It keeps those frames
/// (up to `GIFTuning.keepBudget` bytes), so that more levels can be written later
/// (`replay`) with only their LZW again.
///
/// With a `limit` (the budget), a file stops being written once it is
/// larger, as it cannot fit: its size is then estimated from the share of
/// the animation written (`File.estimated`), and once every file is over,
/// the encode stops (`abandoned`). Mandelbrot at a quarter of its size:
/// its lossless file is over after a quarter of the frames.
final class LossyTrials {
    /// The levels tried, lowest first.
    let levels: [Int]
    /// One file per level, in memory.
    let outputs: [MemorySink]
    /// PSNR (dB) of each level's file against the source frames, set when
    /// the encode finishes.
    var psnr: [Double] = []
    /// Bytes that no file may pass; nil for no limit.
    let limit: Int?
    /// A level written to the end whatever its size: the search's last
    /// step at its smallest, so that when nothing fits, the smallest size
    /// reached is known, not estimated.
    let unlimited: Int?
    /// Per level, where its writer ended (`record`): where the file passed
    /// `limit` or was stopped (the entries shown and its bytes then), its
    /// bytes at the checkpoint, and the size a file stopped there was
    /// expected to reach; empty until the encode ends.
    private var ends: [(over: (entries: Int, bytes: Int)?, mark: (entries: Int, bytes: Int)?, projected: Int?)] = []
    /// Per level, how many times its bytes at the checkpoint a whole file
    /// of a trial before grew to (`File.growth`): with it, a file whose
    /// bytes there scale to more than `GIFTuning.projectionMargin` times the limit
    /// stops at the checkpoint, as it cannot fit.
    var growth: [Int: Double] = [:]
    /// Every file went over `limit`, and the encode stopped before its end.
    private(set) var abandoned = false

    /// Whether `file` was stopped at its checkpoint below the limit (its
    /// size projected, its bytes not written), because the lowest level
    /// was expected to fit.
    func stoppedBelow(_ file: File) -> Bool { file.projected && file.size <= (limit ?? .max) }

    /// What `GIFFrameWriter` needs besides the frames.
    struct Header {
        var width: Int, height: Int
        var choice: PaletteChoice
        var loop: Int
        /// Entries of the timeline.
        var entries: Int
        /// One source frame: interlaced rows are tried too.
        var still: Bool
        /// `--compression fast` (`GIFFrameWriter`'s `fast`).
        var fast = false
    }
    var header: Header?
    /// The palettized frames in order, or nil once they outgrew `GIFTuning.keepBudget`.
    private(set) var kept: [[GIFFrameWriter.Paletted]]? = []
    private var keptBytes = 0
    /// The writers of the last looks (`replay` to the checkpoint), by
    /// level, for a whole file at the same level to go on from.
    var looks: [Int: Look] = [:]

    init(levels: [Int], limit: Int? = nil, unlimited: Int? = nil) {
        self.levels = levels
        self.limit = limit
        self.unlimited = unlimited
        outputs = levels.map { _ in MemorySink() }
    }

    /// The limit of the file at `level`.
    func limit(level: Int) -> Int? { level == unlimited ? nil : limit }

    /// Every file is over the limit and the encode stops: the frames kept
    /// so far are not the whole animation.
    func abandon(_ trials: [GIFTrial?]) {
        record(trials)
        kept = nil
        abandoned = true
    }

    /// Keeps a batch of frames for `replay`, while they fit in the budget.
    func keep(_ frames: [GIFFrameWriter.Paletted]) {
        guard kept != nil else { return }
        for p in frames {
            keptBytes += p.frame.target.pixels.count + p.frame.geometry.rect.width * p.frame.geometry.rect.height
        }
        if keptBytes > GIFTuning.keepBudget {
            kept = nil
        } else {
            kept?.append(frames)
        }
    }

    /// One lossy level's file and its PSNR (nil where not measured).
    struct File {
        var level: Int
        var bytes: [UInt8]
        var psnr: Double?
        /// Its size, or where it was left unfinished over the limit
        /// (`estimated`), the size its written share scales to, or the
        /// size it was projected to (`projected`).
        var size: Int
        var estimated = false
        var projected = false
        /// Its bytes at the checkpoint, nil where it did not reach it.
        var prefix: Int?
        /// The share of the timeline written (1: the whole file).
        var written = 1.0

        init(level: Int, bytes: [UInt8], psnr: Double?, prefix: Int? = nil) {
            self.level = level
            self.bytes = bytes
            self.psnr = psnr
            self.prefix = prefix
            size = bytes.count
        }

        /// A file left at `over.bytes` after `over.entries` of `entries`,
        /// or stopped at its checkpoint where expected to reach `projected`.
        init(level: Int, over: (entries: Int, bytes: Int), entries: Int, projected: Int?, prefix: Int?) {
            self.init(level: level, bytes: [], psnr: nil, prefix: prefix)
            written = Double(over.entries) / Double(max(1, entries))
            size = projected ?? Int(Double(over.bytes) / written)
            estimated = true
            self.projected = projected != nil
        }

        /// How many times its bytes at the checkpoint the file grew to, nil
        /// where unknown: where it was projected, or left unfinished before
        /// half the timeline (the share's scale is then too rough).
        var growth: Double? {
            guard let prefix, prefix > 0, !projected, written >= 0.5 else { return nil }
            return Double(size) / Double(prefix)
        }

        /// `growth`, or for a file stopped at its checkpoint the growth it
        /// was projected with (that of the pass before, at its level).
        var expectedGrowth: Double? {
            guard projected, let prefix, prefix > 0 else { return growth }
            return Double(size) / Double(prefix)
        }
    }

    /// The files the encode wrote, lowest level first.
    var files: [File] {
        levels.indices.map { j in
            let end = j < ends.count ? ends[j] : (over: nil, mark: nil, projected: nil)
            if let over = end.over {
                return File(
                    level: levels[j], over: over, entries: header?.entries ?? over.entries,
                    projected: end.projected, prefix: end.mark?.bytes)
            }
            return File(
                level: levels[j], bytes: outputs[j].bytes, psnr: j < psnr.count ? psnr[j] : nil,
                prefix: end.mark?.bytes)
        }
    }

    /// Records where each level's writer ended (its trial state, in the
    /// order of `levels`).
    func record(_ trials: [GIFTrial?]) {
        ends = trials.map { ($0?.over, $0?.mark, $0?.projected) }
    }

    /// Whether `replay` can write more levels.
    var canReplay: Bool { kept != nil && header != nil }
}
