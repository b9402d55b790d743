import ThrobberCodecs
import ThrobberCore

/// Looks at every frame in the survey pass and picks the smallest exact
/// layout that holds all of them (APNG frames share one IHDR and PLTE):
/// gray at the fewest bits its levels need (2 to 8), else a palette (tRNS for alpha)
/// when all frames together have at most 256 colors, else gray+alpha, RGB
/// or RGBA. Like the GIF path, only what changed since the previous frame
/// is counted.
struct APNGColorSurvey {
    private var census = ColorCensus()
    private var counting = true
    /// Every pixel of every frame has alpha 255.
    private(set) var opaque = true
    private var gray = true
    /// Gray levels in use.
    private var levels = [Bool](repeating: false, count: 256)
    /// The RGB values in use, one bit each (2 MiB): an unused one can be
    /// the color key.
    private var used = [UInt64](repeating: 0, count: 1 << 18)

    /// Adds `image`, shown after `previous`.
    mutating func add(_ image: RGBAImage, after previous: RGBAImage?) {
        if counting { counting = census.add(image, after: previous) && census.unionFits }
        let full = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let rect = previous.map { FrameDiff.changedRect(image, $0) } ?? full
        image.pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            var last: UInt32? = nil
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX {
                    let c = UInt32(littleEndian: px[y * image.width + x])
                    if c == last { continue }
                    last = c
                    let r = c & 0xFF
                    if gray {
                        if r == c >> 8 & 0xFF && r == c >> 16 & 0xFF {
                            levels[Int(r)] = true
                        } else {
                            gray = false
                        }
                    }
                    if c >> 24 != 255 { opaque = false }
                    let rgb = Int(c & 0xFF_FFFF)
                    used[rgb >> 6] |= 1 << UInt64(rgb & 63)
                }
            }
        }
    }

    /// The layout for the animation; `animated`: more than one frame, so a
    /// way to leave pixels as they are under blend OVER is worth having: a
    /// transparent palette entry where it costs no bits, and for RGB a
    /// color key (tRNS names a color no frame uses, as apngasm does). Gray
    /// gets none: Pillow (9.4 to 13.0) ignores a gray key under blend OVER
    /// and pastes it, and at 2 and 4 bits ffmpeg 5.1 misreads one too.
    func layout(animated: Bool) -> APNGPixelLayout {
        let colors = counting ? census.union.colors : nil
        let paletteDepth = colors.map { Self.depth(forEntries: $0.count) }
        if gray && opaque {
            let depth = [1, 2, 4, 8].first { d in
                let step = 255 / (1 << d - 1)
                return levels.indices.allSatisfy { !levels[$0] || $0 % step == 0 }
            }!
            // 1-bit gray is a 1-bit palette: ffmpeg 5.1 cannot decode 1-bit
            // gray APNG ("not yet implemented").
            if depth <= paletteDepth ?? 8 && depth > 1 { return APNGPixelLayout(colorType: .gray, depth: depth) }
        }
        if var colors {
            // Entries with alpha first: tRNS ends at the last of them.
            colors = colors.filter { $0 >> 24 != 255 } + colors.filter { $0 >> 24 == 255 }
            let depth = Self.depth(forEntries: colors.count)
            if animated && !colors.contains(where: { $0 >> 24 == 0 })
                && Self.depth(forEntries: colors.count + 1) == depth
            {
                colors.insert(0, at: 0)
            }
            return APNGPixelLayout(colorType: .palette, depth: depth, palette: colors)
        }
        if gray { return APNGPixelLayout(colorType: .grayAlpha) }
        return opaque ? APNGPixelLayout(colorType: .rgb, key: animated ? rgbKey() : nil) : .rgba
    }

    /// The lowest RGB value no frame uses (black where it is free), as an
    /// opaque packed color.
    private func rgbKey() -> UInt32? {
        guard let word = used.firstIndex(where: { $0 != ~0 }) else { return nil }
        return 0xFF00_0000 | UInt32(word << 6 + (~used[word]).trailingZeroBitCount)
    }

    /// The smallest PNG palette bit depth for `n` entries.
    static func depth(forEntries n: Int) -> Int { n <= 2 ? 1 : n <= 4 ? 2 : n <= 16 ? 4 : 8 }
}
