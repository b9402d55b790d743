import ThrobberCodecs
import ThrobberCore

/// A sink for byte-budget trials: given to the GIF encoder, it writes one
/// file per lossy level from the same palettized frames, so a lossy trial
/// costs only its LZW, not another palette search. It keeps those frames
/// (up to `keepBudget` bytes), so that more levels can be written later
/// (`replay`) with only their LZW again.
///
/// With a `limit` (the budget), a file stops being written once it is
/// larger, as it cannot fit: its size is then estimated from the share of
/// the animation written (`File.estimated`), and once every file is over,
/// the encode stops (`Abandoned`). Mandelbrot at a quarter of its size:
/// its lossless file is over after a quarter of the frames.
final class LossyTrials: ByteSink {
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
    /// Per level, where the file passed `limit` (the entries shown and its
    /// bytes then), nil where it did not; set when the encode ends.
    var overs: [(entries: Int, bytes: Int)?] = []
    /// Thrown by the encoder once every file is over `limit`.
    struct Abandoned: Error {}

    /// Bytes of palettized frames kept at most (frames, pixels and indices).
    static let keepBudget = 384 << 20
    /// What `GIFFrameWriter` needs besides the frames.
    struct Header {
        var width: Int, height: Int
        var choice: PaletteChoice
        var loop: Int
        /// Entries of the timeline.
        var entries: Int
    }
    var header: Header?
    /// The palettized frames in order, or nil once they outgrew `keepBudget`.
    private(set) var kept: [[GIFFrameWriter.Paletted]]? = []
    private var keptBytes = 0

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
    func abandon(_ overs: [(entries: Int, bytes: Int)?]) {
        self.overs = overs
        kept = nil
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
        /// Its size, or where it was left unfinished over the limit
        /// (`estimated`), the size its written share scales to.
        var size: Int
        var estimated = false

        init(level: Int, bytes: [UInt8], psnr: Double?) {
            self.level = level
            self.bytes = bytes
            self.psnr = psnr
            size = bytes.count
        }

        /// A file left at `over.bytes` after `over.entries` of `entries`.
        init(level: Int, over: (entries: Int, bytes: Int), entries: Int) {
            self.init(level: level, bytes: [], psnr: nil)
            size = Int(Double(over.bytes) * Double(entries) / Double(max(1, over.entries)))
            estimated = true
        }
    }

    /// The files the encode wrote, lowest level first.
    var files: [File] {
        levels.indices.map { j in
            if j < overs.count, let over = overs[j] {
                return File(level: levels[j], over: over, entries: header?.entries ?? over.entries)
            }
            return File(level: levels[j], bytes: outputs[j].bytes, psnr: j < psnr.count ? psnr[j] : nil)
        }
    }

    /// Whether `replay` can write more levels.
    var canReplay: Bool { kept != nil && header != nil }

    /// The files at `levels`, from the kept frames on up to `jobs`
    /// threads: the same bytes as new encodes at those levels would give.
    func replay(levels: [Int], jobs: Int) throws -> [File] {
        let (header, kept) = (header, kept)
        let limits = levels.map { limit(level: $0) }
        return try parallelMap(levels.count, jobs: jobs) { i in
            let (bytes, psnr, over) = try Self.replay(level: levels[i], header: header, kept: kept, limit: limits[i])
            if let over, let header { return File(level: levels[i], over: over, entries: header.entries) }
            return File(level: levels[i], bytes: bytes, psnr: psnr)
        }
    }

    private static func replay(level: Int, header: Header?, kept: [[GIFFrameWriter.Paletted]]?, limit: Int?) throws
        -> (bytes: [UInt8], psnr: Double, over: (entries: Int, bytes: Int)?)
    {
        guard let header, let kept else { throw ThrobberError(.software, "lossy replay without kept frames") }
        let sink = MemorySink()
        var writer = try GIFFrameWriter(
            sink: sink, width: header.width, height: header.height, choice: header.choice, loop: header.loop,
            lossy: level)
        writer.measures = true
        writer.limit = limit
        for batch in kept where writer.over == nil { try writer.write(batch) }
        if let over = writer.over { return ([], 0, over) }
        try writer.finish()
        return (sink.bytes, writer.psnr, nil)
    }
}
