import ThrobberCodecs
import ThrobberCore

/// The timeline's frames in ordered batches, identical neighbours merged
/// (the time of a merged frame is added to the one before it). Frames are
/// decoded in parallel, one batch at a time, so memory stays flat.
struct DistinctFrames {
    private let timeline: Timeline
    private let runs: [(source: Int, entry: Int)]
    private let batchSize: Int
    private var start = 0
    /// The last frame loaded, waiting to learn which frame follows it.
    private var pending: (image: RGBAImage, entry: Int)?
    private var first: RGBAImage?

    init(_ timeline: Timeline, batch: Int) {
        self.timeline = timeline
        runs = timeline.runs
        batchSize = max(1, batch)
    }

    /// The next batch (possibly empty, when a batch only repeats its
    /// predecessor), or nil when the timeline is done.
    mutating func next(from loader: inout FrameLoader) throws -> [DistinctFrame]? {
        guard start < runs.count else { return nil }
        let slice = Array(runs[start..<min(start + batchSize, runs.count)])
        start += slice.count
        var out: [(image: RGBAImage, entry: Int, endEntry: Int, next: RGBAImage?)] = []
        for (run, image) in zip(slice, try loader.load(slice.map(\.source))) {
            if first == nil { first = image }
            if let p = pending {
                if p.image == image { continue }
                out.append((p.image, p.entry, run.entry, image))
            }
            pending = (image, run.entry)
        }
        if start >= runs.count, let p = pending {
            out.append((p.image, p.entry, timeline.entries.count, nil))
        }
        guard let first else { return [] }
        return out.map {
            DistinctFrame(image: $0.image, entry: $0.entry, endEntry: $0.endEntry, next: $0.next ?? first)
        }
    }
}
