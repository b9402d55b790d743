import ThrobberCodecs
import ThrobberCore

/// Animated WebP through the skeleton, coded by libwebp's animation
/// encoder, which chooses each frame's rectangle, blend and dispose.
///
/// Lossless by default: VP8L, every visible pixel exact (fully transparent
/// pixels may change their invisible color, as in img2webp). With
/// `settings.quality`, lossy VP8 at that quality with lossless alpha,
/// libwebp free to code a frame lossless where that is smaller
/// (`allow_mixed`), and key frames every few frames
/// (`WebPTuning.lossyKeyFrames`).
///
/// With `settings.colors`, a palette WebP (`WebPPalette`): the rectangle
/// that changed since the frame before gets a libimagequant palette of at
/// most that many colors of its own (at `settings.quality`, dithered by
/// `settings.dither`), as a GIF frame does, pixels the source did not
/// change keep what was shown, and the frames are coded lossless: GIF's
/// look with partial alpha, at a fraction of its size and without lossy
/// VP8's 4:2:0 chroma (docs/tuning.md, "WebP: palette frames").
///
/// The effort (`settings.compression`) picks libwebp's method and
/// quality-as-effort. `best` and `max` race a few lossless settings on the
/// same frames, in parallel, and keep the smallest file (`WebPRace`).
struct WebPEncoder: FormatEncoder {
    static let limits = FormatLimits(
        name: "WebP", delays: 1...1_677_721, maxFPS: nil, delayReason: nil,
        // The ANIM chunk stores the loop count in 16 bits.
        maxLoop: 65535, dithersTruecolor: false,
        smallerWith: "--quality (lossy VP8), --colors (a palette a frame) or --max-bytes",
        // VP8 and VP8L code 14 bits a side.
        maxSide: 16383)
    static let fileExtensions = ["webp"]

    /// A frame to add: the whole canvas and when it starts. For a palette
    /// WebP, also the source frame before it (nil for the first) and, once
    /// processed, the changed rectangle in palette colors.
    struct Frame: Sendable {
        var image: RGBAImage
        var start: Int
        var previous: RGBAImage? = nil
        var rect = PixelRect.empty
        var remapped: RGBAImage? = nil
    }

    private let settings: EncodeSettings
    private let timeline: Timeline
    private let sink: ByteSink
    /// The racing coders, from `begin` to `finish`.
    private var race: WebPRace?
    /// The heap policy before `begin` (nil: the C library's own), put back
    /// by `finish`.
    private var heapBefore: HeapPolicy?
    /// Palette WebP: the frames before, for planning and composing.
    private var palette = WebPPalette()
    /// Whether a frame planned so far has a pixel that is not opaque (the
    /// summary names alpha only then).
    private var transparent = false

    init(settings: EncodeSettings, timeline: Timeline, sink: ByteSink) {
        self.settings = settings
        self.timeline = timeline
        self.sink = sink
    }

    /// WebP keeps partial alpha.
    var alpha: AlphaPolicy? { nil }

    /// libimagequant for a palette WebP, nil for truecolor.
    var stage: Quantizer? {
        settings.colors.map {
            Quantizer(quality: settings.quality ?? EncodeSettings.defaultQuality, colors: $0, dither: settings.dither)
        }
    }

    /// The race's coders and the frames it keeps waiting.
    static func heldFrames(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Int {
        WebPRace.heldFrames(settings, frames: frames, size: size)
    }

    mutating func survey(_ frames: inout FrameLoader) throws {}

    mutating func begin(first: RGBAImage) throws {
        // libwebp allocates the same large tables many times a frame.
        if first.width * first.height <= WebPTuning.reusePixels { heapBefore = HeapPolicy.request(.reuse) }
        race = try WebPRace(settings, frames: timeline.entries.count, first: first)
    }

    mutating func plan(_ frame: DistinctFrame) throws -> [Frame] {
        var planned = Frame(image: frame.image, start: Int(timeline.start(frame.entry, ticksPerSecond: 1000)))
        if !transparent { transparent = !frame.image.isOpaque }
        if settings.colors != nil { palette.plan(&planned) }
        return [planned]
    }

    /// Palette WebP: each frame's changed rectangle is quantized on its own
    /// (`WebPPalette.quantize`), in parallel.
    static func process(_ frames: [Frame], stage: Quantizer?, jobs: Int) throws -> [Frame] {
        guard let quantizer = stage else { return frames }
        return try parallelMap(frames.count, jobs: jobs) { i in try WebPPalette.quantize(frames[i], with: quantizer) }
    }

    /// Hands the frames as shown (a palette WebP's composed) to the race.
    mutating func write(_ batch: [Frame]) throws {
        var composed = batch
        if settings.colors != nil {
            for i in composed.indices {
                composed[i].image = palette.compose(composed[i])
                composed[i].previous = nil
                composed[i].remapped = nil
            }
        }
        try race?.add(composed)
    }

    /// Writes the race's smallest file.
    mutating func finish() throws -> String {
        let end = Int(timeline.start(timeline.entries.count, ticksPerSecond: 1000))
        guard var race else { throw ThrobberError(.software, "WebP ended before the first frame") }
        self.race = nil
        let (file, s) = try race.finish(end: end)
        if let heapBefore { _ = HeapPolicy.request(heapBefore) }
        try sink.put(file)
        if let colors = settings.colors {
            return "up to \(colors) colors a frame, lossless (libwebp method \(s.method), effort \(Int(s.quality)))"
        }
        return s.lossless
            ? "lossless (libwebp method \(s.method), effort \(Int(s.quality)))"
            : "lossy at quality \(Int(s.quality))\(transparent ? ", lossless alpha" : "") (libwebp method \(s.method))"
    }
}
