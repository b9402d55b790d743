import ThrobberCodecs
import ThrobberCore

/// Animated WebP through the skeleton, coded by libwebp's animation
/// encoder, which chooses each frame's rectangle, blend and dispose.
///
/// Lossless by default: VP8L, every visible pixel exact (fully transparent
/// pixels may change their invisible color, as in img2webp). With
/// `settings.quality`, lossy VP8 at that quality with lossless alpha,
/// libwebp free to code a frame lossless where that is smaller
/// (`allow_mixed`), and a key frame every 3 to 5 frames: without them
/// libwebp's error builds up from frame to frame (mandelbrot at quality
/// 75: +0.8 dB PSNR at the same size, docs/benchmarks.md).
///
/// The effort (`settings.compression`) picks libwebp's method and
/// quality-as-effort. `best` and `max` race a few lossless settings on the
/// same frames, in parallel, and keep the smallest file: no single setting
/// wins on every animation (docs/benchmarks.md).
struct WebPEncoder: FormatEncoder {
    static let limits = FormatLimits(
        name: "WebP", delays: 1...1_677_721, maxFPS: nil, delayReason: nil,
        // The ANIM chunk stores the loop count in 16 bits.
        maxLoop: 65535)
    static let fileExtensions = ["webp"]

    /// A frame to add: the whole canvas and when it starts.
    struct Frame: Sendable {
        var image: RGBAImage
        var start: Int
    }

    /// Writers racing on the same frames; one thread each at a time.
    private final class Racer: @unchecked Sendable {
        let writer: WebPAnimWriter
        init(_ writer: WebPAnimWriter) { self.writer = writer }
    }

    private let settings: EncodeSettings
    private let timeline: Timeline
    private let sink: ByteSink
    private var racers: [Racer] = []

    init(settings: EncodeSettings, timeline: Timeline, sink: ByteSink) {
        self.settings = settings
        self.timeline = timeline
        self.sink = sink
    }

    /// WebP keeps partial alpha.
    var alpha: AlphaPolicy? { nil }
    var stage: Void { () }

    /// Animations up to this many pixels in all (frames × width × height)
    /// also race libwebp's default lossless setting (method 4, effort 75),
    /// which wins on some small ones (the ripple preset) and costs most
    /// on long ones.
    static let smallPixels = 4 << 20

    /// The libwebp settings raced for `settings` on `frames` frames of
    /// `size`.
    static func candidates(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> [WebPAnimWriter.Settings] {
        if let quality = settings.quality {
            let q = Float(quality)
            let keys: (kmin: Int32, kmax: Int32) = (3, 5)
            switch settings.compression {
            case .fast:
                return [.init(lossless: false, quality: q, method: 2, keyFrames: keys, allowMixed: true)]
            case .best:
                return [.init(lossless: false, quality: q, method: 5, keyFrames: keys, allowMixed: true)]
            case .max:
                return [
                    .init(lossless: false, quality: q, method: 6, keyFrames: keys, allowMixed: true, autofilter: true)
                ]
            }
        }
        switch settings.compression {
        case .fast: return [.init(lossless: true, quality: 25, method: 1)]
        case .best, .max:
            var list: [WebPAnimWriter.Settings] = [
                .init(lossless: true, quality: 50, method: 3), .init(lossless: true, quality: 90, method: 5),
            ]
            if FrameSize.product(frames, size.map { $0.width * $0.height } ?? .max) <= smallPixels {
                list.append(.init(lossless: true, quality: 75, method: 4))
            }
            if settings.compression == .max { list.append(.init(lossless: true, quality: 100, method: 6)) }
            return list
        }
    }

    /// Frames of RGBA each libwebp encoder holds at most (its canvases,
    /// candidate rectangles and the coder's own buffers), measured with
    /// `/usr/bin/time` on 2048² frames (docs/reliability.md).
    static let heldPerWriter = 12

    static func heldFrames(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Int {
        heldPerWriter * candidates(settings, frames: frames, size: size).count
    }

    mutating func survey(_ frames: inout FrameLoader) throws {}

    mutating func begin(first: RGBAImage) throws {
        let size = FrameSize(width: first.width, height: first.height)
        racers = try Self.candidates(settings, frames: timeline.entries.count, size: size).map {
            Racer(try WebPAnimWriter(width: first.width, height: first.height, loop: settings.loop, settings: $0))
        }
    }

    mutating func plan(_ frame: DistinctFrame) throws -> [Frame] {
        [Frame(image: frame.image, start: Int(timeline.start(frame.entry, ticksPerSecond: 1000)))]
    }

    static func process(_ frames: [Frame], stage: Void, jobs: Int) throws -> [Frame] { frames }

    /// Each racer codes the batch on a thread of its own.
    mutating func write(_ frames: [Frame]) throws {
        let racers = self.racers
        _ = try parallelMap(racers.count, jobs: settings.jobs) { i in
            for frame in frames { try racers[i].writer.add(frame.image, start: frame.start) }
        }
    }

    /// Assembles every racer's file and writes the smallest (the first of
    /// equal ones).
    mutating func finish() throws -> String {
        let end = Int(timeline.start(timeline.entries.count, ticksPerSecond: 1000))
        let racers = self.racers
        let files = try parallelMap(racers.count, jobs: settings.jobs) { i in try racers[i].writer.finish(end: end) }
        guard let best = files.indices.min(by: { files[$0].count < files[$1].count }) else {
            throw ThrobberError(.software, "WebP ended before the first frame")
        }
        self.racers = []
        try sink.put(files[best])
        let s = racers[best].writer.settings
        return s.lossless
            ? "lossless (libwebp method \(s.method), effort \(Int(s.quality)))"
            : "lossy at quality \(Int(s.quality)), lossless alpha (libwebp method \(s.method))"
    }
}
