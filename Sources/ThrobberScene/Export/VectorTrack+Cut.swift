import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

extension VectorTrack {
    /// The track played forward over loop times 0…`half`, then backward
    /// to 0: a config's `bounce`, as its frames show it (frame j of the
    /// way back is frame 2·(N − 1) − j forward, and `half` is (N − 1)
    /// frames long). Exact: segments played backward take the reversed
    /// easing, `steps(n)` becoming its holds first. A jump played backward
    /// holds its later value from the jump's own time and shows its earlier
    /// one from `nudge` seconds after (less than a frame).
    func bounced(half: Rational, nudge: Rational) -> VectorTrack {
        let forward = VectorTrack.cut(VectorTrack.holds(unrolled(over: half)), from: Rational(0), to: half)
        var keys = forward
        let end = half + half
        for i in stride(from: forward.count - 1, to: 0, by: -1) {
            let a = forward[i - 1]
            let b = forward[i]
            let t0 = end - b.time
            let t1 = end - a.time
            switch a.ease {
            case .steps:
                // Forward a holds until b; backward b shows only at t0, then a.
                keys.append(Key(time: t0, value: b.value, ease: .steps(1)))
                keys.append(Key(time: t0 + nudge, value: a.value, ease: .linear))
                keys.append(Key(time: t1, value: a.value, ease: .linear))
            case .linear where t0 == t1:
                keys.append(Key(time: t0, value: b.value, ease: .steps(1)))
                keys.append(Key(time: t0 + nudge, value: a.value, ease: .linear))
            case .linear:
                keys.append(Key(time: t0, value: b.value, ease: .linear))
                keys.append(Key(time: t1, value: a.value, ease: .linear))
            case .cubicBezier(let x1, let y1, let x2, let y2):
                keys.append(Key(time: t0, value: b.value, ease: .cubicBezier(1 - x2, 1 - y2, 1 - x1, 1 - y1)))
                keys.append(Key(time: t1, value: a.value, ease: .linear))
            }
        }
        // A nudged jump's key is later than the start of the segment after it: that one starts there.
        for i in keys.indices.dropFirst() where keys[i].time < keys[i - 1].time { keys[i].time = keys[i - 1].time }
        return VectorTrack(period: end, keys: VectorTrack.merged(keys), shift: Rational(0))
    }

    /// `keys` with each `steps(n)` segment written as n holds (`steps(1)`).
    static func holds(_ keys: [Key]) -> [Key] {
        var out: [Key] = []
        for (i, k) in keys.enumerated() {
            guard case .steps(let n) = k.ease, n > 1, i + 1 < keys.count else {
                out.append(k)
                continue
            }
            let next = keys[i + 1]
            for j in 0..<n {
                let x = Rational(Int64(j), Int64(n))
                let v = k.value + (next.value - k.value) * Double(j) / Double(n)
                out.append(Key(time: k.time + (next.time - k.time) * x, value: v, ease: .steps(1)))
            }
        }
        return out
    }

    /// Keys of the curve through `keys` on exactly `from…to` (`keys` must
    /// cover it), segments cut at the ends with their easing's sub-curve.
    static func cut(_ keys: [Key], from: Rational, to: Rational) -> [Key] {
        var out: [Key] = []
        for (i, a) in keys.enumerated() where i + 1 < keys.count {
            let b = keys[i + 1]
            if a.time == b.time {
                // A jump inside the range: its second key follows.
                if from < a.time && !(to < a.time) { out.append(Key(time: a.time, value: a.value, ease: .linear)) }
                continue
            }
            let lo = max(a.time, from)
            let hi = min(b.time, to)
            guard lo < hi else { continue }
            let span = b.time - a.time
            let alpha = ((lo - a.time) / span).doubleValue
            let beta = ((hi - a.time) / span).doubleValue
            let (ease, y0, y1) = subEase(a.ease, alpha, beta)
            out.append(Key(time: lo, value: a.value + (b.value - a.value) * y0, ease: ease))
            if hi == to { out.append(Key(time: to, value: a.value + (b.value - a.value) * y1, ease: .linear)) }
        }
        if out.isEmpty { out = [Key(time: from, value: value(of: keys, at: from), ease: .linear)] }
        if out.last!.time < to { out.append(Key(time: to, value: value(of: keys, at: to), ease: .linear)) }
        return merged(out)
    }

    /// The easing of the part `alpha…beta` (0 ≤ alpha < beta ≤ 1) of a
    /// segment eased by `ease`, with the eased progress at both ends.
    static func subEase(_ ease: Easing, _ alpha: Double, _ beta: Double) -> (Easing, Double, Double) {
        switch ease {
        case .linear: return (.linear, alpha, beta)
        case .steps(let n):
            // Only holds reach here (see holds(_:)): the jump is at the segment's end.
            if beta < 1 || n != 1 { return (.linear, ease.apply(alpha), ease.apply(alpha)) }
            return (.steps(1), 0, 1)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            let s0 = alpha <= 0 ? 0 : Easing.solve(alpha, x1, x2)
            let s1 = beta >= 1 ? 1 : Easing.solve(beta, x1, x2)
            let p0 = Easing.bezier(s0, y1, y2)
            let p1 = Easing.bezier(s1, y1, y2)
            guard p1 != p0 else { return (.linear, p0, p1) }
            let h = (s1 - s0) / 3
            // The sub-curve's control points, from the tangents at its ends.
            let cx1 = alpha + h * Easing.bezierSlope(s0, x1, x2)
            let cy1 = p0 + h * Easing.bezierSlope(s0, y1, y2)
            let cx2 = beta - h * Easing.bezierSlope(s1, x1, x2)
            let cy2 = p1 - h * Easing.bezierSlope(s1, y1, y2)
            let w = beta - alpha
            let sub = Easing.cubicBezier(
                min(1, max(0, (cx1 - alpha) / w)), (cy1 - p0) / (p1 - p0),
                min(1, max(0, (cx2 - alpha) / w)), (cy2 - p0) / (p1 - p0))
            return (sub, p0, p1)
        }
    }

    /// `keys` without repeats: of keys sharing a time and value, one; of
    /// three or more sharing a time, the first and last.
    static func merged(_ keys: [Key]) -> [Key] {
        var out: [Key] = []
        for k in keys {
            if let last = out.last, last.time == k.time {
                if last.value == k.value {
                    out[out.count - 1].ease = k.ease
                    continue
                }
                if out.count >= 2, out[out.count - 2].time == k.time {
                    out[out.count - 1] = k
                    continue
                }
            }
            out.append(k)
        }
        return out
    }
}

extension VectorTrack {
    /// `a − b` as one eased curve, when it is one: both repeat alike
    /// (period, shift and key times the same), and on each segment at most
    /// one of them moves, or both move with the same easing. Nil otherwise.
    static func difference(_ a: VectorTrack, _ b: VectorTrack) -> VectorTrack? {
        guard a.period == b.period, a.shift.modulo(a.period) == b.shift.modulo(b.period), a.keys.count == b.keys.count
        else { return nil }
        var keys: [Key] = []
        for (i, (x, y)) in zip(a.keys, b.keys).enumerated() {
            guard x.time == y.time else { return nil }
            var ease = x.ease
            if i + 1 < a.keys.count {
                let xMoves = a.keys[i + 1].value != x.value
                let yMoves = b.keys[i + 1].value != y.value
                if xMoves && yMoves && x.ease != y.ease { return nil }
                if !xMoves { ease = y.ease }
            }
            keys.append(Key(time: x.time, value: x.value - y.value, ease: ease))
        }
        return VectorTrack(period: a.period, keys: keys, shift: a.shift)
    }
}
