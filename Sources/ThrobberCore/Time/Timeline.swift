/// How frames are laid out in time: which source frame is shown when. Times
/// are exact; centisecond delays are derived from cumulative times, so every
/// second of animation adds up to exactly 100 cs (man throbber, CONFIG FORMAT: timing).
public struct Timeline: Equatable, Sendable {
    /// One displayed frame: the source frame it shows and when it starts.
    public struct Entry: Equatable, Sendable {
        /// The index of the source frame shown (``FrameSource/frame(at:)``).
        public var source: Int
        /// When it starts, in seconds from the start of the loop.
        public var start: Rational
    }

    /// Every displayed frame in order; a duplicated frame appears once per
    /// showing.
    public private(set) var entries: [Entry]
    /// When the last entry ends (the length of one loop).
    public private(set) var duration: Rational
    /// For a rotated loop: where its first entry started in the loop before
    /// rotation. Centisecond delays are rounded on that loop's clock, so a
    /// rotated GIF has the same delays, rotated (``rotated(toStartAt:)``).
    public internal(set) var phase = Rational(0)

    /// Timing settings shared by `encode` and configs.
    public struct Settings: Equatable, Sendable {
        /// Frames per second; ignored when `delay` is set.
        public var fps: Rational = Rational(25)
        /// A fixed delay per frame in centiseconds.
        public var delay: Int? = nil
        /// Each frame shown this many times in a row.
        public var duplicate: Int = 1
        /// Play forward, then backward without repeating the end frames.
        public var bounce: Bool = false
        /// Give frames of animated inputs `frameDuration` too, instead of
        /// the durations their files give.
        public var retime: Bool = false
        /// Every duration divided by this, exactly: 2 plays twice as fast.
        public var speed: Rational = Rational(1)

        /// Settings with the given values; ``retime`` starts false. Ranges
        /// are checked later, by ``EncodeSettings/validate(for:)``.
        public init(fps: Rational = Rational(25), delay: Int? = nil, duplicate: Int = 1, bounce: Bool = false) {
            self.fps = fps
            self.delay = delay
            self.duplicate = duplicate
            self.bounce = bounce
        }

        /// The length of one shown frame, before ``speed``.
        public var frameDuration: Rational {
            if let delay { return Rational(Int64(delay), 100) }
            return Rational(1) / fps
        }
    }

    /// `sourceCount` frames, each lasting `settings.frameDuration` divided
    /// by `settings.speed`, shown `settings.duplicate` times in a row,
    /// bounced when `settings.bounce`. Traps when `sourceCount` or
    /// `settings.duplicate` is below 1, or the speed is not above 0.
    public init(sourceCount: Int, settings: Settings) {
        precondition(sourceCount > 0 && settings.duplicate >= 1 && settings.speed > Rational(0))
        self.init(
            durations: Array(repeating: settings.frameDuration / settings.speed, count: sourceCount),
            duplicates: Array(repeating: settings.duplicate, count: sourceCount), bounce: settings.bounce)
    }

    /// Source frame i is shown `duplicates[i]` times, each for `durations[i]`;
    /// with `bounce` the sources play forward, then backward without
    /// repeating the end frames.
    public init(durations: [Rational], duplicates: [Int], bounce: Bool) {
        let n = durations.count
        precondition(n > 0 && duplicates.count == n && duplicates.allSatisfy { $0 >= 1 })
        var order = Array(0..<n)
        if bounce && n > 2 { order += (1..<(n - 1)).reversed() }
        var entries: [Entry] = []
        var t = Rational(0)
        for source in order {
            for _ in 0..<duplicates[source] {
                entries.append(Entry(source: source, start: t))
                t = t + durations[source]
            }
        }
        self.entries = entries
        self.duration = t
    }

    /// Frames of `source`: animation frames keep their own durations
    /// unless `settings.retime`, the others last `settings.frameDuration`;
    /// all divided by `settings.speed` (which must be above 0).
    public init(source: FrameSource, settings: Settings) {
        precondition(settings.speed > Rational(0))
        let fallback = settings.frameDuration
        self.init(
            durations: (0..<source.count).map {
                (settings.retime ? fallback : source.duration(at: $0) ?? fallback) / settings.speed
            },
            duplicates: Array(repeating: settings.duplicate, count: source.count), bounce: settings.bounce)
    }

