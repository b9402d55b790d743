import Foundation
import TestSupport
import Testing

/// `timing.speed`: a config played faster or slower by one key, the same as
/// dividing every time in it by hand, exactly.
@Suite("render: timing.speed")
struct ConfigSpeedTests {
    /// A scene with every kind of time a config has: a keyframes period and
    /// key times, a step animation (timing.step), a repeat delay and an
    /// animation delay. `t` writes each time; the times given are the design's.
    static func scene(timing: String, _ t: (String) -> String) -> String {
        #"""
        {"version": 1, "canvas": {"width": 48, "height": 24}, "timing": \#(timing),
         "layers": [
          {"circle": {"radius": 4}, "center": [8, 12], "repeat": {"count": 3, "offset": [12, 0], "delay": \#(t("0.25"))},
           "animate": [{"kind": "keyframes", "property": "scale", "period": \#(t("1")),
                        "keys": [{"at": 0, "value": 1}, {"at": \#(t("0.5")), "value": 1.8, "ease": "ease-out"}, {"at": \#(t("1")), "value": 1}]}]},
          {"rect": {"width": 10, "height": 2}, "center": [40, 20],
           "animate": [{"kind": "step", "property": "rotate", "by": 90, "delay": \#(t("0.125"))}]}
         ]}
        """#
    }

    /// Renders `json` to a GIF and decodes it with Pillow.
    static func decoded(_ json: String, _ name: String, in dir: URL, extra: [String] = []) throws -> Pillow.DecodedGIF {
        let config = try SceneCLI.write(json, to: dir, as: "\(name).json")
        let gif = dir.appendingPathComponent("\(name).gif")
        try SceneCLI.render(config, to: gif, extra: extra)
        return try Pillow.decode(gif)
    }

    @Test("speed 2 draws the same frames, with the same delays, as every time halved by hand: half the loop")
    func double() throws {
        try withTemporaryDirectory { dir in
            let halves = ["0.25": "0.125", "1": "0.5", "0.5": "0.25", "0.125": "0.0625"]
            let normal = try Self.decoded(Self.scene(timing: #"{"fps": 20, "step": 0.25}"#) { $0 }, "normal", in: dir)
            let fast = try Self.decoded(
                Self.scene(timing: #"{"fps": 20, "step": 0.25, "speed": 2}"#) { $0 }, "fast", in: dir)
            let byHand = try Self.decoded(
                Self.scene(timing: #"{"fps": 20, "step": 0.125}"#) { halves[$0]! }, "byhand", in: dir)
            #expect(normal.durations == Array(repeating: 50, count: 20))
            #expect(byHand.durations == Array(repeating: 50, count: 10))
            #expect(fast.durations == byHand.durations)
            #expect(fast.hashes == byHand.hashes)
            #expect(Set(fast.hashes).count > 5, "the scene should move")
            // Frame k of the fast loop is frame 2k of the normal one.
            #expect(fast.hashes == stride(from: 0, to: 20, by: 2).map { normal.hashes[$0] })
        }
    }

    @Test("speed 1.5 is exact: the times are divided as fractions (a 2/3 s loop of 20 frames at 30 fps)")
    func threeHalves() throws {
        try withTemporaryDirectory { dir in
            let byThreeHalves = ["0.25": "1/6", "1": "2/3", "0.5": "1/3", "0.125": "1/12"]
            let fast = try Self.decoded(
                Self.scene(timing: #"{"fps": 30, "step": 0.25, "speed": 1.5}"#) { $0 }, "fast", in: dir)
            let byHand = try Self.decoded(
                Self.scene(timing: #"{"fps": 30, "step": "1/6"}"#) { "\"\(byThreeHalves[$0]!)\"" }, "byhand", in: dir)
            let fraction = try Self.decoded(
                Self.scene(timing: #"{"fps": 30, "step": 0.25, "speed": "3/2"}"#) { $0 }, "fraction", in: dir)
            // the config format's centisecond starts of 20 frames in 2/3 s: 660 or 670 ms, never drifting.
            let expected = SceneCLI.expectedDelaysMs(frames: 20, durationNumerator: 2, denominator: 3)
            #expect(fast.durations == expected)
            #expect(fast.durations.reduce(0, +) == 670)
            #expect(fast.hashes == byHand.hashes && fast.durations == byHand.durations)
            #expect(fraction.hashes == fast.hashes && fraction.durations == fast.durations)
        }
    }

    @Test("timing.speed and render --speed multiply: speed 2 played at --speed 2.5 is 5 times as fast")
    func withRenderSpeed() throws {
        try withTemporaryDirectory { dir in
            let fast = try Self.decoded(
                Self.scene(timing: #"{"fps": 20, "step": 0.25, "speed": 2}"#) { $0 }, "fast", in: dir)
            let faster = try Self.decoded(
                Self.scene(timing: #"{"fps": 20, "step": 0.25, "speed": 2}"#) { $0 }, "faster", in: dir,
                extra: ["--speed", "2.5"])
            #expect(faster.hashes == fast.hashes)
            #expect(faster.durations == Array(repeating: 20, count: 10), "1 s / (2 × 2.5) in 10 frames")
        }
    }

    @Test("a frames config: every frame's delay divided by the speed")
    func frames() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("f")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png", "c.png"]), in: folder)
            let delays = try Self.decoded(
                #"{"version": 1, "timing": {"speed": 2}, "frames": {"dir": "f", "delays": [10, 20, 40]}}"#, "delays",
                in: dir)
            #expect(delays.durations == [50, 100, 200])
            let fps = try Self.decoded(
                #"{"version": 1, "timing": {"fps": 10, "speed": "1/2"}, "frames": {"dir": "f"}}"#, "fps", in: dir)
            #expect(fps.durations == [200, 200, 200])
        }
    }

    @Test(
        "a speed that is not above 0 and at most 100 (with at most 3 decimals) is refused (65), naming the file and timing.speed",
        arguments: [
            ("0", "must be greater than 0, got 0"),
            ("-1", "must be greater than 0, got -1"),
            (#""abc""#, #"expected a number or a fraction like "1/3""#),
            ("101", "must be at most 100, got 101"),
            ("1.0005", "1.0005 has more than 3 decimals; use a speed like 1.5, 0.125 or \"2/3\""),
            ("true", #"expected a number or a fraction like "1/3", found a boolean"#),
        ])
    func refused(_ value: String, _ message: String) throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                Self.scene(timing: #"{"speed": \#(value)}"#) { $0 }, to: dir, as: "speedy.json")
            let r = try Throbber.run(["render", config.path, "-o", dir.appendingPathComponent("x.gif").path])
            #expect(r.status == 65, "\(r.stderrText)")
            #expect(r.stderrLines == ["throbber: error: \(config.path): timing.speed: \(message)"], "\(r.stderrText)")
            #expect(try listing(dir) == ["speedy.json"])
        }
    }

    @Test("preset --speed --print-config writes timing.speed over the design's own times, and renders the same bytes")
    func printConfig() throws {
        for name in ["dots", "spinner", "ease", "bars"] {
            let plain = try Throbber.run(["preset", name, "--print-config"])
            let fast = try Throbber.run(["preset", name, "--speed", "1.5", "--print-config"])
            #expect(plain.status == 0 && fast.status == 0, "\(plain.stderrText)\(fast.stderrText)")
            let a = try #require(try JSONSerialization.jsonObject(with: plain.stdout) as? [String: Any])
            var b = try #require(try JSONSerialization.jsonObject(with: fast.stdout) as? [String: Any])
            var timing = try #require(b["timing"] as? [String: Any])
            #expect((timing["speed"] as? NSNumber)?.doubleValue == 1.5, "\(name): \(timing)")
            timing["speed"] = nil
            b["timing"] = timing
            // Everything else, every time included, is as the design has it.
            #expect(NSDictionary(dictionary: a).isEqual(to: b), "\(name): --speed changed more than timing.speed")
            try PresetCLITests.expectPrintConfigMatches(name, ["--speed", "1.5"])
            try PresetCLITests.expectPrintConfigMatches(name, ["--speed", "2/3", "--fps", "30"])
        }
    }
}
