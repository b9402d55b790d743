import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore

extension GIFFrameWriter {
    /// Rewrites a frame's indices with lossy LZW, each pixel judged
    /// against its source color in `f.target`.
    /// `alternatives` as in ``LossyLZW/rewrite(_:sources:palette:transparent:alternatives:)``
    /// (empty: none).
    mutating func applyLossy(
        _ indices: inout [UInt8], _ f: PlannedFrame, palette: [UInt32], transparent: Int?,
        alternatives: [Int16] = []
    ) {
        let sources = Self.sources(f)
        let weights = weights(sources, f)
        lossy?.rewrite(
            &indices, sources: sources, palette: palette, transparent: transparent,
            alternatives: alternatives.isEmpty ? nil : alternatives, weights: weights)
    }

    /// What lossy LZW may write instead of each pixel of an exact frame's
    /// `indices`, and at what error (`lossyChoice`): for a transparent
    /// pixel, the entry of the color shown there (exact); for an opaque
    /// one, the transparent entry, exact where the viewer shows its color
    /// and otherwise at the error of what is shown against its source,
    /// within the tolerance. A keep costs its error as a changed pixel
    /// does: free keeps would leave what earlier frames drew on screen
    /// while the picture moves on (docs/tuning.md, "How the lossy coder
    /// is tuned").
    func lossyKeeps(_ indices: [UInt8], _ f: PlannedFrame, colors: [UInt32], transparent: Int) -> (
        alternative: [Int16], errors: [Int32]
    ) {
        let rect = f.geometry.rect
        let tolerance = lossy?.tolerance ?? 0
        let shownEntries = EntryLookup(colors, transparent: transparent)
        var alternative = [Int16](repeating: FewestRuns.none, count: indices.count)
        var errors = [Int32](repeating: 0, count: indices.count)
        f.target.pixels.withUnsafeBytes { tRaw in
            shown.pixels.withUnsafeBytes { sRaw in
                let t = tRaw.bindMemory(to: UInt32.self)
                let s = sRaw.bindMemory(to: UInt32.self)
                for y in 0..<rect.height {
                    let row = (rect.y + y) * width + rect.x
                    for x in 0..<rect.width {
                        let i = y * rect.width + x
                        let shownColor = s[row + x]
                        if shownColor >> 24 == 0 { continue }
                        if Int(indices[i]) == transparent {
                            if let entry = shownEntries.entry(showing: shownColor) { alternative[i] = entry }
                            continue
                        }
                        let c = t[row + x]
                        let d = c == shownColor ? 0 : ColorTable.perceptualDistance(c, shownColor)
                        if d == 0 || (d <= tolerance && keepsAtLoss(c, at: row + x)) {
                            alternative[i] = Int16(transparent)
                            errors[i] = Int32(d)
                        }
                    }
                }
            }
        }
        return (alternative, errors)
    }

    /// Whether a pixel of the screen whose source is now `c` may keep, at
    /// a loss, what is shown there: only while `c` lies within
    /// `GIFTuning.lossyKeepDrift` of the source that was drawn for. A keep
    /// judged against the current source alone left what earlier frames
    /// drew on screen wherever the picture moved by less than the
    /// tolerance: the edges of scrolled text, faint text and tinted rows
    /// lingered on white (docs/tuning.md, "How the lossy coder is tuned").
    @inline(__always)
    func keepsAtLoss(_ c: UInt32, at screen: Int) -> Bool {
        let drawn = drawnFor[screen]
        return drawn == c || ColorTable.perceptualDistance(c, drawn) <= keepDrift
    }

    /// Notes, after frame `f` is written with `indices`, what each pixel of
    /// its rectangle now shows was drawn for: a drawn pixel stands for its
    /// source; a kept one still for the source it was drawn for, unless it
    /// shows the source exactly.
    mutating func recordDrawn(_ indices: [UInt8], _ f: PlannedFrame, transparent: Int?) {
        guard !drawnFor.isEmpty else { return }
        let rect = f.geometry.rect
        let w = width
        let clear = transparent ?? -1
        f.target.pixels.withUnsafeBytes { tRaw in
            shown.pixels.withUnsafeBytes { sRaw in
                drawnFor.withUnsafeMutableBufferPointer { drawn in
                    let t = tRaw.bindMemory(to: UInt32.self)
                    let s = sRaw.bindMemory(to: UInt32.self)
                    for y in 0..<rect.height {
                        let row = (rect.y + y) * w + rect.x
                        for x in 0..<rect.width {
                            let c = t[row + x]
                            if Int(indices[y * rect.width + x]) != clear || s[row + x] == c { drawn[row + x] = c }
                        }
                    }
                }
            }
        }
    }

    /// The weights of `sources` (frame `f`'s rectangle) in lossy LZW
    /// (`LossyMasking`); nil where the coder is lossless.
    private func weights(_ sources: [UInt32], _ f: PlannedFrame) -> [UInt8]? {
        guard let lossy, lossy.tolerance > 0 else { return nil }
        return LossyMasking.weights(sources, width: f.geometry.rect.width)
    }

    /// The colors frame `f`'s rectangle should show, row by row.
    private static func sources(_ f: PlannedFrame) -> [UInt32] {
        let crop = FrameDiff.crop(f.target, f.geometry.rect)
        return crop.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
    }

