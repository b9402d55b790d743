import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// One animated value as vector formats keyframe it: a curve over one
/// period, its keys joined by CSS easings, repeated forever and read
/// `shift` seconds ahead. Times are seconds played (`timing.speed` applied).
///
/// Every operation keeps the curve exact: keys are moved, mapped by
/// `a·v + b` or cut at a time with the cut easing recomputed (a sub-curve
/// of a cubic Bézier is a cubic Bézier); only ``sampled(loop:frames:tolerance:value:)``
/// approximates, for values no easing expresses.
struct VectorTrack: Equatable, Sendable {
    /// One key: the value at `time`, and the easing of the segment to the next key.
    struct Key: Equatable, Sendable {
        var time: Rational
        var value: Double
        var ease: Easing
    }

    /// One repetition in seconds played, above 0.
    var period: Rational
    /// Keys from 0 to `period`, in time order; two keys may share a time (a jump).
    var keys: [Key]
    /// The value at loop time t is the curve's at (t + shift) mod period.
    var shift: Rational

    /// The value at loop time `t`, as ``KeyframeAnimation`` computes it.
    func value(at t: Rational) -> Double {
        VectorTrack.value(of: keys, at: (t + shift).modulo(period))
    }

    /// The value of the curve through `keys` at `p`: held before the first
    /// key and after the last; at a jump, the later key's.
    static func value(of keys: [Key], at p: Rational) -> Double {
        Easing.curve(
            count: keys.count, at: p, time: { keys[$0].time }, value: { keys[$0].value }, ease: { keys[$0].ease })
    }

    /// The same curve with every value mapped to `scale`·v + `offset`
    /// (easings are relative, so they stay).
    func mapped(scale: Double = 1, offset: Double = 0) -> VectorTrack {
        var t = self
        for i in t.keys.indices { t.keys[i].value = t.keys[i].value * scale + offset }
        return t
    }

    /// Smallest and largest value the curve takes (sampled within
    /// segments whose easing may overshoot its keys).
    var range: ClosedRange<Double> {
        var lo = Double.infinity
        var hi = -Double.infinity
        for (i, k) in keys.enumerated() {
            lo = min(lo, k.value)
            hi = max(hi, k.value)
            guard i + 1 < keys.count, case .cubicBezier(_, let y1, _, let y2) = k.ease,
                !(0...1).contains(y1) || !(0...1).contains(y2)
            else { continue }
            let b = keys[i + 1].value
            for j in 1..<64 {
                let v = k.value + (b - k.value) * k.ease.apply(Double(j) / 64)
                lo = min(lo, v)
                hi = max(hi, v)
            }
        }
        return lo...hi
    }

    /// Whether the curve never changes.
    var isConstant: Bool { range.lowerBound == range.upperBound }

    /// Keys of the curve over loop times `0…span`, the repetitions laid
    /// end to end from the one playing at 0 to the one playing at `span`
    /// (so the first key may be before 0 and the last after `span`).
    /// With `unwrapTurns`, each repetition is moved by whole turns of 360
    /// to continue where the one before ended (a rotation that ends a turn
    /// on from where it starts keeps turning instead of jumping back).
    /// Where one repetition ends and the next begins, a key of equal
    /// value is dropped; unequal ones stay, a jump.
    func unrolled(over span: Rational, unwrapTurns: Bool = false) -> [Key] {
        let start = shift.modulo(period)
        var out: [Key] = []
        var offset = Rational(0) - start
        var turns = 0.0
        while true {
            for k in keys {
                var key = k
                key.time = offset + k.time
                key.value += turns
                if let last = out.last, last.time == key.time, last.value == key.value {
                    // The repetition before ends where this one starts: this one's easing follows.
                    out[out.count - 1].ease = key.ease
                    continue
                }
                out.append(key)
            }
            offset = offset + period
            guard offset < span, let first = keys.first, let last = keys.last else { break }
            if unwrapTurns {
                let delta = (last.value - first.value) / 360
                if delta == delta.rounded() { turns += last.value - first.value }
            }
        }
        return out
    }
}

extension VectorTrack {
    /// How many keys ``unrolled(over:unwrapTurns:)`` makes over `span`
    /// (and ``holds(_:)`` after it, when `holds`: a `steps(n)` segment is n
    /// keys), counted without making them; saturated.
    func unrolledKeyCount(over span: Rational, holds: Bool) -> Int {
        let start = shift.modulo(period)
        let repetitions = max(1, ((span + start).doubleValue / period.doubleValue).rounded(.up))
        var perPeriod = 0
        for (i, k) in keys.enumerated() {
            if holds, i + 1 < keys.count, case .steps(let n) = k.ease { perPeriod += n } else { perPeriod += 1 }
        }
        let total = repetitions * Double(perPeriod)
        return total < Double(Int.max >> 12) ? Int(total) : Int.max >> 12
    }

    /// The track of a config animation on a layer copy whose animations
    /// start `extraDelay` seconds later, on a loop that begins `start`
    /// seconds played into the scene, the config's time running `speed`
    /// times as fast as time played.
    init(_ animation: Animation, step: Rational, speed: Rational, extraDelay: Rational, start: Rational) {
        var keys: [Key]
        switch animation.kind {
        case .keyframes(let k):
            keys = k.keys.map { Key(time: $0.at, value: $0.value, ease: $0.ease) }
            if let first = keys.first, Rational(0) < first.time {
                keys.insert(Key(time: Rational(0), value: first.value, ease: .linear), at: 0)
            }
            if let last = keys.last, last.time < k.period {
                keys.append(Key(time: k.period, value: last.value, ease: .linear))
            }
        case .step(let s):
            keys = s.values.enumerated().map { i, v in
                Key(time: step * Rational(Int64(i)), value: v.doubleValue, ease: s.ease)
            }
        }
        for i in keys.indices { keys[i].time = keys[i].time / speed }
        let period = animation.period(step: step) / speed
        self.init(period: period, keys: keys, shift: (start - (animation.delay + extraDelay) / speed).modulo(period))
    }

    /// A track through `value` at the `frames` frame times k·loop/frames of
    /// one loop, with as few linear keys as keep it within `tolerance` of
    /// the value at every frame time. For values no easing expresses
    /// exactly (a flip's cos θ, a clamped product of opacities).
    static func sampled(loop: Rational, frames: Int, tolerance: Double, value: (Rational) -> Double) -> VectorTrack {
        let times = (0...frames).map { loop * Rational(Int64($0)) / Rational(Int64(frames)) }
        var v = times.dropLast().map(value)
        v.append(v[0])
        var keys = [Key(time: times[0], value: v[0], ease: .linear)]
        var i = 0
        while i < frames {
            // Extend the segment from frame i while every frame between stays
            // close: each frame passed bounds the slope, so a step costs O(1).
            var j = i + 1
            var (low, high) = (-Double.infinity, Double.infinity)
            while j < frames {
                let d = Double(j - i)
                low = max(low, (v[j] - tolerance - v[i]) / d)
                high = min(high, (v[j] + tolerance - v[i]) / d)
                let slope = (v[j + 1] - v[i]) / Double(j + 1 - i)
                guard low <= slope && slope <= high else { break }
                j += 1
            }
            keys.append(Key(time: times[j], value: v[j], ease: .linear))
            i = j
        }
        return VectorTrack(period: loop, keys: keys, shift: Rational(0))
    }
}
