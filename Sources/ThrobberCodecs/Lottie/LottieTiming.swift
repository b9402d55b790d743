import ThrobberCore

/// Which of a Lottie file's frames are shown, and for how long, exactly.
///
/// At the file's own rate every frame is shown for 1/fr seconds. A format
/// with a fastest rate (GIF: 50 fps) shows every k-th frame, k the smallest
/// whole step with fr/k within that rate (60 fps → every 2nd at 30 fps;
/// 29.97 fps stays): frames 0, k, 2k, … for ⌊n/k⌋ frames, each k/fr long,
/// the last one also covering the n mod k frames left over, so a loop lasts
/// exactly n/fr seconds, as in the file. A requested rate resamples by
/// time: m = round(n/fr · fps) frames, evenly spaced over the same n/fr
/// seconds (so the loop stays seamless), each showing the file's frame
/// nearest its start time (j·n/m rounded half up, as ffmpeg's `fps` filter
/// rounds): at 60 → 50 fps that is frames 0, 1, 2, 4, 5, 6, …, each the one
/// on screen for most of the output frame's time.
public struct LottieTiming: Equatable, Sendable {
    /// The file's frame shown by each output frame (0 is the file's `ip`).
    public let frames: [Int]
    /// How long each output frame is shown, in seconds.
    public let durations: [Rational]

    /// The timing of `frameCount` frames at `frameRate`, for a format whose
    /// fastest rate is `maxFPS` (nil: none), at `fps` when given.
    public init(frameCount n: Int, frameRate fr: Rational, maxFPS: Int?, fps: Rational? = nil) {
        precondition(n >= 1 && fr > Rational(0))
        let loop = Rational(Int64(n)) / fr
        if let fps {
            var m = max(1, Int((loop * fps).roundedHalfUp))
            if let maxFPS, loop / Rational(Int64(m)) < Rational(1, Int64(maxFPS)) {
                m = max(1, Int((loop * Rational(Int64(maxFPS))).floor))
            }
            frames = (0..<m).map { j in
                min(n - 1, Int((2 * Int64(j) * Int64(n) + Int64(m)) / (2 * Int64(m))))
            }
            durations = Array(repeating: loop / Rational(Int64(m)), count: m)
            return
        }
        var k = 1
        if let maxFPS {
            while fr / Rational(Int64(k)) > Rational(Int64(maxFPS)) { k += 1 }
        }
        let m = max(1, n / k)
        frames = (0..<m).map { $0 * k }
        var durations = Array(repeating: Rational(Int64(k)) / fr, count: m)
        durations[m - 1] = Rational(Int64(n - k * (m - 1))) / fr
        self.durations = durations
    }
}
