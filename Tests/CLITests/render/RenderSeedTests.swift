import Foundation
import TestSupport
import Testing

/// The three seed loaders (the iOS articles Throbber grew from), written as
/// configs (man throbber, CONFIG FORMAT),
/// rendered by the binary and measured on the decoded GIF with Pillow/numpy.
/// Every expected number comes from the seed articles, the config format and
/// the test's own
/// math (its own cubic-Bézier solver), never from Throbber.
@Suite("render: the seed systems, measured frame by frame")
struct RenderSeedTests {
    struct EaseMeasure: Decodable {
        struct Frame: Decodable {
            var duration: Int?
            var angle: Double?
            var spread: Double?
            var alpha: Double
            var alphaPixels: Int
        }
        var width: Int
        var height: Int
        var frames: [Frame]
    }

    /// EaseLoadingView's icon opacity after `k` frames of 0.05 s: steps of
    /// 0.25 s through 1, 2/3, 1/3, 0, 1/3, 2/3 (period 6 steps), linear within a step.
    static func easeAlpha(frame k: Int) -> Double {
        let values: [Double] = [1, 2.0 / 3, 1.0 / 3, 0, 1.0 / 3, 2.0 / 3, 1]
        let step = (k / 5) % 6
        let f = Double(k % 5) / 5
        return values[step] + (values[step + 1] - values[step]) * f
    }

