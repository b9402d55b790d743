import ThrobberCodecs
import ThrobberCore

/// The order of a palette that frames share (a global table, or the shared
/// table of frames that have local ones). A frame that uses only the first
/// 2^k entries has k-bit LZW codes (`GIFWriter` narrows them), and a frame
/// with a local table of its own can use the shared one instead when that
/// holds all its colors. Which colors go first is a covering problem with
/// no fast exact answer, so several orders are made and the one a model of
/// giflib's output scores smallest is kept:
/// - greedy: transparent first, then again and again the colors of the
///   frame that needs the fewest new ones (ties: more colors, then
///   earlier), until a frame would pass the limit; also started from
///   chosen frames (the first frame taken decides much of the rest);
/// - peeling: from all colors, the one that the fewest held frames (by
///   their size) need is dropped, again and again, so the last ones left,
///   which go first, are those many frames share;
/// - popularity: colors by how much of the animation uses them.
///
/// Entry 0 is the transparent color (0) in every order, but for the opaque
/// orders a shared table may take (`best(limit:opaque:)`): `limit` colors
/// and no transparent entry, so that frames of `limit` colors can use it
/// (a frame then takes as transparent an entry it does not need, or is
/// drawn opaque).
struct PaletteOrder {
    /// Each frame's colors (of the rectangle it changes); 0 is transparent.
    let frames: [[UInt32]]
    /// Each frame's LZW codes, estimated (a quarter of its pixels: typical
    /// of the loaders and clips this writes; only the ranking uses it).
    let codes: [Int]
    /// The colors other than transparent, numbered in order of first
    /// appearance; each frame's as those numbers, and the frames of each.
    /// Built once: every order below works on the numbers.
    private let colors: [UInt32]
    private let frameIDs: [[Int]]
    private let framesOf: [[Int]]

    /// Whether each frame is disposed of (the next one clears it): such a
    /// frame cannot use a table without a transparent entry (see
    /// `GIFFrameWriter.sharedUse`), and the orders count it so.
    let disposed: [Bool]

    init(frames: [[UInt32]], areas: [Int], disposed: [Bool]? = nil) {
        precondition(frames.count == areas.count && (disposed?.count ?? frames.count) == frames.count)
        self.frames = frames
        self.disposed = disposed ?? [Bool](repeating: false, count: frames.count)
        codes = areas.map { max(1, $0 / 4) }
        var id: [UInt32: Int] = [:]
        var colors: [UInt32] = []
        var framesOf: [[Int]] = []
        frameIDs = frames.enumerated().map { f, own in
            own.compactMap { c -> Int? in
                guard c != 0 else { return nil }
                let i = id[c] ?? colors.count
                if i == colors.count {
                    id[c] = i
                    colors.append(c)
                    framesOf.append([])
                }
                framesOf[i].append(f)
                return i
            }
        }
        self.colors = colors
        self.framesOf = framesOf
    }

    /// Frames whose first-chosen colors start a greedy order: all of them
    /// up to this many, else this many evenly spaced.
    static let seeds = 64

    /// The best order found, at most `limit` colors (transparent first),
    /// with the bytes of the local tables of the frames it holds whole.
    /// With `opaque`, orders of `limit` colors without a transparent entry
    /// compete too (a shared table: frames that use it need an entry of
    /// their own for transparency, or none), and the result may be one.
    func best(limit: Int, opaque: Bool = false) -> (colors: [UInt32], savedBytes: Int) {
        var best = (order: [Int](), savedBytes: 0, transparent: true)
        var bestBits = Int.max
        for transparent in opaque ? [true, false] : [true] {
            // The orders count transparent in their limit: without it, one
            // more color fits.
            let room = transparent ? limit : limit + 1
            for order in candidates(limit: room) {
                let (bits, saved) = cost(order, transparent: transparent)
                if bits < bestBits {
                    bestBits = bits
                    best = (order, saved, transparent)
                }
            }
        }
        let chosen = best.order.map { colors[$0] }
        return (best.transparent ? [0] + chosen : chosen, best.savedBytes)
    }

    /// Every order tried, at most `limit` colors counting transparent.
    private func candidates(limit: Int) -> [[Int]] {
        var candidates = [greedy(seed: nil, limit: limit), peeled(limit: limit), popular(limit: limit)]
        let step = max(1, (frames.count + Self.seeds - 1) / Self.seeds)
        for seed in stride(from: 0, to: frames.count, by: step) {
            candidates.append(greedy(seed: seed, limit: limit))
        }
        return candidates
    }

