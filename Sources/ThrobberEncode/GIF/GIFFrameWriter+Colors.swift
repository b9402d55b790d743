import ThrobberCodecs
import ThrobberCore

/// Which colors a frame needs beyond what is shown, and which entry it
/// can spare for transparency.
extension GIFFrameWriter {

    /// A table of the transparent entry and the colors of the pixels of
    /// `f`'s rectangle that differ from what the viewer shows, or nil when
    /// they do not fit in `limit` entries.
    func changedColors(_ f: PlannedFrame, limit: Int) -> ColorTable? {
        guard f.index > 0 else { return nil }
        var table = ColorTable(limit: limit)
        table.insert(0)
        return table.insertColors(of: f.target, in: f.geometry.rect, changedFrom: shown) ? table : nil
    }

    /// Whether frame `f` can be written with the shared table `g` instead
    /// of a table of its own, and with which transparent entry (nil: none).
    /// `needed` holds the colors it must draw (and transparent). A shared
    /// table with a transparent entry must hold them all. One without
    /// (a table of 256 colors that two full frames share) must hold the
    /// colors besides transparent, and the frame then takes as transparent
    /// an entry none of its changed pixels needs; where every entry is
    /// needed, the frame is drawn opaque if its rectangle has no
    /// transparent pixel and every color in `g`. A frame disposed of must
    /// take entry 0, the background index, as transparent: decoders that
    /// restore the background color literally (Pillow) clear it to the
    /// transparent entry only when it is the background one.
    func sharedUse(_ f: PlannedFrame, table g: ColorTable, needed: ColorTable) -> (
        table: ColorTable, transparent: Int?
    )? {
        if let t = g.index(of: 0) {
            return needed.colors.allSatisfy { g.index(of: $0) != nil } ? (g, t) : nil
        }
        guard needed.colors.allSatisfy({ $0 == 0 || g.index(of: $0) != nil }) else { return nil }
        let disposed = f.geometry.disposal == .background
        if let entry = unusedEntry(f, table: g, backgroundOnly: disposed) { return (g, entry) }
        return !disposed && drawsOpaque(f, table: g) ? (g, nil) : nil
    }

    /// Whether every pixel of `f`'s rectangle is opaque and a color of
    /// `table`.
    func drawsOpaque(_ f: PlannedFrame, table: ColorTable) -> Bool {
        let rect = f.geometry.rect
        return f.target.pixels.withUnsafeBytes { raw in
            let t = raw.bindMemory(to: UInt32.self)
            var last: UInt32? = nil
            for y in rect.y..<rect.maxY {
                let row = y * width
                for x in rect.x..<rect.maxX where t[row + x] != last {
                    last = t[row + x]
                    guard t[row + x] >> 24 != 0, table.index(of: t[row + x]) != nil else { return false }
                }
            }
            return true
        }
    }

    /// For a palette without a transparent entry: the entry that frame `f`
    /// can write as transparent, one that no pixel it changes needs (nil
    /// for the first frame, or where every entry is needed). Of those, the
    /// one the most unchanged pixels of the rectangle show, so that they
    /// need no other index; the lowest on a tie. With `backgroundOnly`,
    /// entry 0 (the background index) or nil.
    func unusedEntry(_ f: PlannedFrame, table: ColorTable, backgroundOnly: Bool = false) -> Int? {
        let rect = f.geometry.rect
        guard f.index > 0, rect.width > 0, rect.height > 0 else { return nil }
        var needed = [Bool](repeating: false, count: table.count)
        var kept = [Int](repeating: 0, count: table.count)
        f.target.pixels.withUnsafeBytes { tRaw in
            shown.pixels.withUnsafeBytes { sRaw in
                let t = tRaw.bindMemory(to: UInt32.self)
                let s = sRaw.bindMemory(to: UInt32.self)
                var lastColor = t[rect.y * width + rect.x] &+ 1
                var lastIndex = 0
                for y in 0..<rect.height {
                    let row = (rect.y + y) * width + rect.x
                    for x in 0..<rect.width {
                        let c = t[row + x]
                        if c != lastColor {
                            lastColor = c
                            lastIndex = table.index(of: c) ?? 0
                        }
                        if c == s[row + x] { kept[lastIndex] += 1 } else { needed[lastIndex] = true }
                    }
                }
            }
        }
        if backgroundOnly { return needed[0] ? nil : 0 }
        return table.colors.indices.filter { !needed[$0] }.max { (kept[$0], -$0) < (kept[$1], -$1) }
    }
}
