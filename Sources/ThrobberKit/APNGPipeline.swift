/// Frames → APNG. Lossless by default: 8-bit RGBA, or RGB when every pixel
/// of every frame is opaque. With `settings.colors`, a palette APNG
/// (PLTE + tRNS): one libimagequant palette for all frames, each frame
/// remapped against the previous one so still areas stay still. Each frame after the first redraws only the
/// rectangle that changed, with blend SOURCE, or OVER with the unchanged
/// pixels left transparent when that compresses smaller. Rows are filtered
/// and deflated per frame in parallel; chunks are written in order.
public struct APNGPipeline {
    public var settings: EncodeSettings
    public var compression: PNGCompressor.Effort
    public var progress: ((Int, Int) -> Void)?

    public init(settings: EncodeSettings, compression: PNGCompressor.Effort = .best, progress: ((Int, Int) -> Void)? = nil) {
        self.settings = settings
        self.compression = compression
        self.progress = progress
    }

    public func encode(_ source: FrameSource, to sink: OutputFile) throws -> EncodeReport {
        try settings.validate(for: .apng)
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        return try encode(source, timeline: Timeline(source: source, settings: settings.timing), to: sink)
    }

    /// A frame ready for compression: pixels of its rectangle in the
    /// output's color type, and how it is composited.
    struct Prepared {
        var rect: PixelRect
        var rows: [UInt8]
        var alternative: [UInt8]?   // OVER variant, when valid
        var start: Rational, end: Rational
        var endEntry: Int
    }