    @Test(
        "EaseLoadingView with the real Coding.net assets: the ring turns 120° per 0.25 s linearly (clockwise), the icon's opacity runs 1, 2/3, 1/3, 0, 1/3, 2/3, linear within a step; 30 frames of 5 cs",
        .needsFixtures)
    func easeLoadingView() throws {
        let ring = try Fixtures.url("coding-ios/loading_loop@2x.png")
        let icon = try Fixtures.url("coding-ios/loading_monkey@2x.png")
        try withTemporaryDirectory { dir in
            // the config format's EaseLoadingView config, on a white canvas, images by absolute path.
            let config = try SceneCLI.write(
                """
                {"version": 1,
                 "canvas": {"width": 60, "height": 60, "scale": 2, "background": "white"},
                 "timing": {"step": 0.25, "fps": 20},
                 "layers": [
                   {"image": "\(ring.path)",
                    "animate": [{"kind": "step", "property": "rotate", "from": 0, "by": 120}]},
                   {"image": "\(icon.path)",
                    "animate": [{"kind": "step", "property": "opacity", "from": 1, "by": "-1/3", "bounce": [0, 1]}]}]}
                """, to: dir, as: "ease.json")
            let gif = dir.appendingPathComponent("ease.gif")
            try SceneCLI.render(config, to: gif)
            let m = try JSONDecoder().decode(
                EaseMeasure.self,
                from: Pillow.script("scene_ease_measure.py", [gif.path, ring.path, icon.path]))
            #expect(m.width == 120 && m.height == 120)
            #expect(m.frames.count == 30)
            #expect(m.frames.map { $0.duration ?? -1 } == Array(repeating: 50, count: 30))
            for (k, f) in m.frames.enumerated() {
                // 120° per 5 frames, linear: 24° per frame, clockwise; the ring
                // is two opposite arcs, so the angle is read modulo 180°.
                let expected = Double(24 * k % 180)
                let angle = try #require(f.angle, "frame \(k): no ring found")
                var diff = (angle - expected).truncatingRemainder(dividingBy: 180)
                if diff > 90 { diff -= 180 }
                if diff < -90 { diff += 180 }
                #expect(abs(diff) <= 1.5, "frame \(k): ring at \(angle)°, expected \(expected)° (mod 180)")
                #expect(
                    (f.spread ?? 0) > 2, "frame \(k): the ring's dark pixels are not elongated enough to read an angle")
                #expect(f.alphaPixels > 300)
                // GIF quantization tolerance: 0.02 of full opacity.
                #expect(
                    abs(f.alpha - Self.easeAlpha(frame: k)) <= 0.02,
                    "frame \(k): icon opacity \(f.alpha), expected \(Self.easeAlpha(frame: k))")
            }
            // The step boundaries land exactly: fully visible at t = 0, gone at t = 0.75 s.
            #expect(abs(m.frames[0].alpha - 1) <= 0.01 && abs(m.frames[15].alpha) <= 0.01)
        }
    }

    static let gqConfig = """
        {"version": 1,
         "canvas": {"width": 120, "height": 40, "scale": 2},
         "timing": {"fps": 40},
         "layers": [
           {"circle": {"radius": 10}, "fill": "gray", "center": [25, 20],
            "repeat": {"count": 3, "offset": [35, 0], "delay": 0.25},
            "animate": [{"kind": "keyframes", "property": "scale", "period": 0.75,
                         "keys": [{"at": 0, "value": 1, "ease": "ease-out"},
                                  {"at": 0.25, "value": 1.5, "ease": "ease-out"},
                                  {"at": 0.5, "value": 1}]}]}]}
        """

    @Test(
        "GQCircleLoadView: each dot's radius (from its pixel area) follows scale 1 → 1.5 → 1 under ease-out within 1 px, dot i delayed 0.25·i s; 30 frames of 2–3 cs adding to 75"
    )
    func gqCircleLoadView() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.gqConfig, to: dir, as: "dots.json")
            let gif = dir.appendingPathComponent("dots.gif")
            try SceneCLI.render(config, to: gif)
            let p = try InkProfiles.measure(gif)
            #expect(p.width == 240 && p.height == 80)
            #expect(p.frames.count == 30)
            #expect(p.durations == SceneCLI.expectedDelaysMs(frames: 30, durationNumerator: 3, denominator: 4))
            #expect(p.durations.reduce(0, +) == 750)
            #expect(Set(p.durations) == [20, 30])
            // Dots centered at x = 25, 60, 95 pt = 50, 120, 190 px, at most 30 px wide each side.
            let bands = [0..<85, 85..<155, 155..<240]
            var closerToEaseOut = 0
            var discriminating = 0
            for (k, f) in p.frames.enumerated() {
                let t = Double(k) / 40
                for i in 0..<3 {
                    let radius = (Double(f.area(bands[i])) / Double.pi).squareRoot()
                    let expected = 20 * ReferenceBezier.gqScale(t - 0.25 * Double(i))
                    #expect(
                        abs(radius - expected) <= 1,
                        "frame \(k), dot \(i): radius \(radius) px, expected \(expected) px")
                    // Ease-out, not linear: where the two differ visibly, the dot follows ease-out.
                    let u = (t - 0.25 * Double(i) + 0.75).truncatingRemainder(dividingBy: 0.75)
                    let linear = 20 * (u < 0.25 ? 1 + 2 * u : u < 0.5 ? 1.5 - 2 * (u - 0.25) : 1)
                    if abs(linear - expected) > 0.5 {
                        discriminating += 1
                        if abs(radius - expected) < abs(radius - linear) { closerToEaseOut += 1 }
                    }
                }
                #expect(
                    f.colors.first.map { Array($0.prefix(4)) } == [128, 128, 128, 255],
                    "frame \(k): the dots are not gray #808080")
            }
            #expect(discriminating >= 10 && closerToEaseOut == discriminating)
        }
    }

    @Test(
        "dots-flip: a 3 s cycle (120 frames at 40 fps); the dots scale horizontally by cos θ, θ = −360°·t (mirrored when negative), their heights unchanged"
    )
    func gqCircleFlip() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                """
                {"version": 1,
                 "canvas": {"width": 120, "height": 40, "scale": 2},
                 "timing": {"fps": 40},
                 "layers": [
                   {"group": [
                      {"circle": {"radius": 10}, "fill": "gray", "center": [25, 20],
                       "repeat": {"count": 3, "offset": [35, 0], "delay": 0.25},
                       "animate": [{"kind": "keyframes", "property": "scale", "period": 0.75,
                                    "keys": [{"at": 0, "value": 1, "ease": "ease-out"},
                                             {"at": 0.25, "value": 1.5, "ease": "ease-out"},
                                             {"at": 0.5, "value": 1}]}]}],
                    "animate": [{"kind": "keyframes", "property": "rotateY", "period": 1,
                                 "keys": [{"at": 0, "value": 0}, {"at": 1, "value": -360}]}]}]}
                """, to: dir, as: "dots-flip.json")
            let gif = dir.appendingPathComponent("dots-flip.gif")
            try SceneCLI.render(config, to: gif)
            let p = try InkProfiles.measure(gif)
            #expect(p.width == 240 && p.height == 80)
            #expect(p.frames.count == 120)
            #expect(p.durations.reduce(0, +) == 3000)
            #expect(p.durations == SceneCLI.expectedDelaysMs(frames: 120, durationNumerator: 3, denominator: 1))
            var ratiosChecked = 0
            var mirrorsChecked = 0
            var mirroredChecked = 0
            for (k, f) in p.frames.enumerated() {
                let t = Double(k) / 40
                let c = cos(-2 * Double.pi * t)  // θ = −360°·t, period 1 s
                let s = (0..<3).map { ReferenceBezier.gqScale(t - 0.25 * Double($0)) }
                // In points: dot i at 60 + c·(25 + 35i − 60), horizontal radius 10·s_i·|c|.
                let left = (0..<3).map { 60 + c * Double(35 * $0 - 35) - 10 * s[$0] * abs(c) }.min()!
                let right = (0..<3).map { 60 + c * Double(35 * $0 - 35) + 10 * s[$0] * abs(c) }.max()!
                let width = 2 * (right - left)
                let height = 40 * s.max()!
                if width < 2 {
                    #expect(f.inkWidth <= 2, "frame \(k): edge-on dots should be (nearly) invisible")
                    continue
                }
                #expect(
                    abs(Double(f.inkWidth) - width) <= 2, "frame \(k): ink \(f.inkWidth) px wide, expected \(width)")
                #expect(
                    abs(Double(f.inkHeight) - height) <= 2, "frame \(k): ink \(f.inkHeight) px tall, expected \(height)"
                )
                guard abs(c) >= 0.2 else { continue }
                let runs = f.columnRuns
                #expect(runs.count == 3, "frame \(k): \(runs.count) separate dots")
                guard runs.count == 3 else { continue }
                // The middle dot sits on the axis: its width / height is |cos θ|, whatever its scale.
                let middle = runs[1]
                let ratio = Double(middle.last - middle.first + 1) / Double(middle.height)
                #expect(
                    abs(ratio - abs(c)) <= 0.06, "frame \(k): middle dot width/height \(ratio), |cos θ| = \(abs(c))")
                ratiosChecked += 1
                // Mirrored when cos θ < 0: dot 2 is then on the left.
                if abs(s[0] - s[2]) >= 0.15 {
                    let leftDot = c > 0 ? 0 : 2
                    let rightDot = 2 - leftDot
                    #expect(
                        abs(Double(runs[0].height) - 40 * s[leftDot]) <= 2,
                        "frame \(k): left dot should be dot \(leftDot)")
                    #expect(
                        abs(Double(runs[2].height) - 40 * s[rightDot]) <= 2,
                        "frame \(k): right dot should be dot \(rightDot)")
                    mirrorsChecked += 1
                    if c < 0 { mirroredChecked += 1 }
                }
            }
            #expect(
                ratiosChecked >= 80 && mirrorsChecked >= 30 && mirroredChecked >= 10,
                "\(ratiosChecked) ratios, \(mirrorsChecked) mirror checks, \(mirroredChecked) of them mirrored")
        }
    }
}
