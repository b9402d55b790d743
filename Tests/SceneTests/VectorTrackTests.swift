import Foundation
import TestSupport
import Testing

@testable import ThrobberKit
@testable import ThrobberScene

/// The curves vector export writes keep the values the renderer draws: a
/// track read at any time equals the animation's own value (Animation.value,
/// the code the frames are drawn with), cut segments keep their curve,
/// bounced tracks play the same values backward, and sampled tracks stay
/// within their tolerance. Whether players draw those curves as the frames
/// do is checked by rlottie, python-lottie and Chromium (VectorRendererTests).
@Suite("vector export: tracks keep the renderer's values", .tags(.slow))
struct VectorTrackTests {
    static func animation(_ json: String, timing: String = "{}") throws -> (SceneConfig, Animation) {
        let layer = #"{"rect": {"width": 10, "height": 10}, "animate": [\#(json)]}"#
        let config = try SceneTestKit.config(SceneTestKit.scene(timing: timing, layers: layer))
        return (config, try SceneTestKit.layers(config)[0].animations[0])
    }

    static let keyframes =
        #"{"kind": "keyframes", "property": "translateX", "period": 1.2, "delay": 0.1, "keys": [{"at": 0.1, "value": 0, "ease": "cubic-bezier(0.3, 1.4, 0.7, 1)"}, {"at": 0.6, "value": 40, "ease": "steps(3)"}, {"at": 0.9, "value": 10}, {"at": 0.9, "value": 30, "ease": "ease-in"}, {"at": 1.1, "value": 5}]}"#

    /// Times spread over two periods, off any key.
    static let times = (0..<240).map { Rational(Int64($0 * 7 + 3), 700) }

    @Test("a keyframes track with delay, start, speed, overshoot, steps and a jump reads as the animation")
    func keyframeTrackMatches() throws {
        let (config, a) = try Self.animation(Self.keyframes)
        let speed = Rational(3, 2)
        let start = Rational(2, 7)
        let track = VectorTrack(
            a, step: config.timing.step, speed: speed, extraDelay: Rational(1, 5), start: start)
        for t in Self.times {
            let want = a.value(at: (t + start) * speed, extraDelay: Rational(1, 5), step: config.timing.step)
            #expect(abs(track.value(at: t) - want) < 1e-9, "t = \(t)")
        }
    }

    @Test("a step track with bounds and easing reads as the animation")
    func stepTrackMatches() throws {
        let (config, a) = try Self.animation(
            #"{"kind": "step", "property": "opacity", "from": 1, "by": "-1/3", "bounce": [0, 1], "ease": "ease-out"}"#,
            timing: #"{"step": 0.2}"#)
        let track = VectorTrack(a, step: config.timing.step, speed: Rational(1), extraDelay: Rational(0), start: 0)
        #expect(track.period == Rational(6, 5))
        for t in Self.times {
            let want = a.value(at: t, extraDelay: Rational(0), step: config.timing.step)
            #expect(abs(track.value(at: t) - want) < 1e-9, "t = \(t)")
        }
    }

    @Test("cutting a cubic-Bézier segment keeps its curve: the sub-curve's values are the whole curve's")
    func cutKeepsCurve() {
        let keys: [VectorTrack.Key] = [
            .init(time: 0, value: 10, ease: .cubicBezier(0.42, 0, 0.58, 1)), .init(time: 2, value: 50, ease: .linear),
        ]
        let cut = VectorTrack.cut(keys, from: Rational(1, 2), to: Rational(3, 2))
        #expect(cut.count == 2)
        for i in 0...50 {
            let t = Rational(1, 2) + Rational(Int64(i), 50)
            let want = 10 + 40 * Easing.cubicBezier(0.42, 0, 0.58, 1).apply(t.doubleValue / 2)
            #expect(abs(VectorTrack.value(of: cut, at: t) - want) < 1e-4, "t = \(t)")
        }
    }

    @Test("a bounced track plays the forward values backward, jumps and holds at their own frames")
    func bounceMirrors() throws {
        let (config, a) = try Self.animation(Self.keyframes)
        let track = VectorTrack(a, step: config.timing.step, speed: 1, extraDelay: 0, start: 0)
        let frame = Rational(1, 20)
        let half = frame * Rational(23)
        let bounced = track.bounced(half: half, nudge: frame / Rational(1000))
        #expect(bounced.period == half + half)
        for k in 0..<46 {
            let t = frame * Rational(Int64(k))
            let forward = k <= 23 ? t : half + half - t
            #expect(abs(bounced.value(at: t) - track.value(at: forward)) < 1e-6, "frame \(k)")
        }
    }

    @Test("the difference of two tracks is one curve when they move on different segments, else none")
    func differenceWhenAligned() throws {
        let head = VectorTrack(
            period: 2,
            keys: [
                .init(time: 0, value: 10, ease: .cubicBezier(0.4, 0, 0.2, 1)),
                .init(time: 1, value: 280, ease: .linear),
                .init(time: 2, value: 280, ease: .linear),
            ], shift: Rational(1, 3))
        let tail = VectorTrack(
            period: 2,
            keys: [
                .init(time: 0, value: 0, ease: .linear), .init(time: 1, value: 0, ease: .cubicBezier(0.4, 0, 0.2, 1)),
                .init(time: 2, value: 270, ease: .linear),
            ], shift: Rational(1, 3))
        let d = try #require(VectorTrack.difference(head, tail))
        for t in Self.times { #expect(abs(d.value(at: t) - (head.value(at: t) - tail.value(at: t))) < 1e-9) }
        var other = tail
        other.keys[0].ease = .cubicBezier(0.1, 0.2, 0.3, 0.4)
        other.keys[1].value = 5
        #expect(VectorTrack.difference(head, other) == nil)
    }

    @Test("a sampled track keeps every frame within tolerance with few keys, and a straight line with two")
    func sampledWithinTolerance() {
        let loop = Rational(3, 2)
        let wave = VectorTrack.sampled(loop: loop, frames: 60, tolerance: 0.01) { t in cos(t.doubleValue * 4) }
        for k in 0..<60 {
            let t = loop * Rational(Int64(k), 60)
            #expect(abs(wave.value(at: t) - cos(t.doubleValue * 4)) <= 0.01 + 1e-12, "frame \(k)")
        }
        #expect(wave.keys.count < 40)
        let line = VectorTrack.sampled(loop: loop, frames: 60, tolerance: 0.01) { t in t.doubleValue }
        #expect(line.keys.count == 3)  // up to the last frame, then back to the first value at the loop's end
    }

    @Test("a rotation unrolled over several turns keeps turning instead of jumping back")
    func unrolledTurns() {
        let turn = VectorTrack(
            period: 1, keys: [.init(time: 0, value: 0, ease: .linear), .init(time: 1, value: 360, ease: .linear)],
            shift: Rational(1, 4))
        let keys = turn.unrolled(over: 3, unwrapTurns: true)
        #expect(keys.map(\.value) == [0, 360, 720, 1080, 1440])
        #expect(
            keys.map(\.time) == [Rational(-1, 4), Rational(3, 4), Rational(7, 4), Rational(11, 4), Rational(15, 4)])
        #expect(turn.unrolled(over: 3).map(\.value) == [0, 360, 0, 360, 0, 360, 0, 360])
    }
}