    /// Lossy LZW on a quantized frame, or on an exact one with its
    /// `lossyKeeps`: its indices rewritten as they are,
    /// and, where pixels have exact alternatives, also rewritten free to
    /// take them; the smaller is kept (with its LZW data). Taking an
    /// alternative wherever the dictionary then matches further is greedy:
    /// on testsrc2 it broke the runs of transparent pixels that the
    /// dictionary would have learnt, and `--lossy 1` came out 6.5 % larger
    /// than lossy 0 (which keeps the smaller too). The second rewrite costs
    /// an LZW pass and a size trial, so it is tried only while it pays, as
    /// `smallest` does.
    ///
    /// With `triesPlain` false and lossy keeps, only the rewrite free to
    /// take them is made: on exact frames the other never won (camera
    /// frames, both screen recordings and life at lossy 40, 80 and 200),
    /// and trying it cost 7–10 % of the time.
    mutating func lossyChoice(
        _ frame: GIFWriter.Frame, _ f: PlannedFrame, alternative: [Int16], errors: [Int32] = [],
        palette: [UInt32], triesPlain: Bool = true
    ) -> GIFWriter.Frame {
        let sources = Self.sources(f)
        let weights = weights(sources, f)
        // With lossy keeps (`errors`), where most of the bytes go, the
        // rewrite free to take them, and the one without alternatives only
        // while it sometimes wins (`plainTrials`): it never did on
        // mandelbrot, where trying both on every frame cost --lossy 80
        // 1.6 s of its 4.1, but at --lossy 20 on testsrc2 it saves 1.6 %.
        if !errors.isEmpty {
            var matched = frame
            lossy?.rewrite(
                &matched.indices, sources: sources, palette: palette, transparent: frame.transparentIndex,
                alternatives: alternative, alternativeErrors: errors, weights: weights)
            guard triesPlain, plainTrials.tries() else { return matched }
            var plain = frame
            lossy?.rewrite(
                &plain.indices, sources: sources, palette: palette, transparent: frame.transparentIndex,
                weights: weights)
            let (chosen, plainWon) = smaller(matched, plain, palette: palette)
            plainTrials.record(won: plainWon)
            return chosen
        }
        var plain = frame
        lossy?.rewrite(
            &plain.indices, sources: sources, palette: palette, transparent: frame.transparentIndex, weights: weights)
        guard !alternative.isEmpty, exactTrials.tries() else { return plain }
        var matched = frame
        lossy?.rewrite(
            &matched.indices, sources: sources, palette: palette, transparent: frame.transparentIndex,
            alternatives: alternative, weights: weights)
        let (chosen, matchedWon) = smaller(plain, matched, palette: palette)
        exactTrials.record(won: matchedWon)
        return chosen
    }

    /// The smaller of two codings of a frame (`first` on a tie), with its
    /// LZW data, and whether that is `second`; both coded at once where
    /// `jobs` allows.
    private func smaller(_ first: GIFWriter.Frame, _ second: GIFWriter.Frame, palette: [UInt32]) -> (
        GIFWriter.Frame, Bool
    ) {
        let (w, h) = (width, height)
        let coded = parallelMap(2, jobs: jobs) { i in
            GIFWriter.encoded(of: i == 0 ? first : second, palette: palette, width: w, height: h)
        }
        let secondWins = coded[1].bytes < coded[0].bytes
        var chosen = secondWins ? second : first
        chosen.lzw = coded[secondWins ? 1 : 0].lzw
        return (chosen, secondWins)
    }

    /// Draws written indices onto what the viewer shows (the transparent
    /// entry leaves a pixel as it was).
    mutating func show(_ indices: [UInt8], _ rect: PixelRect, colors: [UInt32], transparent: Int?) {
        let w = width
        shown.pixels.withUnsafeMutableBytes { raw in
            let s = raw.bindMemory(to: UInt32.self)
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let index = Int(indices[y * rect.width + x])
                    if index == transparent { continue }
                    s[(rect.y + y) * w + rect.x + x] = colors[index] | 0xFF00_0000
                }
            }
        }
    }

    /// Adds frame `f`'s error: what the viewer shows now against its
    /// source, weighted by its delay (a transparent source pixel counts as
    /// black, as an uncovered one shows nothing).
    mutating func measure(_ f: PlannedFrame) {
        var sum = 0
        f.target.pixels.withUnsafeBytes { tRaw in
            shown.pixels.withUnsafeBytes { sRaw in
                let t = tRaw.bindMemory(to: UInt32.self)
                let s = sRaw.bindMemory(to: UInt32.self)
                for i in 0..<min(t.count, s.count) where t[i] != s[i] {
                    let a = t[i] >> 24 == 0 ? 0 : t[i]
                    let b = s[i] >> 24 == 0 ? 0 : s[i]
                    let dr = Int(a & 0xFF) - Int(b & 0xFF)
                    let dg = Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF)
                    let db = Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF)
                    sum += dr * dr + dg * dg + db * db
                }
            }
        }
        trial?.add(error: sum, samples: width * height * 3, weight: Double(max(1, f.delay)))
    }
}
