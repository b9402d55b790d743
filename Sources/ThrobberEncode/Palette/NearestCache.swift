import ThrobberCodecs
import ThrobberCore

/// The nearest opaque palette entry of a color within the tolerance,
/// remembered in a direct-mapped table: frames repeat few colors near edges.
/// The answer never depends on what the table holds, only the time does.
struct NearestCache {
    private let colors: [UInt32]
    /// Opaque entries sorted by green; `start[g]` is the first with green ≥ g.
    private let byGreen: [Int]
    private let start: [Int]
    /// A green difference above this alone exceeds the tolerance.
    private let reach: Int
    private static let bits = 14
    private var keys = [UInt32](repeating: 0, count: 1 << bits)  // 0: empty (colors looked up are opaque)
    private var values = [Int16](repeating: -1, count: 1 << bits)

    init(colors: [UInt32], opaque: [Int]) {
        self.colors = colors
        let green = { (k: Int) in Int(colors[k] >> 8 & 0xFF) }
        byGreen = opaque.sorted { (green($0), $0) < (green($1), $1) }
        var start = [Int](repeating: byGreen.count, count: 257)
        for (n, k) in byGreen.enumerated().reversed() { start[green(k)] = n }
        for g in stride(from: 255, through: 0, by: -1) where start[g] > start[g + 1] { start[g] = start[g + 1] }
        self.start = start
        var reach = 0
        while (reach + 1) * (reach + 1) <= EdgeMaskedDither.tolerance { reach += 1 }
        self.reach = reach
    }

    /// The entry, or nil when even the nearest is farther than the tolerance.
    mutating func entry(for color: UInt32) -> UInt8? {
        let slot = Int((color &* 0x9E37_79B1) >> UInt32(32 - Self.bits))
        if keys[slot] != color {
            keys[slot] = color
            values[slot] = search(color)
        }
        let v = values[slot]
        return v < 0 ? nil : UInt8(v)
    }

    /// Lowest squared RGB distance wins; ties go to the lower index. Only
    /// entries whose green is within `reach` can be within the tolerance.
    private func search(_ c: UInt32) -> Int16 {
        let g = Int(c >> 8 & 0xFF)
        var best = -1
        var bestDistance = EdgeMaskedDither.tolerance + 1
        for n in start[max(g - reach, 0)]..<start[min(g + reach + 1, 256)] {
            let k = byGreen[n]
            let d = ColorTable.distance(c, colors[k])
            if d < bestDistance || (d == bestDistance && k < best) {
                bestDistance = d
                best = k
            }
        }
        return Int16(best)
    }
}
