import Synchronization
import ThrobberCodecs
import ThrobberCore

/// GIF through the skeleton: colors from one exact global palette, exact
/// local palettes, or libimagequant per frame (`PaletteChoice`); geometry
/// and disposal from `FramePlanner`; indices and giflib writing in
/// `GIFFrameWriter`.
struct GIFEncoder: FormatEncoder {
    static let limits = FormatLimits(
        name: "GIF", delays: 2...65535, maxFPS: 50,
        delayReason: "delays under 2 cs are slowed to 10 cs by browsers",
        // The NETSCAPE extension stores plays − 1 in 16 bits.
        maxLoop: 65536, maxLossy: LossyLZW.maxLevel)
    static let fileExtensions = ["gif"]

    /// The longest delay one GIF frame can have, in centiseconds.
    static let maxDelay: Int64 = 65535

    private let settings: EncodeSettings
    private let timeline: Timeline
    /// The file of an ordinary encode; nil in a byte-budget trial.
    private let sink: ByteSink?
    /// A byte-budget trial (`GIFBudget`): one file per lossy level, in
    /// memory; nil in an ordinary encode.
    let trials: LossyTrials?
    /// The trial's every file is over its budget: the rest of the frames
    /// are not written (`LossyTrials.steer`).
    private(set) var stopped = false
    private(set) var stage: PaletteChoice
    private var planner = FramePlanner()
    /// The writer of an ordinary encode.
    private var single: GIFFrameWriter?
    /// In a byte-budget trial: one writer per lossy level, all fed
    /// the same palettized frames, written on worker threads in parallel.
    private(set) var writers: [WriterBox] = []

    /// One lossy level's writer in a byte-budget trial, writing into a
    /// memory file of its own; worker threads take turns through its lock.
    final class WriterBox: Sendable {
        private let writer: Mutex<GIFFrameWriter>

        /// A writer of a `width` × `height` file at lossy `level`, watched
        /// by `trial`.
        init(_ header: LossyTrials.Header, level: Int, trial: GIFTrial) throws {
            var writer = try GIFFrameWriter(
                sink: MemorySink(), width: header.width, height: header.height, choice: header.choice,
                loop: header.loop, lossy: level, fast: header.fast)
            writer.triesInterlace = header.still
            writer.trial = trial
            self.writer = Mutex(writer)
        }

        func write(_ frames: [GIFFrameWriter.Paletted]) throws { try writer.withLock { try $0.write(frames) } }
        func finish() throws { try writer.withLock { try $0.finish() } }
        /// The file written so far.
        var bytes: [UInt8] { writer.withLock { $0.memory?.bytes ?? [] } }
        /// The writer's trial state.
        var trial: GIFTrial? { writer.withLock { $0.trial } }
        /// Stops the writer's trial file at its checkpoint (`GIFTrial.stop`).
        func stop(projected size: Int) { writer.withLock { $0.trial?.stop(projected: size) } }
        /// Frames quantized after all (`GIFFrameWriter.quantizedFrames`).
        var quantizedFrames: Int { writer.withLock { $0.quantizedFrames } }
    }

    /// The heap policy before `begin` (nil: the C library's own), put back
    /// by `finish`.
    private var heapBefore: HeapPolicy?
    /// Frames of the file planned so far.
    private var planned = 0
    /// One source frame: a still, written without a loop extension (with
    /// one frame there is nothing to repeat), as image tools write stills:
    /// 19 bytes less; and with its rows interlaced where that is smaller.
    private let still: Bool

    init(settings: EncodeSettings, timeline: Timeline, sink: ByteSink) {
        self.init(settings: settings, timeline: timeline, sink: sink, trials: nil)
    }

    /// A byte-budget trial's encoder: writes one file per level of
    /// `trials`, from the same palettized frames.
    init(settings: EncodeSettings, timeline: Timeline, trials: LossyTrials) {
        self.init(settings: settings, timeline: timeline, sink: nil, trials: trials)
    }

    private init(settings: EncodeSettings, timeline: Timeline, sink: ByteSink?, trials: LossyTrials?) {
        self.settings = settings
        self.timeline = timeline
        self.sink = sink
        self.trials = trials
        still = timeline.runs.count == 1
        stage = .quantized(Self.quantizer(settings))
    }

