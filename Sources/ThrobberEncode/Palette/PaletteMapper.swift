import ThrobberCodecs
import ThrobberCore

/// Maps images to one fixed palette with Floyd–Steinberg error diffusion:
/// how frames meet the palette of `--palette shared --compression fast`
/// (with `best`, libimagequant remaps them, weighing its dither by a map
/// of edges and noise: 0.6–1.4 dB more, in more time; docs/tuning.md,
/// "GIF: `--compression fast`").
///
/// The nearest entry of a color is found among a short list of candidates
/// for its cell of a 32×32×32 grid over RGB: every entry that could be the
/// nearest of some color in the cell (its distance to the cell's box is at
/// most the smallest distance within which some entry reaches the whole
/// box). The lists are made once per palette and read by every thread, so
/// the answer is the exhaustive search's, lowest index on ties, whatever
/// thread asks.
final class PaletteMapper: Sendable {
    /// The palette, packed RGBA (alpha under 50 %: the transparent entry).
    let colors: [UInt32]
    /// The entry for pixels under 50 % alpha, when there is one.
    let transparent: Int?
    /// Cell `c`'s candidates are `candidates[start[c]..<start[c + 1]]`, in
    /// index order.
    private let start: [Int32]
    private let candidates: [UInt8]
    /// The entries' channels, red, green, blue, in index order.
    private let channels: [Int32]

    /// Cells per channel: 8 levels each. Finer cells shorten the lists but
    /// cost more to make (32768 cells × 256 entries: about 10 ms on two
    /// threads).
    private static let cellBits = 5
    private static let cellShift = 8 - cellBits

    /// A mapper to `colors` (packed RGBA, at most 256). Entries under 50 %
    /// alpha are never chosen for an opaque pixel; the first of them takes
    /// the clear pixels.
    init(colors: [UInt32], jobs: Int) {
        precondition(colors.count <= 256)
        self.colors = colors
        transparent = colors.firstIndex { $0 >> 24 < 128 }
        var opaque = colors.indices.filter { colors[$0] >> 24 >= 128 }
        if opaque.isEmpty { opaque = Array(colors.indices) }
        let channels = colors.flatMap { c in [Int32(c & 0xFF), Int32(c >> 8 & 0xFF), Int32(c >> 16 & 0xFF)] }
        self.channels = channels
        let side = 1 << Self.cellBits
        // One job a red slice of the grid.
        let slices = parallelMap(side, jobs: jobs) { [opaque] r in
            Self.cells(red: r, opaque: opaque, channels: channels)
        }
        var start: [Int32] = [0]
        var candidates: [UInt8] = []
        start.reserveCapacity(side * side * side + 1)
        for (lists, counts) in slices {
            var at = 0
            for n in counts {
                candidates.append(contentsOf: lists[at..<at + n])
                at += n
                start.append(Int32(candidates.count))
            }
        }
        self.start = start
        self.candidates = candidates
    }

