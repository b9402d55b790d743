import ThrobberCore

/// Which frames of a video are shown, and for how long, exactly: the
/// clip's own timestamps, thinned where a format cannot show them, or
/// resampled to a requested rate.
///
/// At the clip's own times every frame lasts until the next one starts
/// and the last until the clip ends, so variable frame rates are kept.
/// A format with a fastest rate (GIF: 50 fps) keeps a frame only when it
/// starts at least one shortest delay after the frame kept before it (a
/// 60 fps clip shows every 2nd frame, 120 fps every 3rd, as ``LottieTiming``
/// steps); what is skipped is covered by the frame before, and a last kept
/// frame shorter than that delay is merged into the one before it, so the
/// loop still lasts exactly as long as the clip.
///
/// A requested rate resamples by time as ffmpeg's `fps` filter does: m =
/// round(length · fps) frames evenly spaced over the same length (the
/// loop stays seamless), each showing the clip's frame on screen at the
/// middle of its time (the latest whose start, in output frames, rounds
/// half up to its slot or before): 30 → 10 fps shows frames 1, 4, 7, ….
public struct VideoTiming: Equatable, Sendable {
    /// The clip's frame (an index into its start times) each output frame shows.
    public let frames: [Int]
    /// How long each output frame is shown, in seconds.
    public let durations: [Rational]

    /// The timing of frames starting at `starts` (ascending, distinct, the
    /// first 0) in a clip `length` seconds long (after the last start),
    /// for a format whose shortest frame is `shortest` seconds (nil: any),
    /// resampled to `fps` when given.
    public init(starts: [Rational], length: Rational, shortest: Rational?, fps: Rational? = nil) {
        precondition(!starts.isEmpty && starts[0] == Rational(0) && starts.last! < length)
        if let fps {
            var m = max(1, Int((length * fps).roundedHalfUp))
            if let shortest, length / Rational(Int64(m)) < shortest {
                m = max(1, Int((length / shortest).floor))
            }
            var frames: [Int] = []
            frames.reserveCapacity(m)
            var i = 0
            for j in 0..<m {
                while i + 1 < starts.count && Self.slot(starts[i + 1], frames: m, over: length) <= j { i += 1 }
                frames.append(i)
            }
            self.frames = frames
            durations = Array(repeating: length / Rational(Int64(m)), count: m)
            return
        }
        var kept = [0]
        for i in 1..<max(1, starts.count) {
            if let shortest, starts[i] - starts[kept.last!] < shortest { continue }
            kept.append(i)
        }
        if let shortest, kept.count > 1, length - starts[kept.last!] < shortest { kept.removeLast() }
        frames = kept
        durations = kept.indices.map { k in
            (k + 1 < kept.count ? starts[kept[k + 1]] : length) - starts[kept[k]]
        }
    }

    /// The output frame time `t` falls in when `m` frames share `length`:
    /// t · m / length rounded half up, in 128 bits (a long clip's frame
    /// times times the rate overflow 64).
    private static func slot(_ t: Rational, frames m: Int, over length: Rational) -> Int {
        let x = Int128(t.numerator) * Int128(m) * Int128(length.denominator)
        let y = Int128(t.denominator) * Int128(length.numerator)
        return Int((2 * x + y) / (2 * y))
    }
}
