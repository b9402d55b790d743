import Synchronization
import ThrobberCodecs
import ThrobberCore

/// libwebp coders racing on the same frames, in parallel; the smallest
/// file wins (`finish`). Which settings race is `candidates`; two of them
/// are decided on the first frames: the exhaustive setting by a sample
/// (`exhaustivePays`), coded at the end on the frames held until then, and
/// method 4 at effort 100 (and, where it stops, method 5 beside method 3)
/// by a prefix each racer codes as a short animation of its own
/// (`racePrefix`), method 3 coding the prefix's frames beside the probes.
struct WebPRace {
    /// One libwebp coder of the race. Its writer is behind a lock: a batch
    /// is coded by one thread at a time, and each racer takes one thread.
    final class Racer: Sendable {
        /// How the writer codes.
        let settings: WebPAnimWriter.Settings
        private let writer: Mutex<WebPAnimWriter>

        /// A racer with a new writer for `width`×`height` frames.
        init(width: Int, height: Int, loop: Int, settings: WebPAnimWriter.Settings, jobs: Int) throws {
            self.settings = settings
            writer = Mutex(
                try WebPAnimWriter(
                    width: width, height: height, loop: loop, settings: settings,
                    sideThread: WebPRace.sideThread(settings, jobs: jobs)))
        }

        /// Codes `frames`, in order.
        func add(_ frames: [WebPEncoder.Frame]) throws {
            try writer.withLock { writer in
                for frame in frames { try writer.add(frame.image, start: frame.start) }
            }
        }

        /// Assembles the file; the last frame ends at `end` ms.
        func finish(end: Int) throws -> [UInt8] {
            try writer.withLock { try $0.finish(end: end) }
        }
    }

    /// Why frames are kept in `held` (`releaseHeld`).
    enum Hold {
        /// Until `finish`, while the exhaustive sample decides whether
        /// that setting races too, for the exhaustive coder (`codeHeld`);
        /// the other racers code them as they come.
        case exhaustiveSample
        /// Until `prefixFrames` frames and one more have come, which each
        /// racer's settings code as a short animation to decide which two
        /// racers go on (`racePrefix`); the racers wait, but for the one
        /// that `codesAhead`.
        case prefix
    }

    private let width: Int
    private let height: Int
    private let loop: Int
    private let jobs: Int
    /// Timeline entries of the whole animation.
    private let frames: Int
    private var racers: [Racer]
    /// Why frames are kept in `held`; nil once every racer codes frames
    /// as they come.
    private var holding: Hold?
    private var held: [WebPEncoder.Frame] = []
    /// The exhaustive sample, begun beside the racers once the first
    /// frame and the next that differs have come (`startSample`; with one
    /// job, at `finish`).
    private var sample: Pending<Bool>?
    /// The racers coding the last batch (`code`), nil once it is coded.
    private var coding: Pending<Void>?

    /// The race of `candidates` for `settings` on `frames` timeline entries
    /// of `first`'s size, the exhaustive setting left to its sample.
    init(_ settings: EncodeSettings, frames: Int, first: RGBAImage) throws {
        let (width, height, loop, jobs) = (first.width, first.height, settings.loop, settings.jobs)
        self.width = width
        self.height = height
        self.loop = loop
        self.jobs = jobs
        self.frames = frames
        let size = FrameSize(width: first.width, height: first.height)
        var list = Self.candidates(settings, frames: frames, size: size)
        if Self.mayRaceExhaustive(settings, frames: frames, size: size) {
            // Decided at the end, beside the other racers (`codeHeld`).
            list.removeAll { $0 == WebPTuning.exhaustive }
            holding = .exhaustiveSample
        } else if list.contains(WebPTuning.fullEffort) {
            holding = .prefix
        }
        racers = try list.map {
            try Racer(width: width, height: height, loop: loop, settings: $0, jobs: jobs)
        }
    }

    /// Codes `batch` (frames as shown) with each racer on a thread of its
    /// own, or holds it as `holding` says.
    mutating func add(_ batch: [WebPEncoder.Frame]) throws {
        if let holding {
            held += batch
            if holding == .prefix {
                if let ahead = codesAhead { try code([(ahead, batch)], inBackground: true) }
                if held.count > WebPTuning.prefixFrames { try releaseHeld() }
                return
            }
            startSample()
        }
        try code(racers.map { ($0, batch) }, inBackground: false)
    }

    /// The racer that codes the frames held for the prefix as they come,
    /// beside the probes (`racePrefix`): method 3, the fastest, where
    /// `jobs` allows a second thread. Where the prefix keeps it (flat
    /// frames, where it is often the only racer left) the frames are coded
    /// by then; where it stops it, a few frames at its speed are lost.
    private var codesAhead: Racer? {
        guard holding == .prefix, jobs > 1 else { return nil }
        return racers.first { $0.settings == WebPTuning.method3 }
    }

    /// Codes each racer's frames of `work`, each racer on a thread of its
    /// own, once the frames given before are coded. `inBackground`, where
    /// `jobs` allows: the racers go on while the caller returns (`settle`
    /// waits for them), for frames the memory plan counts as held by the
    /// race anyway (the prefix's, `heldFrames`): the racer that codes them
    /// ahead runs beside the probes, and the racers the prefix keeps beside
    /// the skeleton loading the next batch.
    private mutating func code(_ work: [(racer: Racer, frames: [WebPEncoder.Frame])], inBackground: Bool) throws {
        try settle()
        let jobs = self.jobs
        let todo = work.filter { !$0.frames.isEmpty }
        let run: @Sendable () throws -> Void = {
            _ = try parallelMap(todo.count, jobs: jobs) { i in try todo[i].racer.add(todo[i].frames) }
        }
        if inBackground && jobs > 1 { coding = Pending(run) } else { try run() }
    }