    /// The candidate lists of the cells with red cell `red`, in green-major,
    /// then blue order: all lists back to back, and each list's length.
    private static func cells(red: Int, opaque: [Int], channels: [Int32]) -> ([UInt8], [Int]) {
        let side = 1 << cellBits
        let span = Int32(1 << cellShift) - 1
        let n = opaque.count
        // Squared distance from each entry's channel to each cell interval
        // of that channel (channel-major, then cell, then entry, so the
        // sums below run over contiguous entries): to the interval's
        // nearest point, and to its farthest.
        var near = [Int32](repeating: 0, count: 3 * side * n)
        var far = near
        for c in 0..<3 {
            for cell in 0..<side {
                let lo = Int32(cell << cellShift)
                let hi = lo + span
                for (e, k) in opaque.enumerated() {
                    let v = channels[3 * k + c]
                    let inside: Int32 = v < lo ? lo - v : v > hi ? v - hi : 0
                    let out = max(abs(v - lo), abs(v - hi))
                    near[(c * side + cell) * n + e] = inside * inside
                    far[(c * side + cell) * n + e] = out * out
                }
            }
        }
        var lists: [UInt8] = []
        var counts: [Int] = []
        counts.reserveCapacity(side * side)
        var reach = [Int32](repeating: 0, count: n)
        var reachFar = [Int32](repeating: 0, count: n)
        near.withUnsafeBufferPointer { near in
            far.withUnsafeBufferPointer { far in
                reach.withUnsafeMutableBufferPointer { reach in
                    reachFar.withUnsafeMutableBufferPointer { reachFar in
                        let nr = near.baseAddress! + red * n
                        let fr = far.baseAddress! + red * n
                        for g in 0..<side {
                            let ng = near.baseAddress! + (side + g) * n
                            let fg = far.baseAddress! + (side + g) * n
                            for b in 0..<side {
                                let nb = near.baseAddress! + (2 * side + b) * n
                                let fb = far.baseAddress! + (2 * side + b) * n
                                for e in 0..<n {
                                    reach[e] = nr[e] &+ ng[e] &+ nb[e]
                                    reachFar[e] = fr[e] &+ fg[e] &+ fb[e]
                                }
                                let bound = reachFar.min() ?? 0
                                let before = lists.count
                                for e in 0..<n where reach[e] <= bound { lists.append(UInt8(opaque[e])) }
                                counts.append(lists.count - before)
                            }
                        }
                    }
                }
            }
        }
        return (lists, counts)
    }

