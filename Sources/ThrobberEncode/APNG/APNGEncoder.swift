import ThrobberCodecs
import ThrobberCore

/// APNG through the skeleton. Lossless by default, in the smallest exact
/// layout all frames fit (``APNGColorSurvey``): gray at 1–8 bits, a palette
/// at 1–8 bits (tRNS for alpha) when all frames have at most 256 colors,
/// gray+alpha, RGB or RGBA. With `settings.colors`, a palette APNG: one
/// libimagequant palette for all frames, each frame remapped against the
/// previous one so still areas stay still. Each frame after the first
/// redraws only the rectangle that changed, with blend SOURCE, or OVER with
/// the unchanged pixels left transparent (where the layout has a
/// transparent value) when that compresses smaller. Rows are filtered and
/// deflated per frame in parallel.
struct APNGEncoder: FormatEncoder {
    static let limits = FormatLimits(
        name: "APNG", delays: 1...65535, maxFPS: nil, delayReason: nil,
        maxLoop: Int(Int32.max), smallerWith: "--colors and --quality")
    static let fileExtensions = ["png", "apng"]

    /// A frame ready for compression: the image, the one shown before it
    /// (both shared with the batch, not copied), the rectangle it redraws
    /// and its time. Its rows are made while it compresses, one frame per
    /// worker at a time.
    struct Prepared: Sendable {
        var image: RGBAImage
        var previous: RGBAImage?
        var rect: PixelRect
        var start: Rational, end: Rational
    }

    struct Stage: Sendable {
        var compressor: PNGCompressor
        var layout: APNGPixelLayout
    }

    private let settings: EncodeSettings
    private let timeline: Timeline
    private let sink: ByteSink
    private var layout = APNGPixelLayout.rgba
    private var reducer: PaletteReducer?
    private var frameCount = 0
    private var writer: APNGWriter?
    /// The previous frame as written (palette colors for a palette APNG).
    private var canvas: RGBAImage?

    init(settings: EncodeSettings, timeline: Timeline, sink: ByteSink) {
        self.settings = settings
        self.timeline = timeline
        self.sink = sink
    }

    /// APNG keeps partial alpha, so the GIF alpha policy (matte, 50% cut)
    /// does not apply.
    var alpha: AlphaPolicy? { nil }

    var stage: Stage {
        Stage(
            compressor: PNGCompressor(effort: settings.compression.effort), layout: layout)
    }

    /// The layout all frames fit, how many frames remain once identical
    /// neighbours are merged (acTL comes before the frames), and, for a
    /// palette APNG, the shared palette. Most runs step between
    /// neighbouring sources (bounce included), which the scan compares
    /// directly; where one does not (a loop begun at its poster frame wraps
    /// from the last source to the first, a lower frame rate skips some),
    /// the two sources are compared by their fingerprints.
    mutating func survey(_ frames: inout FrameLoader) throws {
        let runs = timeline.runs
        let pairs = Array(zip(runs.map(\.source), runs.dropFirst().map(\.source)))
        let distant = Set(pairs.filter { abs($0 - $1) != 1 }.flatMap { [$0, $1] })
        var prints: [Int: ImageFingerprint] = [:]
        var previous: RGBAImage? = nil
        var first: RGBAImage? = nil
        var sameAsPrevious = [Bool](repeating: false, count: frames.source.count)
        let quantizer = settings.colors.map {
            Quantizer(quality: settings.quality ?? EncodeSettings.defaultQuality, colors: $0, dither: settings.dither)
        }
        let shared = try quantizer.map { try Quantizer.SharedPalette($0) }
        var colors = APNGColorSurvey()
        try frames.scan { index, image in
            if first == nil { first = image }
            try shared?.add(image)
            colors.add(image, after: previous)
            sameAsPrevious[index] = previous == image
            if distant.contains(index) { prints[index] = ImageFingerprint(image) }
            previous = image
            return true
        }
        frameCount =
            1
            + pairs.filter { a, b in
                !(abs(a - b) == 1 ? sameAsPrevious[max(a, b)] : prints[a] != nil && prints[a] == prints[b])
            }.count
        layout = colors.layout(animated: frameCount > 1)
        if let quantizer, let shared, let first {
            if frameCount > 1 || !colors.opaque { shared.reserveTransparent() }
            let reducer = try PaletteReducer(
                quantizer: quantizer, palette: try shared.quantize(dither: settings.dither),
                first: first)
            self.reducer = reducer
            // libimagequant may give two entries one color: PLTE keeps one.
            let palette = ColorTable(colors: reducer.colors).colors
            layout = APNGPixelLayout(
                colorType: .palette, depth: APNGColorSurvey.depth(forEntries: palette.count), palette: palette)
        }
    }