    /// Estimated bits of every frame's table and image data with
    /// `order` (color numbers), after transparent when `transparent`, as
    /// the shared table (its own bytes included), and the local-table bytes
    /// of the frames it holds whole. Without a transparent entry, a frame
    /// is held where it is not disposed of, and it needs no transparent
    /// pixel of its own or leaves an entry unused for one.
    func cost(_ order: [Int], transparent: Bool = true) -> (bits: Int, savedBytes: Int) {
        let first = transparent ? 1 : 0
        // Each color's entry, −1 when left out.
        var position = [Int](repeating: -1, count: colors.count)
        for (i, c) in order.enumerated() { position[c] = i + first }
        var bits = 8 * GIFWriter.colorTableBytes(order.count + first)
        var saved = 0
        for (f, ids) in frameIDs.enumerated() {
            var highest = 0
            var held = transparent || !disposed[f] && (ids.count < order.count || !frames[f].contains(0))
            for c in ids where held {
                guard position[c] >= 0 else {
                    held = false
                    break
                }
                highest = max(highest, position[c])
            }
            let own = GIFWriter.colorTableBytes(frames[f].count + 1)
            if held {
                saved += own
                bits += Self.lzwBits(codes: codes[f], entries: highest + 1)
            } else {
                bits += 8 * own + Self.lzwBits(codes: codes[f], entries: frames[f].count + 1)
            }
        }
        return (bits, saved)
    }

    /// Bits of `codes` LZW codes for a table of `entries`, as giflib widens
    /// them (from the code size + 1 up to 12, a clear code when full).
    static func lzwBits(codes: Int, entries: Int) -> Int {
        var codeSize = 2
        while 1 << codeSize < entries { codeSize += 1 }
        var width = codeSize + 1
        var next = (1 << codeSize) + 2
        var remaining = codes
        var bits = 0
        while remaining > 0 {
            let take = min(remaining, max(1, (1 << width) - next))
            bits += take * width
            remaining -= take
            next += take
            if next >= 1 << width {
                if width < 12 {
                    width += 1
                } else {
                    bits += 12
                    width = codeSize + 1
                    next = (1 << codeSize) + 2
                }
            }
        }
        return bits
    }

    /// The greedy order (color numbers, after transparent), its first frame
    /// `seed` (nil: the rule's own pick).
    func greedy(seed: Int?, limit: Int) -> [Int] {
        var missing = frameIDs.map(\.count)
        var order: [Int] = []
        var held = [Bool](repeating: false, count: colors.count)
        var done = [Bool](repeating: false, count: frames.count)
        var forced = seed
        // Each pass takes every frame already held whole and picks the next
        // one to add: at most `limit` passes, each one look at every frame.
        while true {
            var pick = -1
            for f in frames.indices where !done[f] {
                if missing[f] == 0 {
                    done[f] = true
                } else if pick < 0 || missing[f] < missing[pick]
                    || (missing[f] == missing[pick] && frames[f].count > frames[pick].count)
                {
                    pick = f
                }
            }
            if let f = forced, !done[f] { pick = f }
            forced = nil
            guard pick >= 0, 1 + order.count + missing[pick] <= limit else { break }
            for c in frameIDs[pick] where !held[c] {
                held[c] = true
                order.append(c)
                for g in framesOf[c] { missing[g] -= 1 }
            }
        }
        return order
    }

    /// The peeling order (color numbers, after transparent), cut to
    /// `limit`.
    func peeled(limit: Int) -> [Int] {
        // What dropping a color costs: the codes of the held frames that
        // need it. Ties: the less used color goes first, then the later.
        var need = [Int](repeating: 0, count: colors.count)
        for (f, ids) in frameIDs.enumerated() {
            for i in ids { need[i] += codes[f] }
        }
        let use = need
        var heap = MinHeap()
        for i in colors.indices { heap.push((need[i], use[i], -i)) }
        var held = [Bool](repeating: true, count: frames.count)
        var dropped = [Bool](repeating: false, count: colors.count)
        var removal: [Int] = []
        while let (cost, _, negative) = heap.pop() {
            let i = -negative
            guard !dropped[i], cost == need[i] else { continue }  // a stale entry
            dropped[i] = true
            removal.append(i)
            for f in framesOf[i] where held[f] {
                held[f] = false
                for j in frameIDs[f] where !dropped[j] {
                    need[j] -= codes[f]
                    heap.push((need[j], use[j], -j))
                }
            }
        }
        return Array(removal.reversed().prefix(limit - 1))
    }

    /// Color numbers by the codes of the frames that use them (ties: the
    /// earlier first), cut to `limit`.
    func popular(limit: Int) -> [Int] {
        var use = [Int](repeating: 0, count: colors.count)
        for (f, ids) in frameIDs.enumerated() {
            for i in ids { use[i] += codes[f] }
        }
        let ranked = colors.indices.sorted { (use[$0], -$0) > (use[$1], -$1) }
        return Array(ranked.prefix(limit - 1))
    }
}

/// A binary min-heap of (cost, tie, tie) triples, for peeling.
private struct MinHeap {
    private var items: [(Int, Int, Int)] = []

    mutating func push(_ item: (Int, Int, Int)) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i] < items[parent] else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (Int, Int, Int)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < items.count && items[l] < items[m] { m = l }
                if r < items.count && items[r] < items[m] { m = r }
                guard m != i else { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}
