import ThrobberCodecs
import ThrobberCore

/// A small ordered set of colors (at most `limit`, ≤ 256) with a fast index
/// lookup: exact palettes are built and applied with it. Colors are packed
/// RGBA as in `RGBAImage.pixel`.
struct ColorTable: Sendable {
    private var keys: [UInt32]
    private var slots: [UInt16]  // palette index + 1; 0 = empty
    private let mask: Int
    /// Colors in the order they were first inserted.
    private(set) var colors: [UInt32] = []
    let limit: Int

    init(limit: Int = 256) {
        self.limit = limit
        keys = [UInt32](repeating: 0, count: 1024)
        slots = [UInt16](repeating: 0, count: 1024)
        mask = 1023
    }

    init(colors: [UInt32]) {
        self.init(limit: 256)
        for c in colors { _ = insert(c) }
    }

    var count: Int { colors.count }

    /// Squared RGB distance of two packed colors (alpha ignored).
    @inline(__always)
    static func distance(_ a: UInt32, _ b: UInt32) -> Int {
        let dr = Int(a & 0xFF) - Int(b & 0xFF)
        let dg = Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF)
        let db = Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF)
        return dr * dr + dg * dg + db * db
    }

    /// A perceptual squared distance of two packed colors (alpha ignored):
    /// the "redmean" weighting, where green counts most and red and blue
    /// trade weight with the mean red. Equal gray steps d on every channel
    /// give about 9·d².
    @inline(__always)
    static func perceptualDistance(_ a: UInt32, _ b: UInt32) -> Int {
        let ra = Int(a & 0xFF)
        let rb = Int(b & 0xFF)
        let dr = ra - rb
        let dg = Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF)
        let db = Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF)
        let mean = (ra + rb) >> 1
        return ((512 + mean) * dr * dr) >> 8 + 4 * dg * dg + ((767 - mean) * db * db) >> 8
    }

    @inline(__always) private func home(_ c: UInt32) -> Int { Int((c &* 0x9E37_79B1) >> 22) & mask }

    /// The index of `color`, or nil if absent.
    @inline(__always) func index(of color: UInt32) -> Int? {
        var i = home(color)
        while true {
            let s = slots[i]
            if s == 0 { return nil }
            if keys[i] == color { return Int(s) - 1 }
            i = (i + 1) & mask
        }
    }

    /// Adds `color` if new. Returns false when the table is full.
    @discardableResult
    @inline(__always) mutating func insert(_ color: UInt32) -> Bool {
        var i = home(color)
        while true {
            let s = slots[i]
            if s == 0 { break }
            if keys[i] == color { return true }
            i = (i + 1) & mask
        }
        guard colors.count < limit else { return false }
        keys[i] = color
        colors.append(color)
        slots[i] = UInt16(colors.count)
        return true
    }

    /// Adds the colors of `rect` in `image`, or with `shown` (the same
    /// size) only those of the pixels that differ from it: the colors a
    /// frame needs when the pixels a viewer already shows are left
    /// transparent. False if they do not all fit.
    mutating func insertColors(of image: RGBAImage, in rect: PixelRect, changedFrom shown: RGBAImage? = nil) -> Bool {
        precondition(shown.map { $0.width == image.width && $0.height == image.height } ?? true)
        var fits = true
        image.pixels.withUnsafeBytes { raw in
            (shown ?? image).pixels.withUnsafeBytes { shownRaw in
                let px = raw.bindMemory(to: UInt32.self)
                let before = shownRaw.bindMemory(to: UInt32.self)
                let everyPixel = shown == nil
                var last: UInt32? = nil
                outer: for y in rect.y..<rect.maxY {
                    let row = y * image.width
                    for x in rect.x..<rect.maxX where everyPixel || px[row + x] != before[row + x] {
                        let c = UInt32(littleEndian: px[row + x])
                        if c == last { continue }
                        last = c
                        if !insert(c) {
                            fits = false
                            break outer
                        }
                    }
                }
            }
        }
        return fits
    }
}

/// The palette entry that shows a color opaque: the first entry of each
/// color (a palette may repeat one), the transparent entry left out.
package struct EntryLookup {
    private var table = ColorTable(limit: 256)
    private var entries: [Int16] = []

    package init(_ colors: [UInt32], transparent: Int?) {
        for (k, c) in colors.enumerated() where k != transparent {
            let known = table.count
            table.insert(c | 0xFF00_0000)
            if table.count > known { entries.append(Int16(k)) }
        }
    }

    /// The entry showing `color` (opaque, packed RGBA), or nil.
    @inline(__always) package func entry(showing color: UInt32) -> Int16? {
        table.index(of: color).map { entries[$0] }
    }
}
