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
/// With `settings.colors`, a palette WebP: the rectangle that changed since
/// the frame before gets a libimagequant palette of at most that many colors
/// of its own (at `settings.quality`, dithered by `settings.dither`), as a
/// GIF frame does, pixels the source did not change keep what was shown,
/// and the frames are coded lossless, where VP8L's color-indexing transform
/// makes few colors cheap: GIF's look with partial alpha, at a fraction of
/// its size and without lossy VP8's 4:2:0 chroma (testsrc2 at 256 colors:
/// 49.7 dB where `--quality 95` reaches 26.3 dB; docs/benchmarks.md).
///
/// The effort (`settings.compression`) picks libwebp's method and
/// quality-as-effort. `best` and `max` race a few lossless settings on the
/// same frames, in parallel, and keep the smallest file: no single setting
/// wins on every animation (docs/benchmarks.md).
struct WebPEncoder: FormatEncoder {
    static let limits = FormatLimits(
        name: "WebP", delays: 1...1_677_721, maxFPS: nil, delayReason: nil,
        // The ANIM chunk stores the loop count in 16 bits.
        maxLoop: 65535, dithersTruecolor: false,
        smallerWith: "--quality (lossy VP8), --colors (a palette a frame) or --max-bytes")
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

    /// Writers racing on the same frames; one thread each at a time.
    private final class Racer: @unchecked Sendable {
        let writer: WebPAnimWriter
        init(_ writer: WebPAnimWriter) { self.writer = writer }

        func add(_ frames: [Frame]) throws {
            for frame in frames { try writer.add(frame.image, start: frame.start) }
        }
    }

    private let settings: EncodeSettings
    private let timeline: Timeline
    private let sink: ByteSink
    private var racers: [Racer] = []
    /// The heap policy before `begin` (nil: the C library's own), put back
    /// by `finish`.
    private var heapBefore: HeapPolicy?
    /// Why frames are kept in `held` (`releaseHeld`); nil once every
    /// racer codes frames as they come.
    private var holding: Hold?
    private var held: [Frame] = []
    /// Where the exhaustive setting may race: the sample deciding it, begun
    /// beside the racers once the first frame and the next that differs
    /// have come (`startSample`; with one job, at `finish`).
    private var sample: Pending<Bool>?

    /// Why frames are kept.
    private enum Hold {
        /// Until `finish`, while the exhaustive sample decides whether
        /// that setting races too (at most `exhaustivePixels` in all), for
        /// the exhaustive coder (`codeHeld`); the other racers code them as
        /// they come (`write`).
        case exhaustiveSample
        /// Until `prefixFrames` frames and one more have come, which each
        /// racer's settings code as a short animation to decide which two
        /// racers go on (`racePrefix`); the racers wait.
        case prefix
    }
    /// Palette WebP: the source frame before and the canvas shown for it.
    private var previousSource: RGBAImage?
    private var shown: RGBAImage?

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

