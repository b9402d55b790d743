import ThrobberCodecs
import ThrobberCore

/// Frames libimagequant quantized: which pixels keep what is shown.
extension GIFFrameWriter {

    /// Quantized: pixels the viewer already shows well enough become the
    /// transparent entry, so unchanged areas stay stable instead of
    /// shimmering with a new dither pattern, and encode as long runs. A pixel
    /// keeps what is shown when its source did not change since the frame
    /// before (what is shown is then this very color, quantized earlier), or
    /// when what is shown is at least as close to it as its new palette color.
    /// (libimagequant can do this itself with `liq_image_set_background`, but
    /// then every remap waits for the previous frame; decided here, the
    /// remaps run in parallel and this pass costs a few ms a frame.)
    mutating func writeQuantized(_ f: PlannedFrame, _ remapped: Quantizer.Remapped) throws {
        let rect = f.geometry.rect
        var indices = remapped.indices
        let colors = remapped.colors
        var (alternative, alternativeError): ([Int16], [Int32]) = ([], [])
        if let transparent = remapped.transparent, f.index > 0, let previous = lastTarget {
            (alternative, alternativeError) = keep(
                f, indices: &indices, colors: colors, transparent: transparent, previous: previous)
        }
        var frame = GIFWriter.Frame(
            rect: rect, palette: remapped.global ? nil : colors, indices: indices, delay: f.delay,
            disposal: f.geometry.disposal, transparentIndex: remapped.transparent)
        if lossy != nil {
            frame = lossyChoice(frame, f, alternative: alternative, errors: alternativeError, palette: colors)
            indices = frame.indices
        } else if !alternative.isEmpty,
            let best = smallest(frame, alternative: alternative, palette: colors, withRuns: false)
        {
            frame = best.frame
            indices = frame.indices
        }
        try put(frame)
        show(indices, rect, colors: colors, transparent: remapped.transparent)
        recordDrawn(indices, f, transparent: remapped.transparent)
        if trial?.measures == true { measure(f) }
        if f.geometry.disposal == .background { FrameDiff.clear(&shown, rect) }
        lastTarget = f.target
    }

    /// Sets to `transparent` the pixels of `indices` (frame `f` remapped to
    /// `colors`; `previous` is the frame before's source) that keep what is
    /// shown, and returns each pixel's alternative entry and, with lossy
    /// LZW, the error of taking it (both empty when no pixel has one).
    func keep(
        _ f: PlannedFrame, indices: inout [UInt8], colors: [UInt32], transparent: Int, previous: RGBAImage
    ) -> (alternative: [Int16], errors: [Int32]) {
        let rect = f.geometry.rect
        let w = width
        let keepTolerance = lossy?.tolerance ?? -1
        let clear = UInt8(transparent)
        let shownEntries = EntryLookup(colors, transparent: transparent)
        // Where a pixel becomes transparent, the entry of the color shown
        // there (if the palette has it) shows the same: LZW may take either.
        var alternative = [Int16](repeating: FewestRuns.none, count: indices.count)
        // With lossy LZW, a pixel whose shown color is only within the
        // tolerance of its source may keep it (its alternative, the
        // transparent entry, at that error, as a changed pixel's) where
        // the dictionary then matches further by the lossy score; forced,
        // such keeps broke runs (testsrc2 --lossy 10 came out 1.2 % over
        // lossless), and cheaper ones leave stale colors on screen
        // (docs/tuning.md, "How the lossy coder is tuned").
        var alternativeError = [Int32](repeating: 0, count: keepTolerance >= 0 ? indices.count : 0)
        var anyAlternative = false
        f.target.pixels.withUnsafeBytes { tRaw in
            shown.pixels.withUnsafeBytes { sRaw in
                previous.pixels.withUnsafeBytes { pRaw in
                    let t = tRaw.bindMemory(to: UInt32.self)
                    let s = sRaw.bindMemory(to: UInt32.self)
                    let p = pRaw.bindMemory(to: UInt32.self)
                    for y in 0..<rect.height {
                        let row = (rect.y + y) * w + rect.x
                        for x in 0..<rect.width {
                            let i = y * rect.width + x
                            let index = Int(indices[i])
                            let shownColor = s[row + x]
                            // Transparent here, or nothing shown to keep.
                            if index == transparent || shownColor >> 24 == 0 { continue }
                            let c = t[row + x]
                            if c == p[row + x]
                                || ColorTable.distance(c, shownColor) <= ColorTable.distance(c, colors[index])
                            {
                                indices[i] = clear
                                if let entry = shownEntries.entry(showing: shownColor) {
                                    alternative[i] = entry
                                    anyAlternative = true
                                }
                            } else if keepTolerance >= 0 {
                                let d = ColorTable.perceptualDistance(c, shownColor)
                                if d <= keepTolerance && keepsAtLoss(c, at: row + x) {
                                    alternative[i] = Int16(clear)
                                    alternativeError[i] = Int32(d)
                                    anyAlternative = true
                                }
                            }
                        }
                    }
                }
            }
        }
        return anyAlternative ? (alternative, alternativeError) : ([], [])
    }
}