    public func encode(_ source: FrameSource, timeline: Timeline, to sink: OutputFile) throws -> EncodeReport {
        try settings.validate(for: .apng)
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        // APNG keeps partial alpha, so the GIF alpha policy (matte, 50% cut)
        // does not apply.
        var loader = FrameLoader(source: source, alpha: nil, jobs: settings.jobs)

        let runs = timeline.runs

        // Pass 1: is everything opaque, and how many frames remain once
        // identical neighbours are merged (acTL comes before the frames)?
        // Runs always step between neighbouring sources (bounce included),
        // so comparing each source with the one before it is enough.
        var opaque = true
        var previous: RGBAImage? = nil
        var sameAsPrevious = [Bool](repeating: false, count: source.count)
        var firstImage: RGBAImage? = nil
        let quantizer = settings.colors.map {
            Quantizer(quality: settings.quality ?? 100, colors: $0, dither: settings.dither)
        }
        let shared = try quantizer.map { try Quantizer.SharedPalette($0) }
        try loader.scan(cacheBudget: GIFPipeline.cacheBudget) { index, image in
            if firstImage == nil { firstImage = image }
            try shared?.add(image)
            if opaque && !image.isOpaque { opaque = false }
            sameAsPrevious[index] = previous == image
            previous = image
            return true
        }
        let frameCount = 1 + zip(runs, runs.dropFirst()).filter { !sameAsPrevious[max($0.source, $1.source)] }.count
        let first = firstImage!
        var reducer: PaletteReducer? = nil
        if let quantizer, let shared {
            if frameCount > 1 || !opaque { shared.reserveTransparent() }
            reducer = try PaletteReducer(quantizer: quantizer, palette: try shared.quantize(dither: settings.dither), first: first)
        }
        let colorType: APNGWriter.ColorType = reducer != nil ? .palette : opaque ? .rgb : .rgba
        let writer = try APNGWriter(sink: sink, width: first.width, height: first.height, colorType: colorType,
                                    palette: reducer?.colors, frameCount: frameCount, loop: settings.loop)

        // Pass 2: plan, compress in parallel, write in order.
        var canvas: RGBAImage? = nil
        var planned: [Prepared] = []
        var report = EncodeReport()
        report.palette = reducer.map { "palette of \($0.colors.count) colors (libimagequant)" } ?? (opaque ? "lossless RGB" : "lossless RGBA")
        let compressor = PNGCompressor(effort: compression)
        let bpp = colorType.bytesPerPixel

        func plan(_ frame: (image: RGBAImage, entry: Int), endEntry: Int) throws {
            let image = try reducer?.reduce(frame.image, after: canvas) ?? frame.image
            let full = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
            var rect = canvas.map { FrameDiff.changedRect(image, $0) } ?? full
            if rect.isEmpty { rect = PixelRect(x: 0, y: 0, width: 1, height: 1) }
            var rows = APNGPipeline.pixels(image, rect, bpp: colorType == .palette ? 4 : bpp)
            var alternative: [UInt8]? = nil
            if let canvas, colorType == .rgba || reducer?.hasTransparent == true {
                alternative = APNGPipeline.overPixels(image, over: canvas, rect)
            }
            if let reducer {
                rows = reducer.indices(rows)
                alternative = alternative.map(reducer.indices)
            }
            let start = frame.entry < timeline.entries.count ? timeline.entries[frame.entry].start : timeline.duration
            let end = endEntry < timeline.entries.count ? timeline.entries[endEntry].start : timeline.duration
            planned.append(Prepared(rect: rect, rows: rows, alternative: alternative, start: start, end: end, endEntry: endEntry))
            canvas = image
        }

        var inFlight: Pending<[APNGWriter.Frame]>? = nil
        func write(_ p: Pending<[APNGWriter.Frame]>?) throws {
            guard let frames = try p?.wait() else { return }
            for f in frames { try writer.write(f) }
            report.frames += frames.count
        }

        try loader.walk(timeline, frame: { image, entry, _, endEntry in
            try plan((image, entry), endEntry: endEntry)
        }, batchDone: {
            let batchFrames = planned
            planned.removeAll()
            let next = Pending { [jobs = settings.jobs] in
                try parallelMap(batchFrames.count, jobs: jobs) { i -> APNGWriter.Frame in
                    let f = batchFrames[i]
                    func filter(_ rows: [UInt8]) -> [UInt8] {
                        PNGCompressor.filter(rows, stride: f.rect.width * bpp, height: f.rect.height, bpp: bpp)
                    }
                    var filtered = filter(f.rows)
                    var blend = APNGWriter.BlendOp.source
                    if let alt = f.alternative.map(filter) {
                        // Pick SOURCE or OVER by a quick trial compression,
                        // then compress only the winner with full effort.
                        let quick = PNGCompressor(effort: .trial)
                        if try quick.compress(filtered: alt).count < quick.compress(filtered: filtered).count {
                            filtered = alt
                            blend = .over
                        }
                    }
                    let data = try compressor.compress(filtered: filtered)
                    return APNGWriter.Frame(rect: f.rect, delay: APNGWriter.delay(from: f.start, to: f.end),
                                            dispose: .none, blend: blend, data: data)
                }
            }
            try write(inFlight)
            if let last = batchFrames.last { progress?(last.endEntry, timeline.entries.count) }
            inFlight = next
        })
        try write(inFlight)
        try writer.finish()
        report.width = first.width
        report.height = first.height
        report.durationCentiseconds = timeline.startCentiseconds(timeline.entries.count)
        return report
    }

