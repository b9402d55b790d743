import ThrobberCodecs
import ThrobberCore

/// APNG through the skeleton. Lossless by default: 8-bit RGBA, or RGB when
/// every pixel of every frame is opaque. With `settings.colors`, a palette
/// APNG (PLTE + tRNS): one libimagequant palette for all frames, each frame
/// remapped against the previous one so still areas stay still. Each frame
/// after the first redraws only the rectangle that changed, with blend
/// SOURCE, or OVER with the unchanged pixels left transparent when that
/// compresses smaller. Rows are filtered and deflated per frame in parallel.
struct APNGEncoder: FormatEncoder {
    static let limits = FormatLimits(
        name: "APNG", delays: 1...65535, maxFPS: nil, delayReason: nil,
        maxLoop: Int(Int32.max))
    static let fileExtensions = ["png", "apng"]

    /// A frame ready for compression: pixels of its rectangle in the
    /// output's color type, and how it is composited.
    struct Prepared: Sendable {
        var rect: PixelRect
        var rows: [UInt8]
        /// The OVER variant, when it gives the exact result.
        var alternative: [UInt8]?
        var start: Rational, end: Rational
    }

    struct Stage: Sendable {
        var compressor: PNGCompressor
        /// Bytes per pixel of the filtered rows.
        var bpp: Int
    }

    private let settings: EncodeSettings
    private let timeline: Timeline
    private let sink: ByteSink
    private var colorType = APNGWriter.ColorType.rgba
    private var reducer: PaletteReducer?
    private var frameCount = 0
    private var opaque = true
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
            compressor: PNGCompressor(effort: settings.compression == .fast ? .fast : .best),
            bpp: colorType.bytesPerPixel)
    }

    /// Is everything opaque, how many frames remain once identical
    /// neighbours are merged (acTL comes before the frames), and, for a
    /// palette APNG, the shared palette. Runs always step between
    /// neighbouring sources (bounce included), so comparing each source with
    /// the one before it is enough.
    mutating func survey(_ frames: inout FrameLoader) throws {
        let runs = timeline.runs
        var previous: RGBAImage? = nil
        var first: RGBAImage? = nil
        var sameAsPrevious = [Bool](repeating: false, count: frames.source.count)
        let quantizer = settings.colors.map {
            Quantizer(quality: settings.quality ?? EncodeSettings.defaultQuality, colors: $0, dither: settings.dither)
        }
        let shared = try quantizer.map { try Quantizer.SharedPalette($0) }
        try frames.scan { index, image in
            if first == nil { first = image }
            try shared?.add(image)
            if opaque && !image.isOpaque { opaque = false }
            sameAsPrevious[index] = previous == image
            previous = image
            return true
        }
        frameCount = 1 + zip(runs, runs.dropFirst()).filter { !sameAsPrevious[max($0.source, $1.source)] }.count
        if let quantizer, let shared, let first {
            if frameCount > 1 || !opaque { shared.reserveTransparent() }
            reducer = try PaletteReducer(
                quantizer: quantizer, palette: try shared.quantize(dither: settings.dither),
                first: first)
        }
        colorType = reducer != nil ? .palette : opaque ? .rgb : .rgba
    }

    mutating func begin(first: RGBAImage) throws {
        writer = try APNGWriter(
            sink: sink, width: first.width, height: first.height, colorType: colorType,
            palette: reducer?.colors, frameCount: frameCount, loop: settings.loop)
    }

    mutating func plan(_ frame: DistinctFrame) throws -> [Prepared] {
        let image = try reducer?.reduce(frame.image, after: canvas) ?? frame.image
        let full = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        var rect = canvas.map { FrameDiff.changedRect(image, $0) } ?? full
        if rect.isEmpty { rect = PixelRect(x: 0, y: 0, width: 1, height: 1) }
        var rows = APNGRects.pixels(image, rect, bpp: colorType == .palette ? 4 : colorType.bytesPerPixel)
        var alternative: [UInt8]? = nil
        if let canvas, colorType == .rgba || reducer?.hasTransparent == true {
            alternative = APNGRects.overPixels(image, over: canvas, rect)
        }
        if let reducer {
            rows = reducer.indices(rows)
            alternative = alternative.map(reducer.indices)
        }
        canvas = image
        return [
            Prepared(
                rect: rect, rows: rows, alternative: alternative,
                start: timeline.start(of: frame.entry), end: timeline.start(of: frame.endEntry))
        ]
    }

    /// Filters and deflates each frame. Where blend OVER is possible, SOURCE
    /// or OVER is picked by a quick trial compression, and only the winner
    /// is compressed with full effort.
    static func process(_ frames: [Prepared], stage: Stage, jobs: Int) throws -> [APNGWriter.Frame] {
        try parallelMap(frames.count, jobs: jobs) { i in
            let f = frames[i]
            func filter(_ rows: [UInt8]) -> [UInt8] {
                PNGCompressor.filter(rows, stride: f.rect.width * stage.bpp, height: f.rect.height, bpp: stage.bpp)
            }
            var filtered = filter(f.rows)
            var blend = APNGWriter.BlendOp.source
            if let alternative = f.alternative.map(filter) {
                let quick = PNGCompressor(effort: .trial)
                if try quick.compress(filtered: alternative).count < quick.compress(filtered: filtered).count {
                    filtered = alternative
                    blend = .over
                }
            }
            return APNGWriter.Frame(
                rect: f.rect, delay: APNGWriter.delay(from: f.start, to: f.end),
                dispose: .none, blend: blend, data: try stage.compressor.compress(filtered: filtered))
        }
    }

    mutating func write(_ frames: [APNGWriter.Frame]) throws {
        guard let writer else { throw ThrobberError(.software, "APNG frames written before the header") }
        for frame in frames { try writer.write(frame) }
    }

    mutating func finish() throws -> String {
        guard let writer else { throw ThrobberError(.software, "APNG ended before the header") }
        try writer.finish()
        return reducer.map { "palette of \($0.colors.count) colors (libimagequant)" }
            ?? (opaque ? "lossless RGB" : "lossless RGBA")
    }
}
