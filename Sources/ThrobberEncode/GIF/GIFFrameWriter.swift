import ThrobberCodecs
import ThrobberCore

/// The last two stages for GIF: give each planned frame its palette (in
/// parallel: frames are independent there), then index and write them in
/// order, keeping track of what a viewer shows so that unchanged pixels can
/// be left transparent. libimagequant's frames are coded a batch at a time
/// on all cores between those ordered steps (`writeBatch`).
struct GIFFrameWriter {
    let gif: GIFWriter
    let choice: PaletteChoice
    let width: Int, height: Int
    /// What a viewer shows before the next frame is drawn.
    var shown: RGBAImage
    /// With lossy LZW, per pixel of the screen the source color that what
    /// is shown there was drawn for (`recordDrawn`): a pixel keeps what is
    /// shown at a loss only while its source stays near that color
    /// (`keepsAtLoss`). Empty without lossy LZW.
    var drawnFor: [UInt32] = []
    /// How far a pixel's source may move from the source its shown color
    /// was drawn for and still keep it at a loss (`keepsAtLoss`).
    let keepDrift: Int
    /// The source frame written last (nil before the first).
    var lastTarget: RGBAImage?
    let globalTable: ColorTable?
    /// The logical screen's background index.
    let background: Int
    /// Lossy LZW (`--lossy`), nil when off.
    var lossy: LossyLZW?
    /// Without lossy LZW: chooses, among entries that show a pixel exactly
    /// alike, the ones giflib's LZW matches furthest.
    var exact = LossyLZW(level: 0)
    /// The rewrite free to take exact alternatives (`exact`'s, or with
    /// lossy LZW `lossy`'s): it costs an LZW pass and a size trial, and on
    /// content where it does not pay it is only tried now and then.
    var exactTrials = TrialBackoff()
    /// The same for the lossy rewrite without alternatives beside the one
    /// free to take lossy keeps (`lossyChoice`).
    var plainTrials = TrialBackoff()
    /// Frames written with a libimagequant palette so far.
    var quantizedFrames = 0
    /// A byte-budget trial's watch over the file (`LossyTrials`); nil
    /// outside trials.
    var trial: GIFTrial?
    /// Whether each frame is also coded with its rows interlaced, and
    /// written so where that is smaller (`GIFWriter.triesInterlace`): for
    /// stills.
    var triesInterlace: Bool {
        get { gif.triesInterlace }
        nonmutating set { gif.triesInterlace = newValue }
    }
    /// The sink, where it counts what it holds.
    let memory: MemorySink?
    /// Threads that code a batch of quantized frames (`writeBatch`).
    var jobs = 1

    /// With `fast` (`--compression fast`), each frame is coded once: no
    /// rewrite trials, and LZW clears only where giflib clears.
    init(
        sink: ByteSink, width: Int, height: Int, choice: PaletteChoice, loop: Int, lossy: Int = 0, fast: Bool = false
    ) throws {
        var global: [UInt32]? = nil
        var background = 0
        switch choice {
        case .global(let colors, let transparent):
            global = colors
            background = transparent ?? 0
        case .local(_, _, let shared) where !shared.isEmpty:
            global = shared  // transparent first
        case .sharedQuantized(_, let colors, let transparent, _):
            global = colors
            background = transparent ?? 0
        default: break
        }
        gif = try GIFWriter(
            sink: sink, width: width, height: height, globalPalette: global,
            backgroundIndex: background, loop: loop)
        self.choice = choice
        self.background = background
        memory = sink as? MemorySink
        self.width = width
        self.height = height
        shown = RGBAImage(width: width, height: height)
        globalTable = global.map { ColorTable(colors: $0) }
        self.lossy = lossy > 0 ? LossyLZW(level: lossy) : nil
        self.lossy?.followsUnchanged = false
        if lossy > 0 { drawnFor = [UInt32](repeating: 0, count: width * height) }
        keepDrift = GIFTuning.lossyKeepDrift(tolerance: LossyLZW.tolerance(level: lossy))
        if fast {
            exactTrials.off = true
            plainTrials.off = true
            gif.triesClearPlaces = false
            gif.clearRules = [.whenFull]
        }
    }

    /// A planned frame with its palette work done, ready to be written.
    struct Paletted: Sendable {
        enum Work: Sendable {
            case global
            case local(ColorTable)
            /// Remapped by libimagequant on its own; which pixels may stay
            /// as the viewer shows them is decided when the frame is written.
            case quantized(Quantizer.Remapped)
            /// Exact colors, but the redrawn rectangle holds more than a
            /// table: the pixels the viewer does not show yet, known when
            /// the frame is written, get one if they fit, else the frame is
            /// quantized then. (Quantizing every such frame here, in case,
            /// was 83 % of re-encoding sample_big.gif, and every one of its
            /// frames was then written exactly.)
            case overflowing
        }
        var frame: PlannedFrame
        var work: Work
    }

