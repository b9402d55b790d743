import ThrobberCodecs
import ThrobberCore

/// Palette WebP (`--colors`): the rectangle of each frame that changed
/// since the source frame before gets a palette of its own, as a GIF frame
/// does (`quantize`), and is drawn over the canvas shown before where its
/// colors come closer to the source (`compose`); the frames are then coded
/// lossless, where VP8L's color-indexing transform makes few colors cheap.
struct WebPPalette {
    /// The source frame before the one planned last.
    private var previousSource: RGBAImage?
    /// The canvas shown for the frame composed last.
    private var shown: RGBAImage?

    /// Notes `frame`'s source frame before it (nil for the first) for
    /// `quantize`.
    mutating func plan(_ frame: inout WebPEncoder.Frame) {
        frame.previous = previousSource
        previousSource = frame.image
    }

    /// `f` with its changed rectangle (`rect`, the whole frame for the
    /// first) in at most `quantizer.colors` colors (`remapped`): kept exact
    /// where it already has no more, else libimagequant's palette of its
    /// own, edge-masked dithered.
    static func quantize(_ f: WebPEncoder.Frame, with quantizer: Quantizer) throws -> WebPEncoder.Frame {
        var f = f
        let full = PixelRect(x: 0, y: 0, width: f.image.width, height: f.image.height)
        f.rect = f.previous.map { FrameDiff.changedRect($0, f.image) } ?? full
        guard f.rect.width > 0 && f.rect.height > 0 else { return f }
        let crop = FrameDiff.crop(f.image, f.rect)
        var census = ColorTable(limit: quantizer.colors)
        if census.insertColors(of: crop, in: PixelRect(x: 0, y: 0, width: crop.width, height: crop.height)) {
            f.remapped = crop
            return f
        }
        let (indices, colors) = try quantizer.quantizeEdgeMasked(crop, transparentEntry: crop.hasTransparency)
        f.remapped = image(indices, colors: colors, width: crop.width, height: crop.height)
        return f
    }

    /// The image of `indices` into `colors` (packed RGBA); a clear entry is
    /// clear black, as in the lossless files.
    private static func image(_ indices: [UInt8], colors: [UInt32], width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: indices.count * 4)
        for (p, index) in indices.enumerated() {
            let c = colors[Int(index)]
            if c >> 24 == 0 { continue }
            pixels[p * 4] = UInt8(truncatingIfNeeded: c)
            pixels[p * 4 + 1] = UInt8(truncatingIfNeeded: c >> 8)
            pixels[p * 4 + 2] = UInt8(truncatingIfNeeded: c >> 16)
            pixels[p * 4 + 3] = UInt8(truncatingIfNeeded: c >> 24)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Squared RGBA distance of two packed colors; any two clear colors are equal.
    @inline(__always)
    private static func distance(_ a: UInt32, _ b: UInt32) -> Int {
        if a >> 24 == 0 && b >> 24 == 0 { return 0 }
        let da = Int(a >> 24) - Int(b >> 24)
        return ColorTable.distance(a, b) + da * da
    }

    /// The canvas to code for `f` (quantized): the canvas shown before,
    /// with the pixels the source changed inside the frame's rectangle taken
    /// from its palette colors where they are closer to the source than
    /// what is shown (as a GIF frame keeps them with its transparent
    /// index); pixels the source kept keep what was shown, so still areas
    /// stay still and libwebp's rectangles stay small.
    mutating func compose(_ f: WebPEncoder.Frame) -> RGBAImage {
        guard let remapped = f.remapped else { return shown ?? f.image }
        guard var canvas = shown, let previous = f.previous else {
            shown = remapped
            return remapped
        }
        let width = canvas.width
        let rect = f.rect
        canvas.withMutablePackedPixels { out in
            RGBAImage.withPackedPixels(previous, f.image, remapped) { before, now, new in
                for y in 0..<rect.height {
                    let row = (rect.y + y) * width + rect.x
                    for x in 0..<rect.width where now[row + x] != before[row + x] {
                        let c = new[y * rect.width + x]
                        if Self.distance(now[row + x], c) < Self.distance(now[row + x], out[row + x]) {
                            out[row + x] = c
                        }
                    }
                }
            }
        }
        shown = canvas
        return canvas
    }
}
