import ThrobberCodecs
import ThrobberCore

/// Quantized frames written a batch at a time, their coding in parallel.
///
/// What a frame's pixels may keep depends on what the frames before it
/// show, so `keep` runs in order; but the transparent entry and an entry
/// of the very color shown draw the same, so what the viewer shows after a
/// frame does not depend on which of its candidate encodings is written.
/// The costly part, coding the candidates (LZW passes and the exact
/// rewrite), then needs nothing from other frames and runs on all cores;
/// the choices and the writing go in order again, so the bytes are those
/// of writing frame by frame, for any number of jobs.
extension GIFFrameWriter {
    /// A quantized frame after `keep`: the frame as written without a
    /// trial, and each pixel's exact alternative (empty when none has one).
    struct Kept: Sendable {
        var frame: GIFWriter.Frame
        var alternative: [Int16]
    }

    /// A frame's candidates, coded: as kept (`plain`), and rewritten to
    /// the alternatives LZW matches furthest (`matched`; nil when not
    /// tried in advance).
    struct Coded: Sendable {
        var plain: GIFWriter.Frame
        var plainBytes: Int
        var matched: (frame: GIFWriter.Frame, bytes: Int)?
    }

    /// Whether `write` may take `frames` a batch at a time: an ordinary
    /// lossless-LZW encode of libimagequant's frames.
    func writesInBatch(_ frames: [Paletted]) -> Bool {
        guard lossy == nil, trial == nil else { return false }
        switch choice {
        case .quantized, .sharedQuantized: break
        default: return false
        }
        return frames.allSatisfy {
            if case .quantized = $0.work { return true }
            return false
        }
    }

    /// The global table's entries (empty without one).
    var globalColors: [UInt32] { globalTable?.colors ?? [] }

    /// Writes quantized frames as `writeQuantized` writes them one by one.
    mutating func writeBatch(_ frames: [Paletted]) throws {
        var kept: [Kept] = []
        for p in frames {
            guard case .quantized(let remapped) = p.work else { continue }
            kept.append(keepInOrder(p.frame, remapped))
        }
        // A trial that would be skipped is not coded in advance while the
        // trials lose (`TrialBackoff`): it is coded below if wanted after all.
        let ahead = exactTrials.isTrying
        let (w, h) = (width, height)
        let global = globalColors
        let rules = gif.clearRules
        let coded = parallelMap(kept.count, jobs: jobs) { [kept] i in
            Self.code(kept[i], global: global, rewritesAhead: ahead, width: w, height: h, clearRules: rules)
        }
        for (k, c) in zip(kept, coded) {
            try put(choose(k, c))
            quantizedFrames += 1
        }
    }

    /// `keep` and `show` for one frame, in order.
    private mutating func keepInOrder(_ f: PlannedFrame, _ remapped: Quantizer.Remapped) -> Kept {
        let rect = f.geometry.rect
        var indices = remapped.indices
        var alternative: [Int16] = []
        if let transparent = remapped.transparent, f.index > 0, let previous = lastTarget {
            alternative =
                keep(f, indices: &indices, colors: remapped.colors, transparent: transparent, previous: previous)
                .alternative
        }
        let frame = GIFWriter.Frame(
            rect: rect, palette: remapped.global ? nil : remapped.colors, indices: indices, delay: f.delay,
            disposal: f.geometry.disposal, transparentIndex: remapped.transparent)
        show(indices, rect, colors: remapped.colors, transparent: remapped.transparent)
        if f.geometry.disposal == .background { FrameDiff.clear(&shown, rect) }
        lastTarget = f.target
        return Kept(frame: frame, alternative: alternative)
    }

    /// Codes a kept frame as it is, and rewritten to its alternatives when
    /// `rewritesAhead`: pure, so frames are coded on any thread.
    private static func code(
        _ k: Kept, global: [UInt32], rewritesAhead: Bool, width: Int, height: Int,
        clearRules: [LZWEncoder.ClearRule]
    ) -> Coded {
        var plain = k.frame
        let palette = plain.palette ?? global
        let coded = GIFWriter.encoded(
            of: plain, palette: palette, width: width, height: height, clearRules: clearRules)
        plain.lzw = coded.lzw
        guard rewritesAhead, !k.alternative.isEmpty else {
            return Coded(plain: plain, plainBytes: coded.bytes, matched: nil)
        }
        var exact = LossyLZW(level: 0)
        return Coded(
            plain: plain, plainBytes: coded.bytes,
            matched: matched(k, global: global, by: &exact, width: width, height: height))
    }

    /// The kept frame rewritten to its alternatives (`rewritten`), coded.
    private static func matched(
        _ k: Kept, global: [UInt32], by exact: inout LossyLZW, width: Int, height: Int
    ) -> (frame: GIFWriter.Frame, bytes: Int) {
        let palette = k.frame.palette ?? global
        var frame = rewritten(k.frame, alternative: k.alternative, palette: palette, by: &exact)
        let coded = GIFWriter.encoded(of: frame, palette: palette, width: width, height: height)
        frame.lzw = coded.lzw
        return (frame, coded.bytes)
    }

    /// The frame `smallest` would choose, with the trials' bookkeeping in
    /// order: the plain frame unless the exact rewrite is tried and
    /// smaller (the plain one wins ties).
    private mutating func choose(_ k: Kept, _ c: Coded) -> GIFWriter.Frame {
        guard !k.alternative.isEmpty, exactTrials.tries() else { return c.plain }
        let matched = c.matched ?? Self.matched(k, global: globalColors, by: &exact, width: width, height: height)
        let won = matched.bytes < c.plainBytes
        exactTrials.record(won: won)
        return won ? matched.frame : c.plain
    }
}