    /// The part of the work that frames do not share: local palettes or
    /// libimagequant's palette search. Pure, so it runs in parallel (and
    /// while earlier frames are being written).
    static func palettize(_ frames: [PlannedFrame], choice: PaletteChoice, jobs: Int) throws -> [Paletted] {
        switch choice {
        case .global:
            return frames.map { Paletted(frame: $0, work: .global) }
        case .local(let limit, _, _):
            return parallelMap(frames.count, jobs: jobs) { i in
                let f = frames[i]
                var table = ColorTable(limit: limit)
                guard table.insertColors(of: f.target, in: f.geometry.rect) else {
                    return Paletted(frame: f, work: .overflowing)
                }
                // Room permitting, a transparent entry: for unchanged pixels,
                // and so decoders that follow the spec's "restore to background
                // color" literally (Pillow) clear a disposed frame to transparent.
                if f.index > 0 || f.geometry.disposal == .background { table.insert(0) }
                return Paletted(frame: f, work: .local(table))
            }
        case .quantized(let quantizer):
            return try parallelMap(frames.count, jobs: jobs) { i in
                Paletted(frame: frames[i], work: .quantized(try quantizer.quantize(frames[i])))
            }
        case .sharedQuantized(let quantizer, _, _, let mapper?):
            return parallelMap(frames.count, jobs: jobs) { i in
                Paletted(frame: frames[i], work: .quantized(quantizer.remap(frames[i], with: mapper)))
            }
        case .sharedQuantized(let quantizer, let colors, let transparent, nil):
            return try parallelMap(frames.count, jobs: jobs) { i in
                let palette = try quantizer.fixedPalette(colors)
                let remapped = try quantizer.remap(frames[i], to: palette, colors: colors, transparent: transparent)
                return Paletted(frame: frames[i], work: .quantized(remapped))
            }
        }
    }

    /// Writes frames in order; each depends on what the previous ones show.
    mutating func write(_ frames: [Paletted]) throws {
        if writesInBatch(frames) { return try writeBatch(frames) }
        for p in frames {
            guard !(trial?.isDone ?? false) else { return }
            defer { trial?.note(entries: p.frame.endEntry, bytes: memory?.bytes.count) }
            switch (p.work, choice) {
            case (.global, .global(let colors, let transparent)):
                let table = globalTable ?? ColorTable(colors: colors)
                let chosen = transparent ?? unusedEntry(p.frame, table: table)
                try write(
                    p.frame, indexed(p.frame, table: table, local: false, sized: false, transparent: chosen).frame,
                    table: table)
            case (.local(let table), _):
                try writeLocal(p.frame, table: table)
            case (.overflowing, .local(let limit, let fallback, _)):
                // The rectangle has too many colors, but the pixels the
                // viewer does not show yet may not (an input GIF's frame
                // leaves the rest transparent): those, exactly, if they fit;
                // or the shared palette, if it holds them and that is smaller.
                if let table = changedColors(p.frame, limit: limit) {
                    let shared = globalTable.flatMap { sharedUse(p.frame, table: $0, needed: table) }
                    var best = indexed(p.frame, table: table, local: true, sized: shared != nil)
                    if let shared {
                        let viaShared = indexed(
                            p.frame, table: shared.table, local: false, transparent: shared.transparent)
                        if viaShared.bytes < best.bytes { best = viaShared }
                    }
                    try write(p.frame, best.frame, table: best.table)
                } else {
                    try writeQuantized(p.frame, try fallback.quantize(p.frame))
                    quantizedFrames += 1
                }
            case (.quantized(let remapped), .quantized), (.quantized(let remapped), .sharedQuantized):
                try writeQuantized(p.frame, remapped)
                quantizedFrames += 1
            default:
                throw ThrobberError(.software, "frame palette does not match the palette choice")
            }
        }
    }

    /// Writes frame `f`, which has a table of its own (`table`), with the
    /// smallest of that table, the shared palette and a table of the colors
    /// the viewer does not show yet.
    private mutating func writeLocal(_ f: PlannedFrame, table: ColorTable) throws {
        // The colors the viewer does not show yet (the rest can be
        // transparent), when they fit.
        let needed = changedColors(f, limit: table.limit)
        // With the shared palette instead of its own table, if it
        // holds every color needed and that is smaller.
        let shared = globalTable.flatMap { sharedUse(f, table: $0, needed: needed ?? table) }
        // Or with a table of the needed colors only, when that table
        // is smaller or the rectangle's own has no room for a
        // transparent entry.
        let changed = needed.flatMap { c in
            table.index(of: 0) == nil
                || GIFWriter.colorTableBytes(c.count) < GIFWriter.colorTableBytes(table.count) ? c : nil
        }
        var best = indexed(f, table: table, local: true, sized: shared != nil || changed != nil)
        if let shared {
            let viaShared = indexed(
                f, table: shared.table, local: false, transparent: shared.transparent)
            if viaShared.bytes < best.bytes { best = viaShared }
        }
        if let changed {
            let viaChanged = indexed(f, table: changed, local: true)
            if viaChanged.bytes < best.bytes { best = viaChanged }
        }
        try write(f, best.frame, table: best.table)
    }

    func finish() throws { try gif.finish() }
}