    /// The libwebp settings raced for `settings` on `frames` frames of
    /// `size`.
    static func candidates(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> [WebPAnimWriter.Settings] {
        if settings.colors == nil, let quality = settings.quality {
            let q = Float(quality)
            let keys: (kmin: Int32, kmax: Int32) = (3, 5)
            switch settings.compression {
            case .fast:
                return [.init(lossless: false, quality: q, method: 2, keyFrames: keys, allowMixed: true)]
            case .best:
                // Method 4, not 5: method 5 adds libwebp's trellis
                // quantization, which buys PSNR (under 0.01 dB at equal
                // bytes) with SSIM (0.001–0.002 less at equal bytes on
                // mandelbrot and testsrc2, quality 40–92), in more time.
                return [.init(lossless: false, quality: q, method: 4, keyFrames: keys, allowMixed: true)]
            case .max:
                return [
                    .init(lossless: false, quality: q, method: 6, keyFrames: keys, allowMixed: true, autofilter: true)
                ]
            }
        }
        switch settings.compression {
        case .fast: return [.init(lossless: true, quality: 25, method: 1)]
        case .best, .max:
            // Method 3 is 1.2 % smaller than method 5 on the ease example
            // in an eighth of its time, method 5 smaller on most presets.
            // Method 4, effort 75 (raced before on small animations) won
            // on none of the 18 presets by more than 2 bytes, and a third
            // racer on two cores, beside the sample, doubled the time of
            // files that take 20–200 ms (docs/benchmarks.md).
            var list: [WebPAnimWriter.Settings] = [
                .init(lossless: true, quality: 50, method: 3), .init(lossless: true, quality: 90, method: 5),
            ]
            if settings.compression == .max || mayRaceExhaustive(settings, frames: frames, size: size) {
                if settings.compression == .best && settings.colors == nil {
                    // Small truecolor animations: method 3 was smaller
                    // than method 5 on 1 of the 18 presets, by 6 B, where
                    // the exhaustive setting won by 3.4 %; its time there
                    // is more than half of method 5's.
                    list.removeFirst()
                }
                list.append(exhaustive)
            } else if racesFullEffort(settings, frames: frames, size: size) {
                // Second, so that on two threads it has one to itself
                // (`parallelMap` deals the racers out in turn).
                list.insert(fullEffort, at: 1)
            }
            return list
        }
    }

    /// Method 4 at effort 100, the effort at which libwebp clusters a
    /// frame's tile histograms without first sorting them into bins by
    /// their approximate entropy (`histogram_enc.c`; below 100 it bins
    /// whenever a frame has more than 128 tiles). On textured frames the
    /// bins merge tiles that cost bits together: mandelbrot is 3.2 % smaller
    /// than at method 5, effort 90 (6,877,490 B against 7,105,056 B,
    /// within 0.02 % of img2webp's best, `-m 5 -q 100`), at three and a
    /// half times method 5's time; method 5 at effort 100 is no smaller
    /// there and takes a quarter longer again. Raced beside methods 3 and
    /// 5, not in place of method 5: a camera's frames
    /// (photo-seq-dlib-bobot) are 3.1 % larger at method 4, effort 100
    /// than at method 5, effort 90 (docs/benchmarks.md).
    static let fullEffort = WebPAnimWriter.Settings(lossless: true, quality: 100, method: 4)

    /// Where `fullEffort` may race, each racer first codes this many
    /// frames as an animation of their own, and only two go on
    /// (`racePrefix`): three racers on two cores take the time of two in
    /// turn (a camera's 60 frames, photo-seq-dlib-bobot: 2.5–2.7 s with
    /// methods 3 and 5, 4.2 s with all three, 2.8–3.0 s after the prefix).
    /// Effort 100 goes on only where its 4 frames are at least 1 % smaller
    /// than the others': mandelbrot 1.7 % (320x240 from its start) and
    /// 3.4 % (160x120 from 3 s), where the whole file gains 3.2 % and 6 %.
    /// Where it gains less it is stopped: the ease preset's first frames
    /// code the same at all three settings, and its whole file is 0.2 %
    /// larger at effort 100.
    static let prefixFrames = 4

    /// Whether the default (`best`) truecolor lossless encode races
    /// `fullEffort`: animations too large for the exhaustive race whose
    /// frames have more than 128 of method 4's 8x8 tiles, so that libwebp
    /// bins their histograms below effort 100, and more than twice
    /// `prefixFrames` frames, so that the prefix decides on a small part
    /// of the work. Smaller frames code the same at effort 100 as below,
    /// in more time.
    static func racesFullEffort(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Bool {
        guard settings.compression == .best, settings.colors == nil, settings.quality == nil, let size else {
            return false
        }
        let tiles = ((size.width + 7) / 8) * ((size.height + 7) / 8)
        return tiles > 128 && frames > 2 * prefixFrames && !mayRaceExhaustive(settings, frames: frames, size: size)
    }

    /// libwebp's exhaustive lossless setting: method 6 with effort 100
    /// tries every transform (palette, prediction, subtract-green, and
    /// with and without a color cache) where lower settings code the one
    /// its heuristic guesses; often ten times the time of method 5.
    static let exhaustive = WebPAnimWriter.Settings(lossless: true, quality: 100, method: 6)

    /// Whether the racer with `racer`'s settings codes on a second thread
    /// of libwebp's own (`WebPAnimWriter`'s `sideThread`): the exhaustive
    /// setting, which tries 6 to 8 transforms a frame, where `jobs` allows
    /// two threads. It runs longest by far, and the racers beside it finish
    /// early and leave their core idle: square-spin 115 ms -> 94 ms,
    /// dual-ring 0.60 s -> 0.48 s, `--compression max` on mandelbrot 384 s
    /// -> 217 s, the same bytes.
    /// The other settings try one or two transforms a frame.
    static func sideThread(_ racer: WebPAnimWriter.Settings, jobs: Int) -> Bool {
        jobs > 1 && racer == exhaustive
    }

    /// The default (`best`) lossless encode, truecolor or palette, also
    /// races the exhaustive setting on animations up to this many pixels in
    /// all (frames × width × height), which it codes in seconds (about
    /// 6–25 µs a pixel measured on the presets), when a sample says it pays
    /// (`exhaustivePays`): a 64-pixel loader is often 3–28 % smaller, and
    /// with `--colors 8` or 16 the pulse, bounce and ellipsis presets
    /// 15–22 % (palette WebP took the exhaustive setting only with
    /// `--compression max` before). 256 Ki is a 64x64 loader of 64 frames;
    /// at 512 Ki the ease preset (120x120, 30 frames) spent 0.34 s on the
    /// sample, twice its whole file at method 5, and its exhaustive coder
    /// takes 3.7 s (20 times method 5, as on every preset).
    static let exhaustivePixels = 1 << 18

    /// The exhaustive setting is raced only when the first frame's drawing
    /// (where the first frame is blank, the next frame's changed rectangle)
    /// at method 5 times the frames (about the file's size) is at most this:
    /// high-entropy frames (noise, fractals) cost several times more a
    /// pixel at method 6 and gain little.
    static let exhaustiveBytes = 256 << 10

    /// Whether `settings` on `frames` frames of `size` may race the
    /// exhaustive setting (a sample of the first frames decides,
    /// `codeHeld`): lossless or palette, `best`, few pixels.
    static func mayRaceExhaustive(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Bool {
        guard settings.compression == .best, settings.colors != nil || settings.quality == nil, let size else {
            return false
        }
        return FrameSize.product(frames, size.width * size.height) <= exhaustivePixels
    }

    /// Whether the exhaustive setting codes a sample at least 1 % smaller
    /// than method 5, effort 90 does. The sample (`ExhaustiveSample`) is
    /// the part of `first` that is drawn and, where it shows something
    /// else or the drawing alone does not settle it, the rectangle in
    /// which `next`, the first frame that differs, changes it. On the 18
    /// presets, truecolor and with `--colors` 8 to 256, it agrees with the
    /// whole animation on whether the exhaustive setting gains (by 1–34 %
    /// where the file gains 1.3–28 %; by nothing where the file gains under
    /// 1 %), as the sample of the whole first frame and rectangle did
    /// before at up to three times the cost.
    static func exhaustivePays(_ first: RGBAImage, next: RGBAImage?, frames: Int) throws -> Bool {
        let method5 = WebPAnimWriter.Settings(lossless: true, quality: 90, method: 5)
        let sample = ExhaustiveSample(first, next: next)
        // The drawing, or where the first frame is blank the rectangle.
        guard let lead = sample.drawn ?? sample.changed else { return false }
        var base = [try WebPAnimWriter.stillSize(lead, settings: method5)]
        // At method 5 times the frames: about the file.
        let (predicted, overflow) = base[0].multipliedReportingOverflow(by: frames)
        guard !overflow && predicted <= exhaustiveBytes else { return false }
        var tried = [try WebPAnimWriter.stillSize(lead, settings: exhaustive)]
        if sample.drawn != nil, let changed = sample.changed,
            !sample.coincide || (tried[0] < base[0] && tried[0] * 100 > base[0] * 99)
        {
            base.append(try WebPAnimWriter.stillSize(changed, settings: method5))
            tried.append(try WebPAnimWriter.stillSize(changed, settings: exhaustive))
        }
        return tried.reduce(0, +) * 100 <= base.reduce(0, +) * 99
    }

    /// What `exhaustivePays` codes both ways.
    ///
    /// `drawn` is the part of the first frame that is drawn
    /// (`FrameDiff.contentBox`; the margin of plain or transparent
    /// background around it costs next to nothing either way). `changed`
    /// is the rectangle in which the next frame that differs changes it;
    /// it `coincide`s with the drawing when their overlap is at least half
    /// the larger of the two: the same drawing, turned or grown. Then the
    /// drawing speaks for it where the exhaustive setting codes the drawing
    /// no smaller (chase, ring, wave, pacman, bounce, ease and grid) or at
    /// least 1 % smaller; where it gains less, the rectangle is coded too
    /// (heart with `--colors 16`: 0.6 % on the first frame, 6.9 % on the
    /// rectangle, each frame with a palette of its own; the file 4.6 %).
    /// A rectangle that shows something else is always coded: the bars
    /// preset gains nothing on its first frame but 33 % on the one bar that
    /// stretches.
    ///
    /// The exhaustive coder takes about 15 times method 5's time a pixel,
    /// and the sample runs beside the racers. Where it cost more than the
    /// whole animation at method 5 it set the time of small loaders: the
    /// chase preset took 60 ms for its first frame and rectangle against
    /// 32 ms for the animation; its 56x56 drawing alone takes 22 ms.
    struct ExhaustiveSample {
        var drawn: RGBAImage?
        var changed: RGBAImage?
        var coincide: Bool

        init(_ first: RGBAImage, next: RGBAImage?) {
            let box = FrameDiff.contentBox(first)
            let rect = next.map { FrameDiff.changedRect(first, $0) } ?? .empty
            drawn = box.isEmpty ? nil : FrameDiff.crop(first, box)
            changed = rect.isEmpty ? nil : next.map { FrameDiff.crop($0, rect) }
            coincide = !box.isEmpty && !rect.isEmpty && rect.intersection(box).area * 2 >= max(rect.area, box.area)
        }
    }

    /// Frames of RGBA each libwebp encoder holds at most (its canvases,
    /// candidate rectangles and the coder's own buffers), measured with
    /// `/usr/bin/time` on 2048² frames (docs/reliability.md).
    static let heldPerWriter = 12

    /// Bytes each libwebp encoder holds whatever the frame size (its hash
    /// table, histogram sets and the heap they leave behind): frames of
    /// 512x512 measured 116 MB where 12 frames a coder and the base
    /// estimated 114.
    static let heldBytesPerWriter = 16 << 20

    /// Frames up to this many pixels are coded under `HeapPolicy.reuse`.
    static let reusePixels = 512 * 512

    static func heldFrames(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Int {
        // A palette WebP also holds the canvas shown and the source before,
        // and each frame of a batch in flight its quantized rectangle.
        let palette = settings.colors == nil ? 0 : 2 + max(4, 2 * settings.jobs)
        let fixed =
            size.map { size -> Int in
                let bytes = max(size.rgbaBytes, 1)
                return heldBytesPerWriter / bytes + (heldBytesPerWriter % bytes == 0 ? 0 : 1)
            } ?? 0
        // Where the exhaustive setting may race, every frame waits for the
        // end; where method 4 at effort 100 races, the prefix's frames and
        // one more wait for its probes.
        let waiting =
            mayRaceExhaustive(settings, frames: frames, size: size)
            ? frames : racesFullEffort(settings, frames: frames, size: size) ? prefixFrames + 1 : 0
        // The exhaustive coder's side thread holds an encoder of its own:
        // `--compression max` on mandelbrot peaked at 125 MB, 114 MB without.
        let list = candidates(settings, frames: frames, size: size)
        let writers = list.count + (list.contains { sideThread($0, jobs: settings.jobs) } ? 1 : 0)
        return (heldPerWriter + fixed) * writers + palette + waiting
    }

    mutating func survey(_ frames: inout FrameLoader) throws {}

    mutating func begin(first: RGBAImage) throws {
        // libwebp allocates the same large tables many times a frame.
        if first.width * first.height <= Self.reusePixels { heapBefore = HeapPolicy.apply(.reuse) }
        let size = FrameSize(width: first.width, height: first.height)
        let frames = timeline.entries.count
        var list = Self.candidates(settings, frames: frames, size: size)
        if Self.mayRaceExhaustive(settings, frames: frames, size: size) {
            // Decided at the end, beside the other racers (`codeHeld`).
            list.removeAll { $0 == Self.exhaustive }
            holding = .exhaustiveSample
        } else if list.contains(Self.fullEffort) {
            holding = .prefix
        }
        racers = try list.map {
            Racer(
                try WebPAnimWriter(
                    width: first.width, height: first.height, loop: settings.loop, settings: $0,
                    sideThread: Self.sideThread($0, jobs: settings.jobs)))
        }
    }

    mutating func plan(_ frame: DistinctFrame) throws -> [Frame] {
        var planned = Frame(image: frame.image, start: Int(timeline.start(frame.entry, ticksPerSecond: 1000)))
        if settings.colors != nil {
            planned.previous = previousSource
            previousSource = frame.image
        }
        return [planned]
    }

    /// Palette WebP: each frame's changed rectangle is quantized on its own
    /// (kept exact when it already has few enough colors), in parallel.
    static func process(_ frames: [Frame], stage: Quantizer?, jobs: Int) throws -> [Frame] {
        guard let quantizer = stage else { return frames }
        return try parallelMap(frames.count, jobs: jobs) { i in
            var f = frames[i]
            let full = PixelRect(x: 0, y: 0, width: f.image.width, height: f.image.height)
            f.rect = f.previous.map { FrameDiff.changedRect($0, f.image) } ?? full
            guard f.rect.width > 0 && f.rect.height > 0 else { return f }
            let crop = FrameDiff.crop(f.image, f.rect)
            var census = ColorTable(limit: quantizer.colors)
            if census.insertColors(of: crop, in: PixelRect(x: 0, y: 0, width: crop.width, height: crop.height)) {
                f.remapped = crop
                return f
            }
            var (indices, colors) = try quantizer.quantizeAndRemap(crop, transparentEntry: crop.hasTransparency)
            if quantizer.dither > 0 { EdgeMaskedDither.apply(crop, &indices, colors: colors) }
            var pixels = [UInt8](repeating: 0, count: indices.count * 4)
            for (p, index) in indices.enumerated() {
                let c = colors[Int(index)]
                // A clear pixel is clear black, as in the lossless files.
                if c >> 24 == 0 { continue }
                pixels[p * 4] = UInt8(truncatingIfNeeded: c)
                pixels[p * 4 + 1] = UInt8(truncatingIfNeeded: c >> 8)
                pixels[p * 4 + 2] = UInt8(truncatingIfNeeded: c >> 16)
                pixels[p * 4 + 3] = UInt8(truncatingIfNeeded: c >> 24)
            }
            f.remapped = RGBAImage(width: crop.width, height: crop.height, pixels: pixels)
            return f
        }
    }

    /// Squared RGBA distance of two packed colors; any two clear colors are equal.
    @inline(__always)
    private static func distance(_ a: UInt32, _ b: UInt32) -> Int {
        if a >> 24 == 0 && b >> 24 == 0 { return 0 }
        let da = Int(a >> 24) - Int(b >> 24)
        return ColorTable.distance(a, b) + da * da
    }

    /// Palette WebP: the canvas shown before, with the pixels the source
    /// changed inside the frame's rectangle taken from its palette colors
    /// where they are closer to the source than what is shown (as a GIF
    /// frame keeps them with its transparent index); pixels the source kept
    /// keep what was shown, so still areas stay still and libwebp's
    /// rectangles stay small.
    private mutating func compose(_ f: Frame) -> RGBAImage {
        guard let remapped = f.remapped else { return shown ?? f.image }
        guard var canvas = shown, let previous = f.previous else {
            shown = remapped
            return remapped
        }
        let width = canvas.width
        let rect = f.rect
        canvas.withMutablePackedPixels { out in
            RGBAImage.withPackedPixels(previous, f.image, remapped) { before, now, new in
                for y in 0..<rect.height {
                    let row = (rect.y + y) * width + rect.x
                    for x in 0..<rect.width where now[row + x] != before[row + x] {
                        let c = new[y * rect.width + x]
                        if Self.distance(now[row + x], c) < Self.distance(now[row + x], out[row + x]) {
                            out[row + x] = c
                        }
                    }
                }
            }
        }
        shown = canvas
        return canvas
    }

    /// Each racer codes the batch on a thread of its own.
    mutating func write(_ batch: [Frame]) throws {
        var composed = batch
        if settings.colors != nil {
            for i in composed.indices {
                composed[i].image = compose(composed[i])
                composed[i].previous = nil
                composed[i].remapped = nil
            }
        }
        if let holding {
            held += composed
            if holding == .prefix {
                if held.count > Self.prefixFrames { try releaseHeld() }
                return
            }
            startSample()
        }
        let racers = self.racers
        let frames = composed
        _ = try parallelMap(racers.count, jobs: settings.jobs) { i in try racers[i].add(frames) }
    }

    /// Starts the exhaustive sample on a thread of its own once the held
    /// frames hold the first frame and the next one that differs, where
    /// `settings.jobs` allows a second thread: the racers code the frames
    /// meanwhile, and on two cores the sample costs no time where they take
    /// longer (the bounce preset: 17 ms -> 15 ms, its frames decoded and
    /// coded at method 5 while the sample runs, where they waited for
    /// `finish` before).
    private mutating func startSample() {
        guard sample == nil, settings.jobs > 1, let first = held.first?.image,
            let next = held.first(where: { $0.image != first })?.image
        else { return }
        let frames = timeline.entries.count
        sample = Pending { try Self.exhaustivePays(first, next: next, frames: frames) }
    }

    /// At `finish`, where the exhaustive setting may race: the sample's
    /// answer (taken here with one job, or where every frame is the same),
    /// and where it pays, the exhaustive coder codes the held frames, on
    /// two threads where `settings.jobs` allows (`sideThread`).
    private mutating func codeHeld(_ frames: [Frame], first: RGBAImage) throws {
        let pays =
            try sample?.wait()
            ?? Self.exhaustivePays(
                first, next: frames.first { $0.image != first }?.image, frames: timeline.entries.count)
        sample = nil
        guard pays else { return }
        let racer = Racer(
            try WebPAnimWriter(
                width: first.width, height: first.height, loop: settings.loop, settings: Self.exhaustive,
                sideThread: Self.sideThread(Self.exhaustive, jobs: settings.jobs)))
        try racer.add(frames)
        racers.append(racer)
    }

    /// Codes the first `prefixFrames` frames held with each racer's
    /// settings as an animation of their own, in parallel, and stops one
    /// racer: `fullEffort` unless its animation is at least 1 % smaller
    /// than every other's, else the larger of the others (the later of
    /// equal ones). The racers left get every held frame. With no frame
    /// after the prefix (identical neighbors merged leave fewer frames than
    /// the timeline has), every racer goes on.
    private mutating func racePrefix(_ frames: [Frame], first: RGBAImage) throws {
        let racers = self.racers
        if frames.count > Self.prefixFrames,
            let full = racers.firstIndex(where: { $0.writer.settings == Self.fullEffort })
        {
            let sample = Array(frames.prefix(Self.prefixFrames))
            let end = frames[Self.prefixFrames].start
            let loop = settings.loop
            let sizes = try parallelMap(racers.count, jobs: settings.jobs) { i in
                let probe = try WebPAnimWriter(
                    width: first.width, height: first.height, loop: loop, settings: racers[i].writer.settings)
                for f in sample { try probe.add(f.image, start: f.start) }
                return try probe.finish(end: end).count
            }
            let others = racers.indices.filter { $0 != full }
            let pays = others.allSatisfy { sizes[full] * 100 <= sizes[$0] * 99 }
            // Where it pays, the larger of the others stops (the later of equal ones).
            let dropped = pays ? others.max { (sizes[$0], $0) < (sizes[$1], $1) } ?? full : full
            self.racers.remove(at: dropped)
        }
        let kept = self.racers
        _ = try parallelMap(kept.count, jobs: settings.jobs) { i in try kept[i].add(frames) }
    }

    /// Hands the held frames on as `holding` says (as coded: a palette
    /// WebP's frames in their palette colors): to the exhaustive coder
    /// where the sample says it pays, or to the racers the prefix keeps;
    /// from then on every racer codes frames as they come.
    private mutating func releaseHeld() throws {
        guard let holding else { return }
        self.holding = nil
        let frames = held
        held = []
        guard let first = frames.first?.image else { return }
        switch holding {
        case .exhaustiveSample: try codeHeld(frames, first: first)
        case .prefix: try racePrefix(frames, first: first)
        }
    }

    /// Assembles every racer's file and writes the smallest (the first of
    /// equal ones).
    mutating func finish() throws -> String {
        try releaseHeld()
        let end = Int(timeline.start(timeline.entries.count, ticksPerSecond: 1000))
        let racers = self.racers
        let files = try parallelMap(racers.count, jobs: settings.jobs) { i in try racers[i].writer.finish(end: end) }
        guard let best = files.indices.min(by: { files[$0].count < files[$1].count }) else {
            throw ThrobberError(.software, "WebP ended before the first frame")
        }
        self.racers = []
        if let heapBefore { HeapPolicy.apply(heapBefore) }
        try sink.put(files[best])
        let s = racers[best].writer.settings
        if let colors = settings.colors {
            return "up to \(colors) colors a frame, lossless (libwebp method \(s.method), effort \(Int(s.quality)))"
        }
        return s.lossless
            ? "lossless (libwebp method \(s.method), effort \(Int(s.quality)))"
            : "lossy at quality \(Int(s.quality)), lossless alpha (libwebp method \(s.method))"
    }
}
