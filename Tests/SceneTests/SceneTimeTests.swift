import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// The config format's timing (man throbber, CONFIG FORMAT): the cycle is the least common multiple of the periods
/// (or timing.duration), N = round(duration·fps) frames, frame k at
/// t = k·duration/N, frame k starting at floor(100·k·duration/N + 1/2) cs.
@Suite("scene time: cycles, frame times, delays, seamless loops")
struct SceneTimeTests {
    struct CycleCase: CustomTestStringConvertible, Sendable {
        var name: String
        var timing: String
        var layers: String
        /// Expected cycle in seconds, as "p/q" (worked out by hand from the config format).
        var duration: String
        var frames: Int
        var testDescription: String { name }
    }

    static func kf(_ property: String, _ period: String) -> String {
        #"{"kind": "keyframes", "property": "\#(property)", "period": \#(period), "keys": [{"at": 0, "value": 1}]}"#
    }

    static func dot(_ animations: String...) -> String {
        #"{"circle": {"radius": 5}, "animate": [\#(animations.joined(separator: ", "))]}"#
    }

    static let cycles: [CycleCase] = [
        // EaseLoadingView: rotate 120°/step repeats after 3 steps, the alpha bounce after 6: lcm = 6 steps of 0.25 s.
        CycleCase(
            name: "EaseLoadingView: lcm(3, 6) steps of 0.25 s = 1.5 s, 30 frames at 20 fps",
            timing: #"{"step": 0.25, "fps": 20}"#,
            layers: dot(
                #"{"kind": "step", "property": "rotate", "from": 0, "by": 120}"#,
                #"{"kind": "step", "property": "opacity", "from": 1, "by": "-1/3", "bounce": [0, 1]}"#),
            duration: "3/2", frames: 30),
        CycleCase(
            name: "GQCircleLoadView: 0.75 s, 30 frames at 40 fps", timing: #"{"fps": 40}"#,
            layers: dot(kf("scale", "0.75")), duration: "3/4", frames: 30),
        CycleCase(
            name: "dots-flip: lcm(0.75, 1) = 3 s, 120 frames (the rotateY is on a group)", timing: #"{"fps": 40}"#,
            layers: #"{"group": [\#(dot(kf("scale", "0.75")))], "animate": [\#(kf("rotateY", "1"))]}"#,
            duration: "3", frames: 120),
        CycleCase(
            name: "lcm(0.4, 0.6) = 1.2 s", timing: #"{"fps": 25}"#,
            layers: dot(kf("scale", "0.4"), kf("opacity", "0.6")), duration: "6/5", frames: 30),
        CycleCase(
            name: "lcm(1/3, 1/2) = 1 s, exactly", timing: #"{"fps": 30}"#,
            layers: dot(kf("scale", #""1/3""#), kf("opacity", "0.5")), duration: "1", frames: 30),
        CycleCase(
            name: "rotate 135° per 0.1 s step: 8 steps (3 turns) = 0.8 s", timing: #"{"step": 0.1, "fps": 25}"#,
            layers: dot(#"{"kind": "step", "property": "rotate", "by": 135}"#), duration: "4/5", frames: 20),
        CycleCase(
            name: "rotate −90° per step: 4 steps = 1 s", timing: #"{"fps": 25}"#,
            layers: dot(#"{"kind": "step", "property": "rotate", "by": -90}"#), duration: "1", frames: 25),
        CycleCase(
            name: "rotate 7° per 0.01 s step: 360 steps = 3.6 s", timing: #"{"step": 0.01, "fps": 100}"#,
            layers: dot(#"{"kind": "step", "property": "rotate", "by": 7}"#), duration: "18/5", frames: 360),
        CycleCase(
            name: "a bounce by 1/4 over [0, 1] repeats after 2·1/(1/4) = 8 steps",
            timing: #"{"step": 0.125, "fps": 16}"#,
            layers: dot(#"{"kind": "step", "property": "opacity", "by": 0.25, "bounce": [0, 1]}"#), duration: "1",
            frames: 16),
        CycleCase(
            name: "a bounce starting half-way still repeats after 8 steps", timing: #"{"step": 0.125, "fps": 16}"#,
            layers: dot(#"{"kind": "step", "property": "scale", "from": 0.5, "by": 0.25, "bounce": [0, 1]}"#),
            duration: "1", frames: 16),
        CycleCase(
            name: "periods inside groups count: lcm(2, 0.75) = 6 s", timing: #"{"fps": 10}"#,
            layers: #"{"group": [{"group": [\#(dot(kf("scale", "0.75")))]}], "animate": [\#(kf("rotate", "2"))]}"#,
            duration: "6", frames: 60),
        CycleCase(
            name: "timing.duration overrides the lcm", timing: #"{"fps": 40, "duration": 0.5}"#,
            layers: dot(kf("scale", "0.75")), duration: "1/2", frames: 20),
        CycleCase(
            name: "N = round(duration·fps): 1 s at 30000/1001 fps is 30 frames",
            timing: #"{"fps": "30000/1001", "duration": 1}"#,
            layers: dot(kf("scale", "1")), duration: "1", frames: 30),
        CycleCase(
            name: "N = round(duration·fps), half up: 0.3125 s at 40 fps is 12.5 → 13 frames",
            timing: #"{"fps": 40, "duration": 0.3125}"#,
            layers: dot(kf("scale", "1")), duration: "5/16", frames: 13),
    ]

    @Test("the cycle and its frame count", arguments: cycles)
    func cycle(_ c: CycleCase) throws {
        let config = try SceneTestKit.config(SceneTestKit.scene(timing: c.timing, layers: c.layers))
        let clock = try SceneTestKit.clock(config)
        #expect(clock.duration == SceneTestKit.q(c.duration), "cycle \(clock.duration) s")
        #expect(clock.frameCount == c.frames)
    }

    @Test("frame k shows the scene at exactly t = k·duration/N (GQCircleLoadView: k/40 s)")
    func frameTimes() throws {
        let config = try SceneTestKit.config(
            SceneTestKit.scene(timing: #"{"fps": 40}"#, layers: Self.dot(Self.kf("scale", "0.75"))))
        let clock = try SceneTestKit.clock(config)
        for k in 0...30 { #expect(clock.time(ofFrame: k) == Rational(Int64(k), 40)) }
        #expect(clock.frameDuration == Rational(1, 40))
    }

    struct DelayCase: CustomTestStringConvertible, Sendable {
        var duration: (Int, Int)
        var fps: String
        var frames: Int
        var testDescription: String { "\(duration.0)/\(duration.1) s at \(fps) fps" }
    }

    static let delayCases: [DelayCase] = [
        DelayCase(duration: (3, 4), fps: "40", frames: 30),
        DelayCase(duration: (3, 2), fps: "20", frames: 30),
        DelayCase(duration: (3, 1), fps: "40", frames: 120),
        DelayCase(duration: (1, 1), fps: "30", frames: 30),
        DelayCase(duration: (1, 1), fps: "7", frames: 7),
        DelayCase(duration: (1, 3), fps: "50", frames: 17),
        DelayCase(duration: (1, 1), fps: "\"30000/1001\"", frames: 30),
        DelayCase(duration: (7, 6), fps: "24", frames: 28),
    ]

    @Test(
        "GIF delays are differences of floor(100·k·duration/N + 1/2): they add up exactly to the cycle",
        arguments: delayCases)
    func delaysAddUp(_ c: DelayCase) throws {
        let (p, q) = c.duration
        let config = try SceneTestKit.config(
            SceneTestKit.scene(
                timing: #"{"fps": \#(c.fps), "duration": "\#(p)/\#(q)"}"#,
                layers: Self.dot(Self.kf("scale", "1"))))
        let job = try SceneJob(config: config, jobs: 1)
        // floor(100·k·p/(q·N) + 1/2) = floor((200·k·p + q·N) / (2·q·N)), in integers.
        let n = c.frames
        let starts = (0...n).map { k in Int64((200 * k * p + q * n) / (2 * q * n)) }
        let expected = (0..<n).map { starts[$0 + 1] - starts[$0] }
        #expect(job.timeline.entries.count == n)
        #expect(job.timeline.delaysCentiseconds == expected)
        // The sum is the cycle rounded once, half up.
        #expect(job.timeline.delaysCentiseconds.reduce(0, +) == Int64((200 * p + q) / (2 * q)))
    }

    /// Every scene the project ships: the layer examples and every preset
    /// (default options and a few others).
    static func shippedScenes() throws -> [(name: String, config: SceneConfig)] {
        var out: [(String, SceneConfig)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: SceneTestKit.examples.path).sorted()
        where name.hasSuffix(".json") {
            let config = try ConfigDecoder.load(file: SceneTestKit.examples.appendingPathComponent(name).path)
            if case .layers = config.content { out.append((name, config)) }
        }
        var fast = PresetOptions()
        fast.speed = Rational(3, 2)
        fast.fps = Rational(30)
        var big = PresetOptions()
        big.size = 100
        big.scale = 2
        for preset in PresetCatalog.all {
            for (label, o) in [("default", PresetOptions()), ("speed 3/2, 30 fps", fast), ("size 100, scale 2", big)] {
                out.append(("preset \(preset.name) (\(label))", try preset.config(o)))
            }
        }
        return out
    }

    @Test(
        "seamless loop: for every example and preset, the scene at t = duration is pixel-identical to t = 0 (and to the next frame after it), while frame 1 differs"
    )
    func seamless() throws {
        for (name, config) in try Self.shippedScenes() {
            let clock = try SceneTestKit.clock(config)
            let r = try SceneTestKit.renderer(config)
            let first = try r.render(at: Rational(0))
            #expect(try r.render(at: clock.duration) == first, "\(name): t = \(clock.duration) differs from t = 0")
            let dt = clock.frameDuration
            #expect(
                try r.render(at: clock.duration + dt) == (try r.render(at: dt)),
                "\(name): frame N+1 differs from frame 1")
            #expect(try r.render(at: dt) != first, "\(name): frame 1 equals frame 0; is anything moving?")
        }
    }

    @Test(
        "the steady state: at t = 0 of the dots, dot 0 starts growing, dot 2 is at its largest, dot 1 at rest (radius from rendered coverage)"
    )
    func steadyState() throws {
        let config = try ConfigDecoder.load(file: SceneTestKit.examples.appendingPathComponent("dots.json").path)
        let r = try SceneTestKit.renderer(config)
        let bands = [0..<85, 85..<155, 155..<240]
        func radii(_ t: Rational) throws -> [Double] {
            let image = try r.render(at: t)
            return bands.map { (image.coverage(xs: $0) / Double.pi).squareRoot() }
        }
        let now = try radii(Rational(0))
        let next = try radii(Rational(1, 40))
        // 10 pt at scale 2 = 20 px at rest, 30 px at 1.5x.
        #expect(abs(now[0] - 20) < 0.2 && abs(now[1] - 20) < 0.2 && abs(now[2] - 30) < 0.2, "\(now)")
        #expect(next[0] > now[0] + 1, "dot 0 should be growing: \(now[0]) → \(next[0])")
        #expect(abs(next[1] - 20) < 0.2, "dot 1 should still rest: \(next[1])")
        #expect(next[2] < now[2] - 1, "dot 2 should be shrinking: \(now[2]) → \(next[2])")
        // And in numbers: the expected ease-out radii after 1/40 s.
        for i in 0..<3 {
            #expect(abs(next[i] - 20 * ReferenceBezier.gqScale(0.025 - 0.25 * Double(i))) < 0.2, "dot \(i): \(next[i])")
        }
    }

    @Test("bounce and duplicate (int and array) shape a scene's timeline like a frame folder's")
    func sceneTimelineOptions() throws {
        func job(_ extra: String) throws -> SceneJob {
            try SceneJob(
                config: try SceneTestKit.config(
                    SceneTestKit.scene(
                        timing: #"{"fps": 40}"#, layers: Self.dot(Self.kf("scale", "0.75")), extra: extra)), jobs: 1)
        }
        let bounced = try job(#""bounce": true"#)
        #expect(bounced.timeline.entries.map(\.source) == Array(0..<30) + Array((1..<29).reversed()))
        let doubled = try job(#""duplicate": 2"#)
        #expect(doubled.timeline.entries.map(\.source) == (0..<30).flatMap { [$0, $0] })
        #expect(doubled.timeline.delaysCentiseconds.reduce(0, +) == 150)
        let counts = (0..<30).map { $0 % 4 + 1 }
        let perFrame = try job(#""duplicate": \#(counts)"#)
        #expect(
            perFrame.timeline.entries.map(\.source)
                == counts.enumerated().flatMap { Array(repeating: $0.offset, count: $0.element) })
        let both = try job(#""bounce": true, "duplicate": 3"#)
        #expect(both.timeline.entries.count == 58 * 3)
        let e = SceneTestKit.error { _ = try job(#""duplicate": [1, 2]"#) }
        #expect(e?.kind == .data && e?.message.contains("duplicate") == true, "\(String(describing: e))")
    }

    @Test("a cycle of exactly 1000 frames is accepted, 1001 refused with a clear error")
    func frameLimit() throws {
        let ok = try SceneTestKit.config(
            SceneTestKit.scene(timing: #"{"fps": 25, "duration": 40}"#, layers: Self.dot()))
        #expect(try SceneTestKit.clock(ok).frameCount == 1000)
        let over = try SceneTestKit.config(
            SceneTestKit.scene(timing: #"{"fps": 25, "duration": 40.04}"#, layers: Self.dot()), file: "long.json")
        let e = SceneTestKit.error { _ = try SceneTestKit.clock(over) }
        #expect(e?.kind == .data)
        #expect(
            e?.message.hasPrefix("long.json: timing") == true && e?.message.contains("1001") == true,
            "\(String(describing: e))")
    }

    @Test(
        "frames configs: the cycle is frame count / fps by default; timing.duration sets it (60 frames in 3 s: 5 cs each)"
    )
    func framesDuration() throws {
        let dir = SceneTestKit.examples.appendingPathComponent("dropdown_anim").path
        let plain = try SceneTestKit.config(#"{"version": 1, "frames": {"dir": "\#(dir)"}, "timing": {"fps": 10}}"#)
        let plainJob = try SceneJob(config: plain, jobs: 1)
        #expect(plainJob.timeline.duration == Rational(6))
        #expect(plainJob.timeline.delaysCentiseconds == Array(repeating: 10, count: 60))
        // the config format (man throbber): `duration` is the length of one cycle; "for frames: frame count / fps" is only its default.
        let timed = try SceneTestKit.config(
            #"{"version": 1, "frames": {"dir": "\#(dir)"}, "timing": {"fps": 10, "duration": 3}}"#)
        let timedJob = try SceneJob(config: timed, jobs: 1)
        #expect(timedJob.timeline.duration == Rational(3), "timing.duration is ignored for a frames config")
        #expect(timedJob.timeline.delaysCentiseconds == Array(repeating: 5, count: 60))
    }

    @Test(
        "GIF refuses a scene stepping at over 50 fps, but not a frames config whose timing.duration sets the delays (fps unused)"
    )
    func gifFPSLimitOnlyWhereFPSSteps() throws {
        let dir = SceneTestKit.examples.appendingPathComponent("dropdown_anim").path
        func encodeGIF(_ config: SceneConfig) throws {
            try withTemporaryDirectory { out in
                let file = try OutputFile(path: out.appendingPathComponent("x.gif").path)
                _ = try SceneJob(config: config, jobs: 1).encode(to: file, format: .gif)
            }
        }
        let layers = try SceneTestKit.config(SceneTestKit.scene(timing: #"{"fps": 60}"#, layers: Self.dot()))
        let e = SceneTestKit.error { try encodeGIF(layers) }
        #expect(
            e?.kind == .data && e?.message.contains("timing.fps: 60 fps is too fast for GIF") == true,
            "\(String(describing: e))")
        let frames = try SceneTestKit.config(
            #"{"version": 1, "frames": {"dir": "\#(dir)"}, "timing": {"fps": 60, "duration": 3}}"#)
        try encodeGIF(frames)
    }
}
