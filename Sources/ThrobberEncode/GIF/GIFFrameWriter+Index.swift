import ThrobberCodecs
import ThrobberCore

/// Exact frames: indices against a table, and the smallest of the
/// candidate encodings written.
extension GIFFrameWriter {

    /// Lossless: index every pixel with `table` (written with the frame
    /// when `local`, else the global one). Where the palette has a
    /// transparent entry (color 0), a pixel the viewer already shows may be
    /// written either way: see `smallest`. `bytes` is what the frame takes
    /// in the file, its own table included (when `sized`; else 0).
    mutating func indexed(
        _ f: PlannedFrame, table: ColorTable, local: Bool, sized: Bool = true, transparent chosen: Int? = nil
    ) -> (frame: GIFWriter.Frame, bytes: Int, table: ColorTable) {
        let rect = f.geometry.rect
        let transparent = chosen ?? table.index(of: 0)
        var plain = [UInt8](repeating: 0, count: rect.width * rect.height)
        var alternative = [Int16](repeating: FewestRuns.none, count: plain.count)
        var keepsAny = false
        f.target.pixels.withUnsafeBytes { tRaw in
            shown.pixels.withUnsafeBytes { sRaw in
                let t = tRaw.bindMemory(to: UInt32.self)
                let s = sRaw.bindMemory(to: UInt32.self)
                var lastColor: UInt32 = 0
                var lastIndex = transparent ?? 0
                for y in 0..<rect.height {
                    let row = (rect.y + y) * width + rect.x
                    for x in 0..<rect.width {
                        let c = t[row + x]
                        if c != lastColor {
                            lastColor = c
                            // A color the table lacks is one the viewer
                            // shows already (a table of the changed pixels).
                            lastIndex = table.index(of: c) ?? -1
                        }
                        let i = y * rect.width + x
                        if lastIndex < 0 {
                            guard let transparent, c == s[row + x] else {
                                preconditionFailure("a color the viewer does not show is missing from the table")
                            }
                            plain[i] = UInt8(transparent)
                            continue
                        }
                        plain[i] = UInt8(lastIndex)
                        if let transparent, f.index > 0, lastIndex != transparent, c == s[row + x] {
                            alternative[i] = Int16(transparent)
                            keepsAny = true
                        }
                    }
                }
            }
        }
        var frame = GIFWriter.Frame(
            rect: rect, palette: local ? table.colors : nil, indices: plain,
            delay: f.delay, disposal: f.geometry.disposal, transparentIndex: transparent)
        var bytes = 0
        if keepsAny {
            (frame, bytes) = smallest(frame, alternative: alternative, palette: table.colors, withRuns: true)!
        } else if sized {
            bytes = GIFWriter.encodedSize(of: frame, palette: table.colors, width: width, height: height)
        }
        // encodedSize counts a table with every frame: a global one is paid once.
        return (frame, local ? bytes : bytes - GIFWriter.colorTableBytes(table.count), table)
    }

    /// Writes a frame `indexed` made, with lossy LZW if asked, and updates
    /// what the viewer shows.
    mutating func write(_ f: PlannedFrame, _ indexedFrame: GIFWriter.Frame, table: ColorTable) throws {
        var frame = indexedFrame
        let rect = f.geometry.rect
        let transparent = frame.transparentIndex
        if lossy != nil {
            if let transparent, f.index > 0 {
                let (alternative, errors) = lossyKeeps(
                    frame.indices, f, colors: table.colors, transparent: transparent)
                frame = lossyChoice(
                    frame, f, alternative: alternative, errors: errors, palette: table.colors, triesPlain: false)
            } else {
                applyLossy(&frame.indices, f, palette: table.colors, transparent: transparent)
            }
            try put(frame)
            show(frame.indices, rect, colors: table.colors, transparent: transparent)
            recordDrawn(frame.indices, f, transparent: transparent)
        } else {
            try put(frame)
            FrameDiff.paste(f.target, rect, into: &shown)
        }
        if trial?.measures == true { measure(f) }
        if f.geometry.disposal == .background { FrameDiff.clear(&shown, rect) }
        lastTarget = f.target
    }

    /// The smallest encoding of `frame` among: its own indices, the choice
    /// between them and their alternatives that follows giflib's LZW
    /// dictionary (`exact`, while it pays), and, `withRuns`, every
    /// alternative taken, the fewest-runs choice and the stretch rule
    /// (`FewestRuns.stretches`) (which win on flat, drawn frames and on
    /// re-encoded GIFs; the dictionary's choice wins on quantized ones).
    /// Nil when there is nothing to choose from. The candidates are made
    /// and coded on up to `jobs` threads; the first of the smallest wins,
    /// so the choice does not depend on them.
    mutating func smallest(
        _ frame: GIFWriter.Frame, alternative: [Int16], palette: [UInt32], withRuns: Bool
    ) -> (frame: GIFWriter.Frame, bytes: Int)? {
        var candidates: [Candidate] = [.plain]
        let triesExact = exactTrials.tries()
        if triesExact {
            candidates.append(.given(Self.rewritten(frame, alternative: alternative, palette: palette, by: &exact)))
        }
        if withRuns { candidates += [.fewestRuns, .allAlternatives, .stretches] }
        guard candidates.count > 1 else { return nil }
        let (w, h) = (width, height)
        let coded = parallelMap(candidates.count, jobs: jobs) { [candidates] i in
            var c = candidates[i].frame(frame, alternative: alternative)
            let e = GIFWriter.encoded(of: c, palette: palette, width: w, height: h)
            c.lzw = e.lzw
            return (frame: c, bytes: e.bytes)
        }
        let best = coded.indices.min { coded[$0].bytes < coded[$1].bytes }!
        if triesExact { exactTrials.record(won: best == 1) }
        return coded[best]
    }

    /// One of `smallest`'s candidates: how it is made from the frame and
    /// each pixel's alternative.
    enum Candidate: Sendable {
        case plain
        /// Made beforehand (the dictionary's choice, which needs the
        /// writer's coder).
        case given(GIFWriter.Frame)
        case fewestRuns
        case allAlternatives
        case stretches

        func frame(_ frame: GIFWriter.Frame, alternative: [Int16]) -> GIFWriter.Frame {
            var c = frame
            switch self {
            case .plain: break
            case .given(let made): c = made
            case .fewestRuns: c.indices = FewestRuns.choose(primary: frame.indices, alternative: alternative)
            case .allAlternatives:
                for i in alternative.indices where alternative[i] != FewestRuns.none {
                    c.indices[i] = UInt8(alternative[i])
                }
            case .stretches: c.indices = FewestRuns.stretches(primary: frame.indices, alternative: alternative)
            }
            return c
        }
    }

    /// `frame` with each pixel's exact alternative taken where giflib's
    /// LZW then matches further (`exact`, a `LossyLZW` at level 0).
    static func rewritten(
        _ frame: GIFWriter.Frame, alternative: [Int16], palette: [UInt32], by exact: inout LossyLZW
    ) -> GIFWriter.Frame {
        var matched = frame
        exact.rewrite(
            &matched.indices, sources: [], palette: palette, transparent: frame.transparentIndex,
            alternatives: alternative)
        return matched
    }
}
