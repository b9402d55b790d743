import ThrobberCodecs
import ThrobberCore

/// Decodes frames in parallel batches and prepares them (alpha policy
/// applied; without one, invisible pixels are normalised to 0,0,0,0),
/// checking that every frame has the first one's size. Frames seen by
/// `scan` are kept, while they fit in `cacheBudget` bytes, for the `load`
/// calls that follow.
struct FrameLoader {
    let source: FrameSource
    let alpha: AlphaPolicy?
    let jobs: Int
    let cacheBudget: Int
    /// Frames decoded at a time by `scan`.
    let batch: Int
    private var size: (width: Int, height: Int, name: String)?
    private var cache: [Int: RGBAImage] = [:]
    private var cached = 0

    init(source: FrameSource, alpha: AlphaPolicy?, jobs: Int, batch: Int, cacheBudget: Int) {
        self.source = source
        self.batch = max(1, batch)
        self.alpha = alpha
        self.jobs = jobs
        self.cacheBudget = cacheBudget
    }

    /// Prepared frames for `indices`, in order.
    mutating func load(_ indices: [Int]) throws -> [RGBAImage] {
        let missing = indices.filter { cache[$0] == nil }
        let decoded = try parallelMap(missing.count, jobs: jobs) { [source, alpha] i -> RGBAImage in
            var image = try source.frame(at: missing[i])
            if let alpha { alpha.apply(to: &image) } else { image.clearInvisibleColor() }
            return image
        }
        var fresh: [Int: RGBAImage] = [:]
        for (index, image) in zip(missing, decoded) {
            try checkSize(image, index)
            fresh[index] = image
        }
        return try indices.map { index in
            guard let image = cache[index] ?? fresh[index] else {
                throw ThrobberError(.software, "frame \(index + 1) was not loaded")
            }
            return image
        }
    }

    private mutating func checkSize(_ image: RGBAImage, _ index: Int) throws {
        guard let size else {
            guard image.width <= 65535 && image.height <= 65535 else {
                throw ThrobberError(
                    .data,
                    "\(source.name(at: index)): \(image.width)x\(image.height) is larger than an animation frame can be (65535 pixels a side)"
                )
            }
            self.size = (image.width, image.height, source.name(at: index))
            return
        }
        guard image.width == size.width && image.height == size.height else {
            throw ThrobberError(
                .data,
                "\(source.name(at: index)): frame is \(image.width)x\(image.height), but \(size.name) is \(size.width)x\(size.height); all frames must have the same size"
            )
        }
    }

    /// Calls `body` with every source frame in order, keeping them for
    /// `load` while they fit the cache budget. Stops when `body` returns false.
    mutating func scan(_ body: (Int, RGBAImage) throws -> Bool) throws {
        try scan(Array(0..<source.count), body)
    }

    /// `scan` over the source frames `indices` only, in that order.
    mutating func scan(_ indices: [Int], _ body: (Int, RGBAImage) throws -> Bool) throws {
        var start = 0
        while start < indices.count {
            let part = Array(indices[start..<min(start + batch, indices.count)])
            for (index, image) in zip(part, try load(part)) {
                if cached + image.pixels.count <= cacheBudget {
                    cache[index] = image
                    cached += image.pixels.count
                }
                if try !body(index, image) { return }
            }
            start += batch
        }
    }
}