    mutating func begin(first: RGBAImage) throws {
        writer = try APNGWriter(
            sink: sink, width: first.width, height: first.height, colorType: layout.colorType,
            depth: layout.depth, palette: layout.colorType == .palette ? layout.palette : nil, key: layout.keyChunk,
            frameCount: frameCount, loop: settings.loop)
    }

    mutating func plan(_ frame: DistinctFrame) throws -> [Prepared] {
        let image = try reducer?.reduce(frame.image, after: canvas) ?? frame.image
        let full = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        var rect = canvas.map { FrameDiff.changedRect(image, $0) } ?? full
        if rect.isEmpty { rect = PixelRect(x: 0, y: 0, width: 1, height: 1) }
        // ffmpeg 5.1 misplaces frames of fewer than 8 bits per pixel that do
        // not start at x = 0: such frames span whole rows.
        if layout.depth < 8 { rect = PixelRect(x: 0, y: rect.y, width: image.width, height: rect.height) }
        let previous = canvas
        canvas = image
        return [
            Prepared(
                image: image, previous: previous, rect: rect, start: timeline.start(of: frame.entry),
                end: timeline.start(of: frame.endEntry))
        ]
    }

    /// Puts each frame's rectangle in the layout, filters and deflates it.
    /// Where blend OVER is possible, SOURCE and the OVER variants are
    /// tried with each filter strategy by a quick compression, and only
    /// the winner is compressed with full effort.
    static func process(_ frames: [Prepared], stage: Stage, jobs: Int) throws -> [APNGWriter.Frame] {
        try parallelMap(frames.count, jobs: jobs) { i in
            let f = frames[i]
            let layout = stage.layout
            let rows = layout.encode(FrameDiff.crop(f.image, f.rect).pixels, width: f.rect.width)
            var variants = [rows]
            if let previous = f.previous, layout.canBlendOver,
                let over = APNGRects.overPixels(f.image, over: previous, f.rect).map({
                    layout.encode($0, width: f.rect.width)
                })
            {
                variants.append(over)
                if stage.compressor.effort != .fast,
                    let kept = layout.keepingShortRuns(
                        over, rows: rows, width: f.rect.width, shortRun: APNGTuning.shortRun)
                {
                    variants.append(kept)
                }
            }
            let (variant, data) = try stage.compressor.compress(
                variants: variants, stride: stage.layout.stride(f.rect.width),
                height: f.rect.height, bpp: stage.layout.filterDistance, indexed: stage.layout.colorType == .palette)
            return APNGWriter.Frame(
                rect: f.rect, delay: APNGWriter.delay(from: f.start, to: f.end),
                dispose: .none, blend: variant == 0 ? .source : .over, data: data)
        }
    }

    mutating func write(_ frames: [APNGWriter.Frame]) throws {
        guard let writer else { throw ThrobberError(.software, "APNG frames written before the header") }
        for frame in frames { try writer.write(frame) }
    }

    mutating func finish() throws -> String {
        guard let writer else { throw ThrobberError(.software, "APNG ended before the header") }
        try writer.finish()
        guard reducer == nil else { return layout.description + " (libimagequant)" }
        return (layout.colorType == .palette ? "lossless " : "") + layout.description
    }
}