    /// `image` as indices into ``colors``: pixels under 50 % alpha take the
    /// transparent entry (when there is one); the others the nearest opaque
    /// entry of their color plus `dither` (0–1) of the error diffused from
    /// the pixels before them, Floyd–Steinberg, row by row in alternating
    /// directions. Clear pixels pass no error on.
    func map(_ image: RGBAImage, dither: Double) -> [UInt8] {
        let w = image.width
        var out = [UInt8](repeating: 0, count: w * image.height)
        guard w > 0, image.height > 0 else { return out }
        // Errors in 1/16 levels, a row with a spare cell at each end: this
        // row's and the next's, three channels each.
        var errors = [Int32](repeating: 0, count: 2 * 3 * (w + 2))
        let strength = Int32((max(0, min(1, dither)) * 256).rounded())
        image.withPackedPixels { px in
            start.withUnsafeBufferPointer { start in
                candidates.withUnsafeBufferPointer { candidates in
                    channels.withUnsafeBufferPointer { channels in
                        errors.withUnsafeMutableBufferPointer { e in
                            out.withUnsafeMutableBufferPointer { out in
                                let memoKeys = UnsafeMutableBufferPointer<UInt32>.allocate(
                                    capacity: 1 << Lookup.memoBits)
                                let memoValues = UnsafeMutableBufferPointer<UInt8>.allocate(
                                    capacity: 1 << Lookup.memoBits)
                                memoKeys.initialize(repeating: 0)
                                memoValues.initialize(repeating: 0)
                                defer {
                                    memoKeys.deallocate()
                                    memoValues.deallocate()
                                }
                                let lookup = Lookup(
                                    start: start, candidates: candidates, channels: channels, memoKeys: memoKeys,
                                    memoValues: memoValues)
                                for y in 0..<image.height {
                                    diffuseRow(y, width: w, px, out, e, lookup, strength: strength)
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// The lists and entries, as buffers for the inner loop, and a memo of
    /// the last answers (colors repeat in flat areas and along gradients).
    private struct Lookup {
        let start: UnsafeBufferPointer<Int32>
        let candidates: UnsafeBufferPointer<UInt8>
        let channels: UnsafeBufferPointer<Int32>
        /// Color + 1 (0: empty) and its entry, direct-mapped.
        let memoKeys: UnsafeMutableBufferPointer<UInt32>
        let memoValues: UnsafeMutableBufferPointer<UInt8>
        static let memoBits = 12

        /// The nearest entry to (r, g, b) by squared RGB distance, lowest
        /// index on ties.
        @inline(__always)
        func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
            let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) &+ 1
            let slot = Int((key &* 0x9E37_79B1) >> UInt32(32 - Self.memoBits))
            if memoKeys[slot] == key { return Int(memoValues[slot]) }
            let found = search(r, g, b)
            memoKeys[slot] = key
            memoValues[slot] = UInt8(found)
            return found
        }

        private func search(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
            let s = PaletteMapper.cellShift
            let bits = PaletteMapper.cellBits
            let cell = Int(r >> s) << (2 * bits) | Int(g >> s) << bits | Int(b >> s)
            var best = 0
            var bestDistance = Int32.max
            for n in Int(start[cell])..<Int(start[cell + 1]) {
                let k = Int(candidates[n])
                let dr = r - channels[3 * k]
                let dg = g - channels[3 * k + 1]
                let db = b - channels[3 * k + 2]
                let d = dr * dr + dg * dg + db * db
                if d < bestDistance {
                    bestDistance = d
                    best = k
                }
            }
            return best
        }
    }

    /// Row `y` of the map: even rows left to right, odd rows back, each
    /// pixel's error passed on 7/16 ahead, 3/16, 5/16 and 1/16 below.
    @inline(__always)
    private func diffuseRow(
        _ y: Int, width w: Int, _ px: UnsafeBufferPointer<UInt32>, _ out: UnsafeMutableBufferPointer<UInt8>,
        _ e: UnsafeMutableBufferPointer<Int32>, _ lookup: Lookup, strength: Int32
    ) {
        let cur = (y & 1) * 3 * (w + 2)
        let next = 3 * (w + 2) - cur
        for i in next..<next + 3 * (w + 2) { e[i] = 0 }
        let step = y & 1 == 0 ? 1 : -1
        var x = step > 0 ? 0 : w - 1
        let top = Int32(255 << 4)
        for _ in 0..<w {
            defer { x += step }
            let p = px[y * w + x]
            if let transparent, p >> 24 < 128 {
                out[y * w + x] = UInt8(transparent)
                continue
            }
            let at = cur + 3 * (x + 1)
            let r = min(max(Int32(p & 0xFF) << 4 + e[at], 0), top)
            let g = min(max(Int32(p >> 8 & 0xFF) << 4 + e[at + 1], 0), top)
            let b = min(max(Int32(p >> 16 & 0xFF) << 4 + e[at + 2], 0), top)
            let k = lookup.nearest((r + 8) >> 4, (g + 8) >> 4, (b + 8) >> 4)
            out[y * w + x] = UInt8(k)
            guard strength > 0 else { continue }
            let below = next + 3 * (x + 1)
            let errors = (
                r - lookup.channels[3 * k] << 4, g - lookup.channels[3 * k + 1] << 4,
                b - lookup.channels[3 * k + 2] << 4
            )
            spread((errors.0 * strength) >> 8, e, ahead: at + 3 * step, below: below, step: 3 * step)
            spread((errors.1 * strength) >> 8, e, ahead: at + 1 + 3 * step, below: below + 1, step: 3 * step)
            spread((errors.2 * strength) >> 8, e, ahead: at + 2 + 3 * step, below: below + 2, step: 3 * step)
        }
    }

    /// One channel's error: 7/16 to the next pixel of the row, 3/16, 5/16
    /// and 1/16 to the three below (behind, under, ahead).
    @inline(__always)
    private func spread(_ error: Int32, _ e: UnsafeMutableBufferPointer<Int32>, ahead: Int, below: Int, step: Int) {
        e[ahead] += (error * 7 + 8) >> 4
        e[below - step] += (error * 3 + 8) >> 4
        e[below] += (error * 5 + 8) >> 4
        e[below + step] += (error + 8) >> 4
    }
}
