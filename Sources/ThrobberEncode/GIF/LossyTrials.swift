import ThrobberCodecs
import ThrobberCore

/// A sink for byte-budget trials: given to the GIF encoder, it writes one
/// file per lossy level from the same palettized frames, so a lossy trial
/// costs only its LZW, not another palette search. It keeps those frames
/// (up to `keepBudget` bytes), so that more levels can be written later
/// (`replay`) with only their LZW again.
final class LossyTrials: ByteSink {
    /// The levels tried, lowest first.
    let levels: [Int]
    /// One file per level, in memory.
    let outputs: [MemorySink]
    /// PSNR (dB) of each level's file against the source frames, set when
    /// the encode finishes.
    var psnr: [Double] = []

    /// Bytes of palettized frames kept at most (frames, pixels and indices).
    static let keepBudget = 384 << 20
    /// What `GIFFrameWriter` needs besides the frames.
    struct Header {
        var width: Int, height: Int
        var choice: PaletteChoice
        var loop: Int
    }
    var header: Header?
    /// The palettized frames in order, or nil once they outgrew `keepBudget`.
    private(set) var kept: [[GIFFrameWriter.Paletted]]? = []
    private var keptBytes = 0

    init(levels: [Int]) {
        self.levels = levels
        outputs = levels.map { _ in MemorySink() }
    }

    /// Nothing is written here itself, only to `outputs`.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool { false }

    /// Keeps a batch of frames for `replay`, while they fit in the budget.
    func keep(_ frames: [GIFFrameWriter.Paletted]) {
        guard kept != nil else { return }
        for p in frames {
            keptBytes += p.frame.target.pixels.count + p.frame.geometry.rect.width * p.frame.geometry.rect.height
        }
        if keptBytes > Self.keepBudget {
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
    }

    /// The files the encode wrote, lowest level first.
    var files: [File] {
        levels.indices.map { j in
            File(level: levels[j], bytes: outputs[j].bytes, psnr: j < psnr.count ? psnr[j] : nil)
        }
    }

    /// Whether `replay` can write more levels.
    var canReplay: Bool { kept != nil && header != nil }

    /// The files at `levels`, from the kept frames on up to `jobs`
    /// threads: the same bytes as new encodes at those levels would give.
    func replay(levels: [Int], jobs: Int) throws -> [File] {
        let (header, kept) = (header, kept)
        return try parallelMap(levels.count, jobs: jobs) { i in
            let (bytes, psnr) = try Self.replay(level: levels[i], header: header, kept: kept)
            return File(level: levels[i], bytes: bytes, psnr: psnr)
        }
    }

    private static func replay(level: Int, header: Header?, kept: [[GIFFrameWriter.Paletted]]?) throws -> (
        bytes: [UInt8], psnr: Double
    ) {
        guard let header, let kept else { throw ThrobberError(.software, "lossy replay without kept frames") }
        let sink = MemorySink()
        var writer = try GIFFrameWriter(
            sink: sink, width: header.width, height: header.height, choice: header.choice, loop: header.loop,
            lossy: level)
        writer.measures = true
        for batch in kept { try writer.write(batch) }
        try writer.finish()
        return (sink.bytes, writer.psnr)
    }
}
