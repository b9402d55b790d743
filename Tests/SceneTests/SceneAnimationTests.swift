import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// The config format's animations (man throbber, CONFIG FORMAT): `step` with exact fractions and bounce, easings,
/// `keyframes` (hold before the first / after the last key, ease on the
/// segment that starts at its key), `delay` and repeat delays in the steady
/// state. Values are read from the animations and from rendered pixels; the
/// expected numbers are worked out here (own Bézier solver).
@Suite("scene animations: step, keyframes, easing, delays")
struct SceneAnimationTests {
    /// The first layer's animations of a one-layer scene.
    static func animations(_ layer: String, timing: String = "{}") throws -> (SceneConfig, [Animation]) {
        let config = try SceneTestKit.config(SceneTestKit.scene(timing: timing, layers: layer))
        return (config, try SceneTestKit.layers(config)[0].animations)
    }

    static func value(_ a: Animation, _ t: Rational, config: SceneConfig) -> Double {
        a.value(at: t, extraDelay: Rational(0), step: config.timing.step)
    }

    static let seedFade = #"{"kind": "step", "property": "opacity", "from": 1, "by": "-1/3", "bounce": [0, 1]}"#

    @Test(
        "the seed's alpha steps are exact: 1, 2/3, 1/3, then exactly 0, and it turns back at 0 (not one step late as with floats)"
    )
    func seedAlphaExact() throws {
        let (config, a) = try Self.animations(#"{"rect": {"width": 60, "height": 60}, "animate": [\#(Self.seedFade)]}"#)
        guard case .step(let step) = a[0].kind else {
            Issue.record("not a step animation")
            return
        }
        let third = Rational(1, 3)
        #expect(step.by == Rational(0) - third)
        #expect(step.periodSteps == 6)
        #expect(
            step.values == [
                Rational(1), third * Rational(2), third, Rational(0), third, third * Rational(2), Rational(1),
            ])
        let expected: [Double] = [1, 2.0 / 3, 1.0 / 3, 0, 1.0 / 3, 2.0 / 3]
        for k in 0..<18 {
            let v = Self.value(a[0], Rational(Int64(k), 4), config: config)
            #expect(abs(v - expected[k % 6]) < 1e-12, "step \(k): \(v)")
        }
        #expect(Self.value(a[0], Rational(3, 4), config: config) == 0)
        // Linear within a step: half-way from 1 to 2/3 is 5/6.
        #expect(abs(Self.value(a[0], Rational(1, 8), config: config) - 5.0 / 6) < 1e-12)
    }

