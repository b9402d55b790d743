import ThrobberCodecs
import ThrobberCore

/// The last two stages for GIF: give each planned frame its palette (in
/// parallel: frames are independent there), then index and write them in
/// order, keeping track of what a viewer shows so that unchanged pixels can
/// be left transparent.
struct GIFFrameWriter {
    private let gif: GIFWriter
    private let choice: PaletteChoice
    let width: Int, height: Int
    /// What a viewer shows before the next frame is drawn.
    var shown: RGBAImage
    /// The source frame written last (nil before the first).
    private var lastTarget: RGBAImage?
    private let globalTable: ColorTable?
    /// The logical screen's background index.
    private let background: Int
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
    private let memory: MemorySink?

    init(sink: ByteSink, width: Int, height: Int, choice: PaletteChoice, loop: Int, lossy: Int = 0) throws {
        var global: [UInt32]? = nil
        var background = 0
        switch choice {
        case .global(let colors, let transparent):
            global = colors
            background = transparent ?? 0
        case .local(_, _, let shared) where !shared.isEmpty:
            global = shared  // transparent first
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
            return try parallelMap(frames.count, jobs: jobs) { i in
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
        }
    }

    /// Writes frames in order; each depends on what the previous ones show.
    mutating func write(_ frames: [Paletted]) throws {
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
                // The colors the viewer does not show yet (the rest can be
                // transparent), when they fit.
                let needed = changedColors(p.frame, limit: table.limit)
                // With the shared palette instead of its own table, if it
                // holds every color needed and that is smaller.
                let shared = globalTable.flatMap { sharedUse(p.frame, table: $0, needed: needed ?? table) }
                // Or with a table of the needed colors only, when that table
                // is smaller or the rectangle's own has no room for a
                // transparent entry.
                let changed = needed.flatMap { c in
                    table.index(of: 0) == nil
                        || GIFWriter.colorTableBytes(c.count) < GIFWriter.colorTableBytes(table.count) ? c : nil
                }
                var best = indexed(p.frame, table: table, local: true, sized: shared != nil || changed != nil)
                if let shared {
                    let viaShared = indexed(
                        p.frame, table: shared.table, local: false, transparent: shared.transparent)
                    if viaShared.bytes < best.bytes { best = viaShared }
                }
                if let changed {
                    let viaChanged = indexed(p.frame, table: changed, local: true)
                    if viaChanged.bytes < best.bytes { best = viaChanged }
                }
                try write(p.frame, best.frame, table: best.table)
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
            case (.quantized(let remapped), .quantized):
                try writeQuantized(p.frame, remapped)
                quantizedFrames += 1
            default:
                throw ThrobberError(.software, "frame palette does not match the palette choice")
            }
        }
    }

    func finish() throws { try gif.finish() }

    /// A table of the transparent entry and the colors of the pixels of
    /// `f`'s rectangle that differ from what the viewer shows, or nil when
    /// they do not fit in `limit` entries.
    private func changedColors(_ f: PlannedFrame, limit: Int) -> ColorTable? {
        guard f.index > 0 else { return nil }
        var table = ColorTable(limit: limit)
        table.insert(0)
        return table.insertColors(of: f.target, in: f.geometry.rect, changedFrom: shown) ? table : nil
    }

    /// Whether frame `f` can be written with the shared table `g` instead
    /// of a table of its own, and with which transparent entry (nil: none).
    /// `needed` holds the colors it must draw (and transparent). A shared
    /// table with a transparent entry must hold them all. One without
    /// (a table of 256 colors that two full frames share) must hold the
    /// colors besides transparent, and the frame then takes as transparent
    /// an entry none of its changed pixels needs; where every entry is
    /// needed, the frame is drawn opaque if its rectangle has no
    /// transparent pixel and every color in `g`. A frame disposed of must
    /// take entry 0, the background index, as transparent: decoders that
    /// restore the background color literally (Pillow) clear it to the
    /// transparent entry only when it is the background one.
    private func sharedUse(_ f: PlannedFrame, table g: ColorTable, needed: ColorTable) -> (
        table: ColorTable, transparent: Int?
    )? {
        if let t = g.index(of: 0) {
            return needed.colors.allSatisfy { g.index(of: $0) != nil } ? (g, t) : nil
        }
        guard needed.colors.allSatisfy({ $0 == 0 || g.index(of: $0) != nil }) else { return nil }
        let disposed = f.geometry.disposal == .background
        if let entry = unusedEntry(f, table: g, backgroundOnly: disposed) { return (g, entry) }
        return !disposed && drawsOpaque(f, table: g) ? (g, nil) : nil
    }

    /// Whether every pixel of `f`'s rectangle is opaque and a color of
    /// `table`.
    private func drawsOpaque(_ f: PlannedFrame, table: ColorTable) -> Bool {
        let rect = f.geometry.rect
        return f.target.pixels.withUnsafeBytes { raw in
            let t = raw.bindMemory(to: UInt32.self)
            var last: UInt32? = nil
            for y in rect.y..<rect.maxY {
                let row = y * width
                for x in rect.x..<rect.maxX where t[row + x] != last {
                    last = t[row + x]
                    guard t[row + x] >> 24 != 0, table.index(of: t[row + x]) != nil else { return false }
                }
            }
            return true
        }
    }

    /// Frames written with a libimagequant palette so far.
    private(set) var quantizedFrames = 0

    /// Lossless: index every pixel with `table` (written with the frame
    /// when `local`, else the global one). Where the palette has a
    /// transparent entry (color 0), a pixel the viewer already shows may be
    /// written either way: see `smallest`. `bytes` is what the frame takes
    /// in the file, its own table included (when `sized`; else 0).
    private mutating func indexed(
        _ f: PlannedFrame, table: ColorTable, local: Bool, sized: Bool = true, transparent chosen: Int? = nil
    ) -> (frame: GIFWriter.Frame, bytes: Int, table: ColorTable) {
        let rect = f.geometry.rect
        let transparent = chosen ?? table.index(of: 0)
        var plain = [UInt8](repeating: 0, count: rect.width * rect.height)
        var alternative = [Int16](repeating: FewestRuns.none, count: plain.count)
        var keepsAny = false
        // With lossy LZW a pixel may keep what is shown when that is within
        // the lossy tolerance of its source (what earlier frames drew is
        // near their source, not equal to it).
        let keepTolerance = lossy?.tolerance ?? -1
        f.target.pixels.withUnsafeBytes { tRaw in
            shown.pixels.withUnsafeBytes { sRaw in
                let t = tRaw.bindMemory(to: UInt32.self)
                let s = sRaw.bindMemory(to: UInt32.self)
                var lastColor: UInt32 = 0
                var lastIndex = transparent ?? 0
                for y in 0..<rect.height {
                    let row = (rect.y + y) * width + rect.x
                    for x in 0..<rect.width {
                        let c = t[row + x]
                        if c != lastColor {
                            lastColor = c
                            // A color the table lacks is one the viewer
                            // shows already (a table of the changed pixels).
                            lastIndex = table.index(of: c) ?? -1
                        }
                        let i = y * rect.width + x
                        if lastIndex < 0 {
                            guard let transparent, c == s[row + x] else {
                                preconditionFailure("a color the viewer does not show is missing from the table")
                            }
                            plain[i] = UInt8(transparent)
                            continue
                        }
                        plain[i] = UInt8(lastIndex)
                        if let transparent, f.index > 0, lastIndex != transparent,
                            c == s[row + x]
                                || (keepTolerance >= 0 && s[row + x] >> 24 != 0
                                    && ColorTable.perceptualDistance(c, s[row + x]) <= keepTolerance)
                        {
                            alternative[i] = Int16(transparent)
                            keepsAny = true
                        }
                    }
                }
            }
        }
        var frame = GIFWriter.Frame(
            rect: rect, palette: local ? table.colors : nil, indices: plain,
            delay: f.delay, disposal: f.geometry.disposal, transparentIndex: transparent)
        var bytes = 0
        if keepsAny {
            (frame, bytes) = smallest(frame, alternative: alternative, palette: table.colors, withRuns: true)!
        } else if sized {
            bytes = GIFWriter.encodedSize(of: frame, palette: table.colors, width: width, height: height)
        }
        // encodedSize counts a table with every frame: a global one is paid once.
        return (frame, local ? bytes : bytes - GIFWriter.colorTableBytes(table.count), table)
    }

    /// Writes `frame` to the file, without its transparent index where no
    /// pixel uses it and it is not disposed of (a disposed frame's
    /// transparent index is what decoders that restore the background
    /// color literally clear to): a graphic control extension without
    /// transparency, delay and disposal is left out (a still's, often an
    /// animation's first).
    private func put(_ frame: GIFWriter.Frame) throws {
        if lastTarget == nil, let cropped = croppedFirst(frame) { return try gif.write(cropped) }
        guard let t = frame.transparentIndex, frame.disposal != .background, !frame.indices.contains(UInt8(t))
        else { return try gif.write(frame) }
        var plain = frame
        plain.transparentIndex = nil
        try gif.write(plain)
    }

    /// The first frame cut to the pixels it draws, where that codes
    /// smaller: what lies around them is transparent on the screen before
    /// the first frame, as decoders show it when that frame has a
    /// transparent index (Pillow and ffmpeg fill the screen with it;
    /// browsers leave it clear). So that decoders which fill it with the
    /// background color show it clear too, only a frame on the global table
    /// whose transparent entry is the background index is cut (gifsicle
    /// sets the background index so for a first frame that comes cut), and
    /// it keeps that entry even where no pixel left uses it.
    private func croppedFirst(_ frame: GIFWriter.Frame) -> GIFWriter.Frame? {
        guard frame.palette == nil, let globalTable, let t = frame.transparentIndex, t == background else {
            return nil
        }
        let r = frame.rect
        var (minX, minY, maxX, maxY) = (r.width, r.height, -1, -1)
        frame.indices.withUnsafeBufferPointer { ix in
            for y in 0..<r.height {
                let row = y * r.width
                for x in 0..<r.width where Int(ix[row + x]) != t {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxX >= 0, maxX - minX + 1 < r.width || maxY - minY + 1 < r.height else { return nil }
        let cut = PixelRect(x: r.x + minX, y: r.y + minY, width: maxX - minX + 1, height: maxY - minY + 1)
        var indices: [UInt8] = []
        indices.reserveCapacity(cut.width * cut.height)
        for y in minY...maxY { indices += frame.indices[(y * r.width + minX)...(y * r.width + maxX)] }
        var cropped = frame
        cropped.rect = cut
        cropped.indices = indices
        let colors = globalTable.colors
        let whole = GIFWriter.encodedSize(of: frame, palette: colors, width: width, height: height)
        let part = GIFWriter.encoded(of: cropped, palette: colors, width: width, height: height)
        // The probe's LZW data is written again where its code size holds.
        cropped.lzw = part.lzw
        return part.bytes < whole ? cropped : nil
    }

    /// For a palette without a transparent entry: the entry that frame `f`
    /// can write as transparent, one that no pixel it changes needs (nil
    /// for the first frame, or where every entry is needed). Of those, the
    /// one the most unchanged pixels of the rectangle show, so that they
    /// need no other index; the lowest on a tie. With `backgroundOnly`,
    /// entry 0 (the background index) or nil.
    private func unusedEntry(_ f: PlannedFrame, table: ColorTable, backgroundOnly: Bool = false) -> Int? {
        let rect = f.geometry.rect
        guard f.index > 0, rect.width > 0, rect.height > 0 else { return nil }
        var needed = [Bool](repeating: false, count: table.count)
        var kept = [Int](repeating: 0, count: table.count)
        f.target.pixels.withUnsafeBytes { tRaw in
            shown.pixels.withUnsafeBytes { sRaw in
                let t = tRaw.bindMemory(to: UInt32.self)
                let s = sRaw.bindMemory(to: UInt32.self)
                var lastColor = t[rect.y * width + rect.x] &+ 1
                var lastIndex = 0
                for y in 0..<rect.height {
                    let row = (rect.y + y) * width + rect.x
                    for x in 0..<rect.width {
                        let c = t[row + x]
                        if c != lastColor {
                            lastColor = c
                            lastIndex = table.index(of: c) ?? 0
                        }
                        if c == s[row + x] { kept[lastIndex] += 1 } else { needed[lastIndex] = true }
                    }
                }
            }
        }
        if backgroundOnly { return needed[0] ? nil : 0 }
        return table.colors.indices.filter { !needed[$0] }.max { (kept[$0], -$0) < (kept[$1], -$1) }
    }

    /// Writes a frame `indexed` made, with lossy LZW if asked, and updates
    /// what the viewer shows.
    private mutating func write(_ f: PlannedFrame, _ indexedFrame: GIFWriter.Frame, table: ColorTable) throws {
        var frame = indexedFrame
        let rect = f.geometry.rect
        let transparent = frame.transparentIndex
        if lossy != nil {
            applyLossy(&frame.indices, f, palette: table.colors, transparent: transparent)
            try put(frame)
            show(frame.indices, rect, colors: table.colors, transparent: transparent)
        } else {
            try put(frame)
            FrameDiff.paste(f.target, rect, into: &shown)
        }
        if trial?.measures == true { measure(f) }
        if f.geometry.disposal == .background { FrameDiff.clear(&shown, rect) }
        lastTarget = f.target
    }

    /// The smallest encoding of `frame` among: its own indices, the choice
    /// between them and their alternatives that follows giflib's LZW
    /// dictionary (`exact`, while it pays), and, `withRuns`, every
    /// alternative taken, the fewest-runs choice and the stretch rule
    /// (`FewestRuns.stretches`) (which win on flat, drawn frames and on
    /// re-encoded GIFs; the dictionary's choice wins on quantized ones).
    /// Nil when there is nothing to choose from.
    private mutating func smallest(
        _ frame: GIFWriter.Frame, alternative: [Int16], palette: [UInt32], withRuns: Bool
    ) -> (frame: GIFWriter.Frame, bytes: Int)? {
        var candidates = [frame]
        let triesExact = exactTrials.tries()
        if triesExact {
            var matched = frame
            exact.rewrite(
                &matched.indices, sources: [], palette: palette, transparent: frame.transparentIndex,
                alternatives: alternative)
            candidates.append(matched)
        }
        if withRuns {
            var runs = frame
            runs.indices = FewestRuns.choose(primary: frame.indices, alternative: alternative)
            var allAlternative = frame
            for i in alternative.indices where alternative[i] != FewestRuns.none {
                allAlternative.indices[i] = UInt8(alternative[i])
            }
            var stretches = frame
            stretches.indices = FewestRuns.stretches(primary: frame.indices, alternative: alternative)
            candidates += [runs, allAlternative, stretches]
        }
        guard candidates.count > 1 else { return nil }
        let coded = candidates.map { GIFWriter.encoded(of: $0, palette: palette, width: width, height: height) }
        let best = coded.indices.min { coded[$0].bytes < coded[$1].bytes }!
        if triesExact { exactTrials.record(won: best == 1) }
        var chosen = candidates[best]
        chosen.lzw = coded[best].lzw
        return (chosen, coded[best].bytes)
    }

    /// With lossy LZW, a kept pixel's error counts this much less than a
    /// changed one's: it stays still (no flicker from frame to frame) and
    /// it joins a run of transparent pixels. Of 1, 4 and 16, 4 drew the
    /// best curves: testsrc2 about 2 dB and mandelbrot 0.3–0.55 dB over
    /// forced keeps at equal bytes, SSIM higher too (docs/tuning.md);
    /// 1 kept too few pixels (the same curve, but --lossy 80 only 5 %
    /// under lossless on testsrc2).
    static let keptErrorDivisor = 4

    /// Quantized: pixels the viewer already shows well enough become the
    /// transparent entry, so unchanged areas stay stable instead of
    /// shimmering with a new dither pattern, and encode as long runs. A pixel
    /// keeps what is shown when its source did not change since the frame
    /// before (what is shown is then this very color, quantized earlier), or
    /// when what is shown is at least as close to it as its new palette color.
    /// (libimagequant can do this itself with `liq_image_set_background`, but
    /// then every remap waits for the previous frame; decided here, the
    /// remaps run in parallel and this pass costs a few ms a frame.)
    private mutating func writeQuantized(_ f: PlannedFrame, _ remapped: Quantizer.Remapped) throws {
        let rect = f.geometry.rect
        let w = width
        var indices = remapped.indices
        let colors = remapped.colors
        let keepTolerance = lossy?.tolerance ?? -1
        // Where a pixel becomes transparent, the entry of the color shown
        // there (if the palette has it) shows the same: LZW may take either.
        var alternative: [Int16] = []
        // With lossy LZW, a pixel whose shown color is only within the
        // tolerance of its source may keep it (its alternative, the
        // transparent entry, at a `keptErrorDivisor`th of that error)
        // where the dictionary then matches further by the lossy score;
        // forced, such keeps broke runs (testsrc2 --lossy 10 came out
        // 1.2 % over lossless).
        var alternativeError: [Int32] = []
        if let transparent = remapped.transparent, f.index > 0, let previous = lastTarget {
            let clear = UInt8(transparent)
            let shownEntries = EntryLookup(colors, transparent: transparent)
            alternative = [Int16](repeating: FewestRuns.none, count: indices.count)
            if keepTolerance >= 0 { alternativeError = [Int32](repeating: 0, count: indices.count) }
            var anyAlternative = false
            f.target.pixels.withUnsafeBytes { tRaw in
                shown.pixels.withUnsafeBytes { sRaw in
                    previous.pixels.withUnsafeBytes { pRaw in
                        let t = tRaw.bindMemory(to: UInt32.self)
                        let s = sRaw.bindMemory(to: UInt32.self)
                        let p = pRaw.bindMemory(to: UInt32.self)
                        for y in 0..<rect.height {
                            let row = (rect.y + y) * w + rect.x
                            for x in 0..<rect.width {
                                let i = y * rect.width + x
                                let index = Int(indices[i])
                                let shownColor = s[row + x]
                                // Transparent here, or nothing shown to keep.
                                if index == transparent || shownColor >> 24 == 0 { continue }
                                let c = t[row + x]
                                if c == p[row + x]
                                    || ColorTable.distance(c, shownColor) <= ColorTable.distance(c, colors[index])
                                {
                                    indices[i] = clear
                                    if let entry = shownEntries.entry(showing: shownColor) {
                                        alternative[i] = entry
                                        anyAlternative = true
                                    }
                                } else if keepTolerance >= 0 {
                                    let d = ColorTable.perceptualDistance(c, shownColor)
                                    if d <= keepTolerance {
                                        alternative[i] = Int16(clear)
                                        alternativeError[i] = Int32(d / Self.keptErrorDivisor)
                                        anyAlternative = true
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if !anyAlternative {
                alternative = []
                alternativeError = []
            }
        }
        var frame = GIFWriter.Frame(
            rect: rect, palette: colors, indices: indices, delay: f.delay,
            disposal: f.geometry.disposal, transparentIndex: remapped.transparent)
        if lossy != nil {
            frame = lossyChoice(frame, f, alternative: alternative, errors: alternativeError, palette: colors)
            indices = frame.indices
        } else if !alternative.isEmpty,
            let best = smallest(frame, alternative: alternative, palette: colors, withRuns: false)
        {
            frame = best.frame
            indices = frame.indices
        }
        try put(frame)
        show(indices, rect, colors: colors, transparent: remapped.transparent)
        if trial?.measures == true { measure(f) }
        if f.geometry.disposal == .background { FrameDiff.clear(&shown, rect) }
        lastTarget = f.target
    }
}

/// Whether a costly second candidate is worth a trial on the next frame:
/// always while it wins now and then, and after `lossLimit` losses in a
/// row once every `retry` frames. Deterministic: frames are written in
/// order.
struct TrialBackoff {
    static let lossLimit = 4
    static let retry = 16
    /// Trials lost in a row, and frames since the last trial.
    private var losses = 0
    private var since = 0

    /// Whether to try the candidate on this frame.
    mutating func tries() -> Bool {
        guard losses < Self.lossLimit || since >= Self.retry else {
            since += 1
            return false
        }
        since = 0
        return true
    }

    /// Whether the candidate was the smaller this time.
    mutating func record(won: Bool) { losses = won ? 0 : losses + 1 }
}
