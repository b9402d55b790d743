/// Decodes frames in parallel batches and prepares them (alpha policy
/// applied; without one, invisible pixels are normalised to 0,0,0,0),
/// checking that every frame has the first one's size.
struct FrameLoader {
    let source: FrameSource
    let alpha: AlphaPolicy?
    let jobs: Int
    private var size: (width: Int, height: Int, name: String)?
    private var cache: [Int: RGBAImage] = [:]

    init(source: FrameSource, alpha: AlphaPolicy?, jobs: Int) {
        self.source = source
        self.alpha = alpha
        self.jobs = jobs
    }

    /// Prepared frames for `indices`, in order.
    mutating func load(_ indices: [Int]) throws -> [RGBAImage] {
        let missing = indices.filter { cache[$0] == nil }
        let decoded = try parallelMap(missing.count, jobs: jobs) { i -> RGBAImage in
            var image = try source.frame(at: missing[i])
            if let alpha { alpha.apply(to: &image) } else { image.clearInvisibleColor() }
            return image
        }
        var fresh: [Int: RGBAImage] = [:]
        for (index, image) in zip(missing, decoded) {
            try checkSize(image, index)
            fresh[index] = image
        }
        return indices.map { cache[$0] ?? fresh[$0]! }
    }

    private mutating func checkSize(_ image: RGBAImage, _ index: Int) throws {
        guard let size else {
            guard image.width <= 65535 && image.height <= 65535 else {
                throw ThrobberError(.data, "\(source.name(at: index)): \(image.width)x\(image.height) is larger than an animation frame can be (65535 pixels a side)")
            }
            self.size = (image.width, image.height, source.name(at: index))
            return
        }
        guard image.width == size.width && image.height == size.height else {
            throw ThrobberError(.data, "\(source.name(at: index)): frame is \(image.width)x\(image.height), but \(size.name) is \(size.width)x\(size.height); all frames must have the same size")
        }
    }

    /// Calls `body` with every frame in order (cached while they fit in
    /// `cacheBudget` bytes, for the pass that follows). Stops when `body`
    /// returns false.
    mutating func scan(cacheBudget: Int, _ body: (Int, RGBAImage) throws -> Bool) throws {
        var cached = 0
        let batch = max(4, jobs * 2)
        var start = 0
        while start < source.count {
            let indices = Array(start..<min(start + batch, source.count))
            for (index, image) in zip(indices, try load(indices)) {
                if cached + image.pixels.count <= cacheBudget {
                    cache[index] = image
                    cached += image.pixels.count
                }
                if try !body(index, image) { return }
            }
            start += batch
        }
    }

    /// Walks `timeline` in ordered batches, merging identical neighbours:
    /// `frame` gets each distinct frame with the entry it starts at, the
    /// next distinct frame (nil after the last) and the entry where that
    /// starts (the end of the loop after the last); `batchDone` follows
    /// every batch.
    mutating func walk(_ timeline: Timeline,
                       frame: (_ image: RGBAImage, _ entry: Int, _ next: RGBAImage?, _ endEntry: Int) throws -> Void,
                       batchDone: () throws -> Void) throws {
        let runs = timeline.runs
        let batch = max(4, jobs * 2)
        var pending: (image: RGBAImage, entry: Int)? = nil
        var start = 0
        while start < runs.count {
            let slice = Array(runs[start..<min(start + batch, runs.count)])
            for (run, image) in zip(slice, try load(slice.map(\.source))) {
                if let p = pending {
                    if p.image == image { continue }   // identical neighbour: its time is added
                    try frame(p.image, p.entry, image, run.entry)
                }
                pending = (image, run.entry)
            }
            start += batch
            if start >= runs.count, let p = pending {
                try frame(p.image, p.entry, nil, timeline.entries.count)
            }
            try batchDone()
        }
    }

    /// Counts colors over all frames (stopping early once some frame alone
    /// has too many) and returns the lossless palette choice, if any. Frames
    /// are kept for `load` while they fit in `cacheBudget` bytes.
    mutating func census(cacheBudget: Int, maxColors: Int, fallback: Quantizer) throws -> PaletteChoice? {
        var census = ColorCensus()
        var previous: RGBAImage? = nil
        try scan(cacheBudget: cacheBudget) { _, image in
            defer { previous = image }
            return census.add(image, after: previous)
        }
        return census.lossless(maxColors: maxColors, fallback: fallback)
    }
}