    @Test("rendered: a black square fading by the seed's steps over white shows 255·(1 − alpha) gray at each step")
    func seedAlphaRendered() throws {
        let config = try SceneTestKit.config(
            SceneTestKit.scene(
                width: 8, height: 8, background: "white", timing: #"{"step": 0.25, "fps": 20}"#,
                layers: #"{"rect": {"width": 8, "height": 8}, "fill": "black", "animate": [\#(Self.seedFade)]}"#))
        let r = try SceneTestKit.renderer(config)
        let alphas: [Double] = [1, 2.0 / 3, 1.0 / 3, 0, 1.0 / 3, 2.0 / 3, 1]
        for k in 0...6 {
            let px = try r.render(at: Rational(Int64(k), 4)).rgba(4, 4)
            let gray = 255 * (1 - alphas[k])
            #expect(
                abs(Double(px[0]) - gray) <= 1 && px[0] == px[1] && px[1] == px[2] && px[3] == 255,
                "step \(k): \(px), expected \(gray)")
        }
        let mid = try r.render(at: Rational(1, 8)).rgba(4, 4)
        #expect(abs(Double(mid[0]) - 255.0 / 6) <= 1, "half-way through step 0: \(mid)")
    }

    @Test("a bounce that starts half-way: 0.5, 0.75, 1, 0.75, 0.5, 0.25, 0, 0.25, 0.5 …")
    func bounceFromMiddle() throws {
        let (config, a) = try Self.animations(
            #"{"circle": {"radius": 5}, "animate": [{"kind": "step", "property": "scale", "from": 0.5, "by": 0.25, "bounce": [0, 1]}]}"#
        )
        let expected = [0.5, 0.75, 1, 0.75, 0.5, 0.25, 0, 0.25, 0.5, 0.75]
        for (k, e) in expected.enumerated() {
            #expect(Self.value(a[0], Rational(Int64(k), 4), config: config) == e, "step \(k)")
        }
    }

    @Test("rotate steps accumulate: 0, 120, 240, 360 ≡ 0 …, linear within the step (angles compared modulo 360)")
    func rotateSteps() throws {
        let (config, a) = try Self.animations(
            #"{"circle": {"radius": 5}, "animate": [{"kind": "step", "property": "rotate", "from": 0, "by": 120}]}"#)
        for k in 0..<60 {
            let t = Rational(Int64(k), 20)  // 20 fps: 5 frames per step
            let expected = 24.0 * Double(k)
            var d = (Self.value(a[0], t, config: config) - expected).truncatingRemainder(dividingBy: 360)
            if d > 180 { d -= 360 }
            if d < -180 { d += 360 }
            #expect(abs(d) < 1e-9, "frame \(k)")
        }
    }

    struct EaseCase: CustomTestStringConvertible, Sendable {
        var text: String
        var curve: ReferenceBezier?
        var steps: Int?
        var testDescription: String { text }
    }

    static let easings: [EaseCase] = [
        EaseCase(text: "linear", curve: ReferenceBezier(x1: 0, y1: 0, x2: 1, y2: 1)),
        EaseCase(text: "ease", curve: .ease),
        EaseCase(text: "ease-in", curve: .easeIn),
        EaseCase(text: "ease-out", curve: .easeOut),
        EaseCase(text: "ease-in-out", curve: .easeInOut),
        EaseCase(text: "cubic-bezier(0.1, 0.7, 1.0, 0.1)", curve: ReferenceBezier(x1: 0.1, y1: 0.7, x2: 1, y2: 0.1)),
        EaseCase(
            text: "cubic-bezier(0.68, -0.55, 0.27, 1.55)",
            curve: ReferenceBezier(x1: 0.68, y1: -0.55, x2: 0.27, y2: 1.55)),
        EaseCase(text: "steps(4)", steps: 4),
        EaseCase(text: "steps(1)", steps: 1),
    ]

    @Test("easings follow their CSS / Core Animation curves within 1e-6, inside every step", arguments: easings)
    func easing(_ c: EaseCase) throws {
        let (config, a) = try Self.animations(
            #"{"circle": {"radius": 5}, "animate": [{"kind": "step", "property": "rotate", "by": 90, "ease": "\#(c.text)"}]}"#,
            timing: #"{"step": 0.5}"#)
        for k in 0..<4 {
            for i in 0..<50 {
                let x = Double(i) / 50
                let t = Rational(Int64(50 * k + i), 100)  // step k, fraction x
                let progress: Double
                if let curve = c.curve {
                    progress = curve(x)
                } else {
                    progress = (x * Double(c.steps!)).rounded(.down) / Double(c.steps!)
                }
                let expected = 90 * (Double(k) + progress)
                var d = (Self.value(a[0], t, config: config) - expected).truncatingRemainder(dividingBy: 360)
                if d > 180 { d -= 360 }
                if d < -180 { d += 360 }
                #expect(
                    abs(d) < 1e-6 * 90,
                    "\(c.text) at step \(k) + \(x): got \(Self.value(a[0], t, config: config)), expected \(expected)")
            }
        }
    }

    static let heldKeys =
        #"{"kind": "keyframes", "property": "translateX", "period": 1, "keys": [{"at": 0.2, "value": 20, "ease": "ease-in"}, {"at": 0.6, "value": 60, "ease": "ease-out"}]}"#

    @Test(
        "keyframes hold the first value before the first key and the last after the last; ease shapes the segment starting at its key"
    )
    func keyframesHoldAndEase() throws {
        let (config, a) = try Self.animations(#"{"rect": {"width": 4, "height": 4}, "animate": [\#(Self.heldKeys)]}"#)
        let cases: [(Rational, Double)] = [
            (Rational(0), 20), (Rational(1, 10), 20), (Rational(1, 5), 20),
            (Rational(3, 10), 20 + 40 * ReferenceBezier.easeIn(0.25)),
            (Rational(2, 5), 20 + 40 * ReferenceBezier.easeIn(0.5)),
            (Rational(1, 2), 20 + 40 * ReferenceBezier.easeIn(0.75)),
            // The last key's ease-out has no segment.
            (Rational(3, 5), 60), (Rational(4, 5), 60), (Rational(99, 100), 60),
            (Rational(1), 20), (Rational(7, 5), 20 + 40 * ReferenceBezier.easeIn(0.5)),
        ]
        for (t, e) in cases {
            #expect(
                abs(Self.value(a[0], t, config: config) - e) < 1e-6,
                "t = \(t): \(Self.value(a[0], t, config: config)), expected \(e)")
        }
        // Three keys, ease only on the middle one: the first segment stays linear.
        let (c2, b) = try Self.animations(
            #"{"circle": {"radius": 1}, "animate": [{"kind": "keyframes", "property": "translateY", "period": 1, "keys": [{"at": 0, "value": 0}, {"at": 0.5, "value": 10, "ease": "ease-in"}, {"at": 1, "value": 0}]}]}"#
        )
        #expect(abs(Self.value(b[0], Rational(1, 4), config: c2) - 5) < 1e-9)
        #expect(abs(Self.value(b[0], Rational(3, 4), config: c2) - (10 - 10 * ReferenceBezier.easeIn(0.5))) < 1e-6)
    }

    @Test("rendered: a 4×4 square moved by those keyframes sits at x = 10 + value (centroid of its pixels)")
    func keyframesRendered() throws {
        let config = try SceneTestKit.config(
            SceneTestKit.scene(
                width: 100, height: 10,
                layers: #"{"rect": {"width": 4, "height": 4}, "center": [10, 5], "animate": [\#(Self.heldKeys)]}"#))
        let r = try SceneTestKit.renderer(config)
        for (t, e) in [
            (Rational(0), 20.0), (Rational(2, 5), 20 + 40 * ReferenceBezier.easeIn(0.5)), (Rational(4, 5), 60),
        ] {
            let c = try #require(try r.render(at: t).centroid())
            #expect(abs(c.x - (10 + e)) < 0.05 && abs(c.y - 5) < 0.05, "t = \(t): at \(c), expected x = \(10 + e)")
        }
    }

    static let sweep =
        #"{"kind": "keyframes", "property": "translateX", "period": 1, "keys": [{"at": 0, "value": 0}, {"at": 1, "value": 80}]"#

    @Test(
        "delay: the value at t is the value at (t − delay) mod period — steady state, no start-up hold; negative delays run ahead"
    )
    func delays() throws {
        for (delay, shift) in [("0.25", 0.25), ("-0.25", -0.25), ("1.25", 0.25), ("\"1/3\"", 1.0 / 3)] {
            let (config, a) = try Self.animations(
                #"{"circle": {"radius": 1}, "animate": [\#(Self.sweep), "delay": \#(delay)}]}"#)
            for k in 0..<20 {
                let t = Double(k) / 20
                var u = (t - shift).truncatingRemainder(dividingBy: 1)
                if u < 0 { u += 1 }
                #expect(
                    abs(Self.value(a[0], Rational(Int64(k), 20), config: config) - 80 * u) < 1e-9,
                    "delay \(delay), t = \(t)")
            }
        }
        // A step animation delayed by half a step is half-way through its last step at t = 0.
        let (config, a) = try Self.animations(
            #"{"circle": {"radius": 1}, "animate": [{"kind": "step", "property": "rotate", "by": 90, "delay": 0.125}]}"#
        )
        let v = Self.value(a[0], Rational(0), config: config)
        #expect(abs(v.truncatingRemainder(dividingBy: 360) - 315) < 1e-9 || abs(v + 45) < 1e-9, "\(v)")
    }

    @Test(
        "rendered: repeat copy i starts i·delay later, on top of the animation's own delay (copies at 0.1 + 0.25·i s)")
    func repeatDelays() throws {
        for (repeatDelay, perCopy) in [("0.25", 0.25), ("-0.25", -0.25)] {
            let config = try SceneTestKit.config(
                SceneTestKit.scene(
                    width: 100, height: 30,
                    layers:
                        #"{"rect": {"width": 4, "height": 4}, "center": [10, 5], "repeat": {"count": 3, "offset": [0, 10], "delay": \#(repeatDelay)}, "animate": [\#(Self.sweep), "delay": 0.1}]}"#
                ))
            let r = try SceneTestKit.renderer(config)
            for k in [0, 3, 7, 12] {
                let image = try r.render(at: Rational(Int64(k), 16))
                for i in 0..<3 {
                    var u = (Double(k) / 16 - 0.1 - perCopy * Double(i)).truncatingRemainder(dividingBy: 1)
                    if u < 0 { u += 1 }
                    let c = try #require(image.centroid(ys: (10 * i)..<(10 * i + 10)), "copy \(i) missing")
                    #expect(
                        abs(c.x - (10 + 80 * u)) < 0.05,
                        "repeat delay \(repeatDelay), t = \(k)/16, copy \(i): x = \(c.x), expected \(10 + 80 * u)")
                    #expect(abs(c.y - Double(5 + 10 * i)) < 0.05)
                }
            }
        }
    }

    @Test(
        "GQCircleLoadView's dots, rendered at every frame: each dot's radius from coverage is 20·scale(t − 0.25·i) px within 0.2 px"
    )
    func gqDotsRendered() throws {
        let config = try ConfigDecoder.load(file: SceneTestKit.examples.appendingPathComponent("dots.json").path)
        let clock = try SceneTestKit.clock(config)
        let r = try SceneTestKit.renderer(config)
        let bands = [0..<85, 85..<155, 155..<240]
        for k in 0..<clock.frameCount {
            let image = try r.render(at: clock.time(ofFrame: k))
            for i in 0..<3 {
                let radius = (image.coverage(xs: bands[i]) / Double.pi).squareRoot()
                let expected = 20 * ReferenceBezier.gqScale(Double(k) / 40 - 0.25 * Double(i))
                #expect(abs(radius - expected) < 0.2, "frame \(k), dot \(i): \(radius) px, expected \(expected)")
            }
        }
    }
}