    /// libimagequant as the settings ask, for frames that need quantizing.
    private static func quantizer(_ settings: EncodeSettings) -> Quantizer {
        Quantizer(
            quality: settings.quality ?? EncodeSettings.defaultQuality,
            colors: settings.colors ?? 256, dither: settings.dither,
            speed: settings.compression == .fast ? GIFTuning.fastQuantizerSpeed : GIFTuning.quantizerSpeed)
    }

    var alpha: AlphaPolicy? { settings.alpha }

    /// Without `quality`, lossless whenever the colors allow; frames that
    /// are quantized get one palette together with `--palette shared`.
    mutating func survey(_ frames: inout FrameLoader) throws {
        let quantizer = Self.quantizer(settings)
        if settings.quality == nil,
            let lossless = try ColorCensus.survey(&frames, maxColors: settings.colors ?? 256, fallback: quantizer)
        {
            stage = lossless
            return
        }
        if settings.palette == .shared {
            stage = try Self.sharedPalette(&frames, quantizer: quantizer, fast: settings.compression == .fast)
        }
    }

    /// One libimagequant palette for all frames, from the colors of the
    /// distinct frames of an even sample of at most
    /// `GIFTuning.sharedPaletteSample` (all of a shorter animation), with
    /// a transparent entry (for pixels that keep what is shown) for an
    /// animation or a still with clear pixels.
    private static func sharedPalette(_ frames: inout FrameLoader, quantizer: Quantizer, fast: Bool) throws
        -> PaletteChoice
    {
        // Fast: the frames are surveyed at the fast speed, but the one
        // palette is still chosen at the usual one (it is made once).
        var quantizer = quantizer
        quantizer.speed = GIFTuning.quantizerSpeed
        let shared = try Quantizer.SharedPalette(quantizer, surveySpeed: fast ? GIFTuning.fastQuantizerSpeed : nil)
        // The frames decoded for the survey, kept in the heap as while
        // quantizing (`begin`).
        let heapBefore = HeapPolicy.request(.quantizing)
        defer { if let heapBefore { _ = HeapPolicy.request(heapBefore) } }
        let count = frames.source.count
        let sample = Self.sample(count, most: GIFTuning.sharedPaletteSample)
        var previous: RGBAImage? = nil
        var clear = false
        // A batch's frames go into the histogram (one thread, in order)
        // while the next batch is decoded.
        var batch: [RGBAImage] = []
        var adding: Pending<Void>? = nil
        let size = frames.batch
        try frames.scan(sample) { index, image in
            defer { previous = image }
            if image != previous {
                if !clear { clear = image.hasTransparency }
                batch.append(image)
            }
            if batch.count >= size || index == sample.last {
                try adding?.wait()
                let images = batch
                adding = Pending { for image in images { try shared.add(image) } }
                batch = []
            }
            return true
        }
        try adding?.wait()
        if count > 1 || clear { shared.reserveTransparent() }
        // GIF draws a pixel or not: entries under 50% alpha all mean clear,
        // the others opaque.
        let found = try shared.quantize(dither: quantizer.dither).colors
        let colors = ColorTable(colors: found.map { $0 >> 24 < 128 ? 0 : $0 | 0xFF00_0000 }).colors
        return .sharedQuantized(
            quantizer, colors: colors, transparentIndex: colors.firstIndex(of: 0),
            mapper: fast ? PaletteMapper(colors: colors, jobs: frames.jobs) : nil)
    }

    /// `most` frame indices spread evenly over `count` frames, the first
    /// and the last included; all of them when `count <= most`.
    static func sample(_ count: Int, most: Int) -> [Int] {
        guard count > most else { return Array(0..<count) }
        guard most > 1 else { return [0] }
        return (0..<most).map { $0 * (count - 1) / (most - 1) }
    }

    /// The loop count written (1: no loop extension).
    private var loop: Int { still ? 1 : settings.loop }