    /// Waits until the racers have coded every batch given to them.
    private mutating func settle() throws {
        let work = coding
        coding = nil
        try work?.wait()
    }

    /// Starts the exhaustive sample on a thread of its own once the held
    /// frames hold the first frame and the next one that differs, where
    /// `jobs` allows a second thread: the racers code the frames meanwhile,
    /// and on two cores the sample costs no time where they take longer.
    private mutating func startSample() {
        guard sample == nil, jobs > 1, let first = held.first?.image,
            let next = held.first(where: { $0.image != first })?.image
        else { return }
        let frames = self.frames
        sample = Pending { try Self.exhaustivePays(first, next: next, frames: frames) }
    }

    /// At the end, where the exhaustive setting may race: the sample's
    /// answer (taken here with one job, or where every frame is the same),
    /// and where it pays, the exhaustive coder codes the held frames, on
    /// two threads where `jobs` allows (`sideThread`).
    private mutating func codeHeld(_ frames: [WebPEncoder.Frame], first: RGBAImage) throws {
        let pays =
            try sample?.wait()
            ?? Self.exhaustivePays(first, next: frames.first { $0.image != first }?.image, frames: self.frames)
        sample = nil
        guard pays else { return }
        let racer = try Racer(width: width, height: height, loop: loop, settings: WebPTuning.exhaustive, jobs: jobs)
        try racer.add(frames)
        racers.append(racer)
    }

    /// Codes the first `prefixFrames` frames held with each racer's
    /// settings as an animation of their own, in parallel, and stops the
    /// racers `prefixLosers` names. The racers left get every held frame
    /// but `ahead`, which has them already (`codesAhead`). With no frame
    /// after the prefix (identical neighbors merged leave fewer frames than
    /// the timeline has), every racer goes on.
    private mutating func racePrefix(_ frames: [WebPEncoder.Frame], ahead: Racer?) throws {
        let racers = self.racers
        if frames.count > WebPTuning.prefixFrames,
            let full = racers.firstIndex(where: { $0.settings == WebPTuning.fullEffort })
        {
            let sample = Array(frames.prefix(WebPTuning.prefixFrames))
            let end = frames[WebPTuning.prefixFrames].start
            let (width, height, loop) = (self.width, self.height, self.loop)
            let sizes = try parallelMap(racers.count, jobs: jobs) { i in
                let probe = try WebPAnimWriter(width: width, height: height, loop: loop, settings: racers[i].settings)
                for f in sample { try probe.add(f.image, start: f.start) }
                return try probe.finish(end: end).count
            }
            let dropped = Self.prefixLosers(sizes, settings: racers.map(\.settings), full: full)
            self.racers = racers.indices.filter { !dropped.contains($0) }.map { racers[$0] }
        }
        try code(self.racers.map { ($0, $0 === ahead ? [] : frames) }, inBackground: true)
    }

    /// Which racers the prefix stops, given each one's prefix `sizes` and
    /// `settings` (`full`: the index of `fullEffort`): `full` unless its
    /// prefix is at least `prefixGainPercent` smaller than every other's,
    /// else the larger of the others (the later of equal ones). Where
    /// `full` stops and method 3's prefix is at least
    /// `method3AloneGainPercent` smaller than method 5's, method 5 stops
    /// too: method 3 then codes the whole file no larger, in a fraction of
    /// method 5's time ("WebP: time against img2webp").
    static func prefixLosers(_ sizes: [Int], settings: [WebPAnimWriter.Settings], full: Int) -> [Int] {
        let others = sizes.indices.filter { $0 != full }
        let keep = 100 - WebPTuning.prefixGainPercent
        if others.allSatisfy({ sizes[full] * 100 <= sizes[$0] * keep }) {
            return [others.max { (sizes[$0], $0) < (sizes[$1], $1) } ?? full]
        }
        guard let m3 = settings.firstIndex(of: WebPTuning.method3),
            let m5 = settings.firstIndex(of: WebPTuning.method5),
            sizes[m3] * 100 <= sizes[m5] * (100 - WebPTuning.method3AloneGainPercent)
        else { return [full] }
        return [full, m5]
    }

    /// Hands the held frames on as `holding` says: to the exhaustive coder
    /// where the sample says it pays, or to the racers the prefix keeps;
    /// from then on every racer codes frames as they come.
    private mutating func releaseHeld() throws {
        guard let holding else { return }
        let ahead = codesAhead
        self.holding = nil
        let frames = held
        held = []
        guard let first = frames.first?.image else { return }
        switch holding {
        case .exhaustiveSample: try codeHeld(frames, first: first)
        case .prefix: try racePrefix(frames, ahead: ahead)
        }
    }

    /// Assembles every racer's file, the last frame ending at `end` ms, and
    /// returns the smallest (the first of equal ones) with its settings.
    mutating func finish(end: Int) throws -> (file: [UInt8], settings: WebPAnimWriter.Settings) {
        try releaseHeld()
        try settle()
        let racers = self.racers
        self.racers = []
        let files = try parallelMap(racers.count, jobs: jobs) { i in try racers[i].finish(end: end) }
        guard let best = files.indices.min(by: { files[$0].count < files[$1].count }) else {
            throw ThrobberError(.software, "WebP ended before the first frame")
        }
        return (files[best], racers[best].settings)
    }
}
