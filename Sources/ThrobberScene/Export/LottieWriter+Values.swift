import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

extension LottieWriter {
    static func object(_ members: [(String, JSON)]) -> JSON {
        .object(members.map { (key: $0.0, value: JSONNode($0.1)) })
    }

    static func array(_ elements: [JSON]) -> JSON { .array(elements.map { JSONNode($0) }) }

    func wrap(_ v: JSON) -> JSONNode { JSONNode(v) }

    func pair(_ a: Double, _ b: Double, _ text: (Double) -> String) -> JSON {
        LottieWriter.array([.number(text(a)), .number(text(b))])
    }

    /// A one-dimensional property (`{"a":0,"k":v}` or keyframes), values
    /// multiplied by `scale`. With `turns`, whole turns are unwrapped where
    /// the curve's repetitions meet (a rotation keeps turning).
    func value(_ v: VectorValue, scale: Double, digits: Int, turns: Bool) throws -> JSON {
        switch v {
        case .constant(let c):
            return LottieWriter.object([("a", .number("0")), ("k", .number(VectorText.number(c * scale, digits)))])
        case .track(let t):
            return try keyframes(t, turns: turns) {
                LottieWriter.array([.number(VectorText.number($0 * scale, digits))])
            }
        }
    }

    /// A two-dimensional property from two values, at most one animated
    /// or both the same curve (a uniform scale).
    func vector(_ x: VectorValue, _ y: VectorValue, scale: Double, digits: Int) throws -> JSON {
        let text = { (v: Double) in VectorText.number(v * scale, digits) }
        guard let track = x.track ?? y.track else {
            return LottieWriter.object([("a", .number("0")), ("k", pair(x.value(at: 0), y.value(at: 0), text))])
        }
        return try keyframes(track, turns: false) { v in
            pair(x.track != nil ? v : x.value(at: 0), y.track != nil ? v : y.value(at: 0), text)
        }
    }

    /// Keyframes (`{"a":1,"k":[…]}`) of `track` over the loop: every
    /// repetition from the one playing at frame 0 to the one playing at
    /// the last, `steps(n)` as n hold keyframes, a Bézier easing as the
    /// key's out tangent and the next key's in tangent, a jump as a hold
    /// ending a hundredth of a frame before it. The keys are counted by
    /// the meter before they are made.
    ///
    /// Written so that older players read them as current ones do: each
    /// key that starts a segment has its end value `e` as well as `s` (the
    /// next key's value; a hold's own value, as a player that does not read
    /// `h` then holds it), and the last key only its time. Qt 6.4 reads a
    /// segment from `s` to `e` and needs a last key without values; rlottie,
    /// lottie-web, ThorVG and python-lottie take `e` where the next key has
    /// no `s`. After a hold the last key's value starts one more segment, a
    /// frame long and still, so that no player reads the value from the
    /// key that has none.
    func keyframes(_ track: VectorTrack, turns: Bool, _ write: (Double) -> JSON) throws -> JSON {
        try meter.keys(track.unrolledKeyCount(over: scene.loop, holds: true), at: path, tree: true)
        let keys = VectorTrack.merged(VectorTrack.holds(track.unrolled(over: scene.loop, unwrapTurns: turns)))
        let perSecond = Rational(Int64(scene.frames)) / scene.loop
        var timed: [(time: Double, value: Double, ease: Easing)] = []
        for (i, k) in keys.enumerated() {
            var time = (k.time * perSecond).doubleValue
            var ease = k.ease
            if i + 1 < keys.count, keys[i + 1].time == k.time {
                time -= LottieWriter.jumpFrames
                ease = .steps(1)
                if let last = timed.last, last.time >= time { timed.removeLast() }
            }
            timed.append((time, k.value, ease))
        }
        if timed.count > 1, case .steps = timed[timed.count - 2].ease, let last = timed.last {
            timed[timed.count - 1].ease = .linear
            timed.append((last.time + 1, last.value, .linear))
        }
        var out: [JSON] = []
        for (i, k) in timed.enumerated() {
            let t = ("t", JSON.number(VectorText.number(k.time, 4)))
            guard i + 1 < timed.count else {
                out.append(LottieWriter.object(timed.count > 1 ? [t] : [t, ("s", write(k.value))]))
                break
            }
            var m: [(String, JSON)] = [t, ("s", write(k.value))]
            switch k.ease {
            case .steps: m += [("e", write(k.value)), ("h", .number("1"))]
            case .linear: m += [("e", write(timed[i + 1].value))] + tangents(0, 0, 1, 1)
            case .cubicBezier(let x1, let y1, let x2, let y2):
                m += [("e", write(timed[i + 1].value))] + tangents(x1, y1, x2, y2)
            }
            out.append(LottieWriter.object(m))
        }
        return LottieWriter.object([("a", .number("1")), ("k", LottieWriter.array(out))])
    }

    /// How long before a jump its first keyframe is, in frames.
    static let jumpFrames = 0.01

    private func tangents(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> [(String, JSON)] {
        func t(_ x: Double, _ y: Double) -> JSON {
            LottieWriter.object([
                ("x", LottieWriter.array([.number(VectorText.factor(x))])),
                ("y", LottieWriter.array([.number(VectorText.factor(y))])),
            ])
        }
        return [("o", t(x1, y1)), ("i", t(x2, y2))]
    }

    /// A Lottie color `[r, g, b, 1]`, channels 0…1, each rounded up at the
    /// fifth decimal: rlottie truncates channel · 255, so 85/255 written as
    /// 0.3333 would come back 84; rounded up it is 85 whether a player
    /// truncates or rounds.
    func color(_ c: Color) -> JSON {
        LottieWriter.object([("a", .number("0")), ("k", LottieWriter.channels(c))])
    }

    /// The channels of ``color(_:)``: `[r, g, b, 1]`.
    static func channels(_ c: Color) -> JSON {
        let rgb = [c.r, c.g, c.b].map { v in
            JSON.number(VectorText.number((Double(v) / 255 * 100_000).rounded(.up) / 100_000, 5))
        }
        return array(rgb + [.number("1")])
    }

    func fixed(_ v: Double, _ digits: Int = VectorText.lengthDigits) -> JSON {
        LottieWriter.object([("a", .number("0")), ("k", .number(VectorText.number(v, digits)))])
    }

    func fixedPair(_ a: Double, _ b: Double) -> JSON {
        LottieWriter.object([("a", .number("0")), ("k", pair(a, b, VectorText.length))])
    }
}