    /// The rectangle's pixels as RGBA (`bpp` 4) or RGB (3) rows.
    static func pixels(_ image: RGBAImage, _ rect: PixelRect, bpp: Int) -> [UInt8] {
        if bpp == 4 { return FrameDiff.crop(image, rect).pixels }
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * bpp)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var o = 0
                for y in rect.y..<rect.maxY {
                    var i = (y * image.width + rect.x) * 4
                    for _ in 0..<rect.width {
                        dst[o] = src[i]; dst[o + 1] = src[i + 1]; dst[o + 2] = src[i + 2]
                        o += 3; i += 4
                    }
                }
            }
        }
        return out
    }

    /// The rectangle for blend OVER: unchanged pixels transparent, changed
    /// ones as they are. Nil when OVER cannot give the exact result (a
    /// changed pixel that is not opaque lands on a pixel that is not clear).
    static func overPixels(_ image: RGBAImage, over canvas: RGBAImage, _ rect: PixelRect) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let ok = image.pixels.withUnsafeBytes { tRaw in
            canvas.pixels.withUnsafeBytes { cRaw in
                out.withUnsafeMutableBytes { oRaw -> Bool in
                    let t = tRaw.bindMemory(to: UInt32.self), c = cRaw.bindMemory(to: UInt32.self)
                    let o = oRaw.bindMemory(to: UInt32.self)
                    var k = 0
                    for y in rect.y..<rect.maxY {
                        for x in rect.x..<rect.maxX {
                            let p = t[y * image.width + x], q = c[y * image.width + x]
                            if p != q {
                                if UInt32(littleEndian: p) >> 24 != 255 && UInt32(littleEndian: q) >> 24 != 0 { return false }
                                o[k] = p
                            }
                            k += 1
                        }
                    }
                    return true
                }
            }
        }
        return ok ? out : nil
    }
}

/// Palette APNG: maps frames to one shared palette. Each frame is remapped
/// with the previous (already reduced) frame as libimagequant's background,
/// so pixels it approximates well keep their old value and do not shimmer.
struct PaletteReducer {
    let quantizer: Quantizer
    let palette: Quantizer.Palette
    /// The palette as packed RGBA (fully transparent entries as 0).
    let colors: [UInt32]
    /// Color → its first palette index (entries may repeat a color).
    private let lookup: ColorTable
    private let transparent: Int?

    init(quantizer: Quantizer, palette: Quantizer.Palette, first: RGBAImage) throws {
        self.quantizer = quantizer
        self.palette = palette
        // libimagequant settles the palette on the first remap.
        let (_, colors) = try quantizer.remap(first, to: palette, background: nil)
        self.colors = colors.map { $0 >> 24 == 0 ? 0 : $0 }
        lookup = ColorTable(colors: self.colors)
        transparent = self.colors.firstIndex(of: 0)
    }

    /// Whether a fully transparent entry exists (needed for blend OVER).
    var hasTransparent: Bool { transparent != nil }

    /// `image` in palette colors (as RGBA), given the previous reduced frame.
    func reduce(_ image: RGBAImage, after previous: RGBAImage?) throws -> RGBAImage {
        let (indices, now) = try quantizer.remap(image, to: palette, background: previous)
        guard now.map({ $0 >> 24 == 0 ? 0 : $0 }) == colors else {
            throw ThrobberError(.software, "libimagequant changed the shared palette between frames")
        }
        // "Keep" (the transparent entry on a visible pixel): what the viewer
        // already shows there.
        var out = previous?.pixels ?? [UInt8](repeating: 0, count: image.pixels.count)
        out.withUnsafeMutableBytes { oRaw in
            image.pixels.withUnsafeBytes { sRaw in
                let o = oRaw.bindMemory(to: UInt32.self), src = sRaw.bindMemory(to: UInt32.self)
                for i in indices.indices {
                    let index = Int(indices[i])
                    if index == transparent && previous != nil && UInt32(littleEndian: src[i]) >> 24 != 0 { continue }
                    o[i] = UInt32(littleEndian: colors[index])
                }
            }
        }
        return RGBAImage(width: image.width, height: image.height, pixels: out)
    }

    /// RGBA rows → palette indices.
    func indices(_ rgba: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rgba.count / 4)
        rgba.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            var lastColor: UInt32 = 0, lastIndex = UInt8(transparent ?? 0)
            for i in out.indices {
                let c = UInt32(littleEndian: px[i])
                if c != lastColor { lastColor = c; lastIndex = UInt8(lookup.index(of: c) ?? transparent ?? 0) }
                out[i] = lastIndex
            }
        }
        return out
    }
}