    /// Entries showing `sources[i]` for `durations[i]`, in this order.
    init(durations: [Rational], sources: [Int]) {
        var t = Rational(0)
        entries = zip(durations, sources).map { d, source in
            defer { t = t + d }
            return Entry(source: source, start: t)
        }
        duration = t
    }

    /// One entry showing the source frame shown `t` seconds into the loop
    /// (the last one from its end on), for the whole loop: a still of
    /// that moment.
    public func still(at t: Rational) -> Timeline {
        let i = entries.lastIndex { $0.start <= t } ?? 0
        return Timeline(durations: [duration], sources: entries.isEmpty ? [] : [entries[i].source])
    }

    /// The first `count` entries (all where there are fewer), each shown
    /// as long as here, as a loop of their own: a sample of this one.
    public func prefix(_ count: Int) -> Timeline {
        let n = min(max(0, count), entries.count)
        return Timeline(
            durations: (0..<n).map { start(of: $0 + 1) - start(of: $0) }, sources: entries[..<n].map(\.source))
    }

    /// Every `k`th entry (the first, the (k+1)th, …), each shown until the
    /// next one kept, so the loop lasts as long at 1/k of the frame rate:
    /// what a byte budget may give up with the user's leave. Unchanged
    /// for `k` below 2.
    public func thinned(every k: Int) -> Timeline {
        guard k > 1, !entries.isEmpty else { return self }
        let kept = Array(stride(from: 0, to: entries.count, by: k))
        var thin = Timeline(
            durations: kept.map { start(of: min($0 + k, entries.count)) - start(of: $0) },
            sources: kept.map { entries[$0].source })
        thin.phase = phase
        return thin
    }

    /// `runs` stretches of `length` consecutive entries spread evenly over
    /// the loop, first and last stretch at its ends, each entry shown as
    /// long as here, as a loop of their own: a sample of the whole loop,
    /// where ``prefix(_:)`` samples its start. The whole loop where it has
    /// no more than `runs` × `length` entries.
    public func sample(runs: Int, length: Int) -> Timeline {
        let n = entries.count
        guard runs > 1, length > 0, n > runs * length else { return prefix(n) }
        var picked: [Int] = []
        for r in 0..<runs {
            let first = (n - length) * r / (runs - 1)
            picked += first..<first + length
        }
        return Timeline(
            durations: picked.map { start(of: $0 + 1) - start(of: $0) }, sources: picked.map { entries[$0].source })
    }

    /// Runs of consecutive entries showing the same source frame: each
    /// source decoded once per run.
    package var runs: [(source: Int, entry: Int)] {
        var runs: [(source: Int, entry: Int)] = []
        for (i, e) in entries.enumerated() where runs.last?.source != e.source { runs.append((e.source, i)) }
        return runs
    }

    /// The shortest time one entry is shown (0 for no entries).
    public var shortestEntry: Rational {
        var shortest: Rational? = nil
        for i in entries.indices {
            let d = start(of: i + 1) - start(of: i)
            if shortest == nil || d < shortest! { shortest = d }
        }
        return shortest ?? Rational(0)
    }

    /// Start of entry `index` in seconds, exactly (the end of the loop for
    /// `entries.count`).
    public func start(of index: Int) -> Rational {
        index < entries.count ? entries[index].start : duration
    }

    /// Start of entry `index` (or the end of the loop for `entries.count`) in
    /// whole centiseconds, rounded half up (on the clock of the loop before
    /// rotation, see ``phase``).
    public func startCentiseconds(_ index: Int) -> Int64 { start(index, ticksPerSecond: 100) }

    /// When entry `index` starts in whole ticks of 1/`ticksPerSecond` s
    /// (100 for GIF's centiseconds, 1000 for WebP's milliseconds), rounded
    /// like ``startCentiseconds(_:)`` so the delays add up exactly.
    public func start(_ index: Int, ticksPerSecond: Int64) -> Int64 {
        let unit = Rational(ticksPerSecond)
        return ((start(of: index) + phase) * unit).roundedHalfUp - (phase * unit).roundedHalfUp
    }

    /// Delays in centiseconds of each entry; they add up to the rounded length.
    public var delaysCentiseconds: [Int64] {
        (0..<entries.count).map { startCentiseconds($0 + 1) - startCentiseconds($0) }
    }
}