    mutating func begin(first: RGBAImage) throws {
        // libimagequant's frame-sized blocks, kept in the heap.
        switch stage {
        case .quantized, .sharedQuantized: heapBefore = HeapPolicy.request(.quantizing)
        default: break
        }
        let header = LossyTrials.Header(
            width: first.width, height: first.height, choice: stage, loop: loop, entries: timeline.entries.count,
            still: still, fast: settings.compression == .fast)
        guard let trials else {
            guard let sink else { throw ThrobberError(.software, "a GIF encode with neither a file nor trials") }
            var writer = try GIFFrameWriter(
                sink: sink, width: first.width, height: first.height, choice: stage, loop: loop,
                lossy: settings.lossy, fast: settings.compression == .fast)
            writer.triesInterlace = still
            writer.jobs = settings.jobs
            single = writer
            return
        }
        trials.header = header
        let checkpoint = GIFTuning.checkpoint(entries: timeline.entries.count)
        writers = try trials.levels.map { level in
            try WriterBox(
                header, level: level, trial: GIFTrial(limit: trials.limit(level: level), checkpoint: checkpoint))
        }
    }

    /// A frame's geometry is planned once the next one is known (for its
    /// disposal). A GIF delay is at most 65535 cs: a longer frame is shown as
    /// several equal parts (the later ones redraw a single unchanged pixel),
    /// and at least one part, so a 0 cs frame of an input GIF stays a frame.
    mutating func plan(_ frame: DistinctFrame) -> [PlannedFrame] {
        let delay = timeline.startCentiseconds(frame.endEntry) - timeline.startCentiseconds(frame.entry)
        let parts = max(1, Int((delay + Self.maxDelay - 1) / Self.maxDelay))
        // Played once, nothing follows the last frame (viewers keep it as
        // drawn): it need not clear what the first frame leaves transparent.
        let followed = settings.loop != 1 || frame.endEntry < timeline.entries.count
        var frames: [PlannedFrame] = []
        for part in 0..<parts {
            let last = part == parts - 1
            let share = Int(delay) / parts + (part < Int(delay) % parts ? 1 : 0)
            let geometry = planner.plan(frame.image, next: last && followed ? frame.next : frame.image)
            frames.append(
                PlannedFrame(
                    target: frame.image, geometry: geometry, delay: share, index: planned, endEntry: frame.endEntry))
            planned += 1
        }
        return frames
    }

    static func process(_ frames: [PlannedFrame], stage: PaletteChoice, jobs: Int) throws -> [GIFFrameWriter.Paletted] {
        try GIFFrameWriter.palettize(frames, choice: stage, jobs: jobs)
    }

    mutating func write(_ frames: [GIFFrameWriter.Paletted]) throws {
        if single != nil {
            try single!.write(frames)
            return
        }
        guard let trials, !writers.isEmpty else {
            throw ThrobberError(.software, "GIF frames written before the header")
        }
        trials.keep(frames)
        let boxes = writers
        _ = try parallelMap(boxes.count, jobs: settings.jobs) { i in try boxes[i].write(frames) }
        if trials.steer(writers) == .abandoned {
            stopped = true
            // `finish` is not called: the heap policy goes back here.
            if let heapBefore { _ = HeapPolicy.request(heapBefore) }
            heapBefore = nil
        }
    }

    mutating func finish() throws -> String {
        defer { if let heapBefore { _ = HeapPolicy.request(heapBefore) } }
        let quantizedFrames: Int
        if let writer = single {
            try writer.finish()
            quantizedFrames = writer.quantizedFrames
        } else if let trials, let first = writers.first {
            for (box, output) in zip(writers, trials.outputs) {
                try box.finish()
                try output.put(box.bytes)
            }
            trials.psnr = writers.map { $0.trial?.psnr ?? .infinity }
            trials.record(writers.map(\.trial))
            quantizedFrames = first.quantizedFrames
        } else {
            throw ThrobberError(.software, "GIF ended before the header")
        }
        var summary = stage.summary
        if case .local = stage, quantizedFrames > 0 {
            // A frame's redrawn rectangle outgrew 256 colors after all.
            summary += ", \(quantizedFrames) of \(planned) frames quantized"
        }
        return summary
    }
}
