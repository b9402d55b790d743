import ThrobberCore

/// A constant frame rate found in timestamps, and whether they hold it
/// exactly or only as the time base rounds it.
struct VideoRate: Equatable {
    /// Frames per second.
    var fps: Rational
    /// Whether every gap between timestamps is the same: false when the
    /// time base is too coarse for the rate (WebM's 1 ms holds a 60 fps
    /// frame as 17, 16 or 17 ms) and the gaps only round 1 / ``fps``.
    var exact: Bool
}

extension VideoRate {
    /// The constant rate of frames at timestamps `pts` (sorted, distinct,
    /// in units of `timeBase`) whose last frame ends `lastLength` units
    /// after the last timestamp; nil when the rate varies.
    ///
    /// When every gap is the same, the rate is one over it and the last
    /// frame may not last longer. Otherwise the rate is constant when
    /// every frame starts within one unit of where that rate puts it,
    /// counting from the first (a time base that rounds or truncates
    /// exact times is off by less than one unit), and the last frame
    /// lasts at most a frame and two units (its own duration is rounded
    /// too). Of the rates that fit, FFmpeg's guesses (`guesses`: the
    /// stream's r_frame_rate and avg_frame_rate) come first, then the
    /// simplest fraction.
    static func find(_ pts: [Int64], lastLength: Rational, timeBase: Rational, guesses: [Rational]) -> VideoRate? {
        guard pts.count >= 2 else { return nil }
        let gap = pts[1] - pts[0]
        if pts.indices.dropFirst().allSatisfy({ pts[$0] - pts[$0 - 1] == gap }) {
            guard !(Rational(gap) < lastLength) else { return nil }
            return VideoRate(fps: 1 / (Rational(gap) * timeBase), exact: true)
        }
        // The frame period in units, T, lies in (lo, hi): |pts_i - pts_0 - i·T| < 1 for every i.
        var lo = Rational(gap - 1)
        var hi = Rational(gap + 1)
        for i in pts.indices.dropFirst(2) {
            let d = pts[i] - pts[0]
            let n = Int64(i)
            lo = max(lo, Rational(d - 1, n))
            hi = min(hi, Rational(d + 1, n))
            guard lo < hi else { return nil }
        }
        guard Rational(0) < lo else { return nil }
        // Rates (frames per second) are 1 / (T · timeBase): the interval turned over.
        let fast = 1 / (lo * timeBase)
        let slow = 1 / (hi * timeBase)
        let fps =
            guesses.first { slow < $0 && $0 < fast } ?? simplest(above: slow, below: fast)
        let period = 1 / (fps * timeBase)
        guard lastLength < period + Rational(2) else { return nil }
        return VideoRate(fps: fps, exact: false)
    }

    /// The fraction with the smallest denominator (then numerator) strictly
    /// between `a` and `b` (0 ≤ `a` < `b`), by continued fractions.
    static func simplest(above a: Rational, below b: Rational) -> Rational {
        let whole = a.floor
        // An integer lies strictly between them.
        if Rational(whole + 1) < b { return Rational(whole + 1) }
        let (x, y) = (a - Rational(whole), b - Rational(whole))
        // Here whole ≤ a < b ≤ whole + 1 and no integer lies strictly between.
        // x in [0, 1), y in (0, 1]: the answer is whole + 1/r, r strictly between 1/y and 1/x.
        if x == Rational(0) {
            // r above 1/y, any size: the smallest integer above it.
            return Rational(whole) + 1 / Rational((1 / y).floor + 1)
        }
        return Rational(whole) + 1 / simplest(above: 1 / y, below: 1 / x)
    }
}
