import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// The config format's timing (man throbber, CONFIG FORMAT): frame k starts at floor(100·t_k + 1/2) cs, computed
/// exactly; GIF delays are the differences, so they never drift. Expected
/// values are written out by hand or computed here in integers
/// (`expectedStartCentiseconds`), never by the code under test.
@Suite("Timing")
struct TimelineTests {
    static func delays(count: Int, fps num: Int, _ den: Int = 1) -> [Int64] {
        (0..<count).map {
            Int64(
                expectedStartCentiseconds($0 + 1, fpsNumerator: num, fpsDenominator: den)
                    - expectedStartCentiseconds($0, fpsNumerator: num, fpsDenominator: den))
        }
    }

    @Test("30 fps: delays 3,4,3, 3,4,3, … and every 30 frames add up to exactly 100 cs")
    func thirtyFPS() {
        let timeline = Timeline(sourceCount: 300, settings: .init(fps: Rational(30)))
        let delays = timeline.delaysCentiseconds
        #expect(Array(delays.prefix(6)) == [3, 4, 3, 3, 4, 3])
        #expect(delays == Self.delays(count: 300, fps: 30))
        for second in 0..<10 {
            #expect(delays[(second * 30)..<(second * 30 + 30)].reduce(0, +) == 100, "second \(second)")
        }
    }

    @Test("40 fps: 30 frames of 2 or 3 cs that add up to 75 cs; 2.5 rounds half up to 3")
    func fortyFPS() {
        let delays = Timeline(sourceCount: 30, settings: .init(fps: Rational(40))).delaysCentiseconds
        #expect(Array(delays.prefix(4)) == [3, 2, 3, 2])  // starts 0, 3 (2.5↑), 5, 8 (7.5↑), 10
        #expect(delays.allSatisfy { $0 == 2 || $0 == 3 })
        #expect(delays.reduce(0, +) == 75)
        #expect(delays == Self.delays(count: 30, fps: 40))
    }

    @Test(
        "fractional fps is exact: 30000/1001 for 3000 frames lasts 10010 cs",
        arguments: [
            (30000, 1001, 3000), (25, 1, 1000), (7, 3, 100), (50, 1, 999), (24, 1, 240),
        ])
    func exactRates(num: Int, den: Int, count: Int) throws {
        let fps = try #require(Rational(parsing: "\(num)/\(den)"))
        let timeline = Timeline(sourceCount: count, settings: .init(fps: fps))
        let delays = timeline.delaysCentiseconds
        #expect(delays == Self.delays(count: count, fps: num, den))
        // The total is the rounded exact length: count·den/num seconds.
        #expect(delays.reduce(0, +) == Int64((200 * count * den + num) / (2 * num)))
        #expect(timeline.duration == Rational(Int64(count * den), Int64(num)))
    }

    @Test("duplicate shows each frame n times in a row")
    func duplicate() {
        let timeline = Timeline(sourceCount: 3, settings: .init(fps: Rational(10), duplicate: 2))
        #expect(timeline.entries.map(\.source) == [0, 0, 1, 1, 2, 2])
        #expect(timeline.delaysCentiseconds == [10, 10, 10, 10, 10, 10])
    }

    @Test(
        "bounce plays 0, 1, …, n−1, n−2, …, 1 without repeating the ends",
        arguments: [
            (1, [0]), (2, [0, 1]), (3, [0, 1, 2, 1]), (5, [0, 1, 2, 3, 4, 3, 2, 1]),
        ])
    func bounce(count: Int, order: [Int]) {
        let timeline = Timeline(sourceCount: count, settings: .init(fps: Rational(20), bounce: true))
        #expect(timeline.entries.map(\.source) == order)
        #expect(timeline.delaysCentiseconds == Array(repeating: 5, count: order.count))
    }

    @Test("bounce and duplicate together duplicate every shown frame")
    func bounceAndDuplicate() {
        let timeline = Timeline(sourceCount: 3, settings: .init(fps: Rational(10), duplicate: 2, bounce: true))
        #expect(timeline.entries.map(\.source) == [0, 0, 1, 1, 2, 2, 1, 1])
    }

    @Test("a fixed delay replaces fps: every frame is shown that many cs")
    func fixedDelay() {
        let timeline = Timeline(sourceCount: 4, settings: .init(fps: Rational(30), delay: 7))
        #expect(timeline.delaysCentiseconds == [7, 7, 7, 7])
        #expect(timeline.duration == Rational(28, 100))
    }

    @Test(
        "Rational(parsing:) reads integers, fractions and finite decimals exactly",
        arguments: [
            ("3", 3, 1), ("-2/3", -2, 3), ("4/6", 2, 3), ("0.25", 1, 4), ("-1.5", -3, 2), ("30000/1001", 30000, 1001),
            ("29.97", 2997, 100), ("0.1", 1, 10),
        ])
    func rationalParsing(text: String, numerator: Int64, denominator: Int64) throws {
        let r = try #require(Rational(parsing: text), "\(text) should parse")
        #expect(r.numerator == numerator && r.denominator == denominator, "\(text) → \(r)")
    }

    @Test(
        "Rational(parsing:) refuses what is not a number",
        arguments: ["", "abc", "1/0", "1/2/3", "1.2.3", ".", "1e3", "--1", "0x10", " 1"])
    func rationalRefuses(text: String) {
        #expect(Rational(parsing: text) == nil, "\(text) should not parse")
    }

    @Test(
        "GIF delays read back from the file are the timeline's (30 fps, 40 fps), with giflib and Pillow",
        arguments: [30, 40])
    func delaysInTheFile(fps: Int) throws {
        let frames = (0..<30).map { Synth.solid(UInt8($0 * 8), 100, 200) }  // all distinct: nothing merges
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(Int64(fps)) })
        let expected = Self.delays(count: 30, fps: fps).map(Int.init)
        #expect(gif.giflib.frames.map(\.delay) == expected)
        #expect(gif.pillow?.frames.map(\.durationMs) == expected.map { $0 * 10 })
        #expect(gif.giflib.totalDelay == (fps == 30 ? 100 : 75))
        #expect(gif.report.durationCentiseconds == (fps == 30 ? 100 : 75))
    }

    @Test("fps over 50, a delay under 2 cs and duplicate 0 are refused as usage errors")
    func invalidTiming() {
        for settings in [
            EncodeSettings.with { $0.timing.fps = Rational(51) },
            .with { $0.timing.fps = Rational(0) },
            .with { $0.timing.delay = 1 },
            .with { $0.timing.duplicate = 0 },
        ] {
            let error = throbberError { try settings.validate(for: .gif) }
            #expect(error?.kind == .usage, "\(settings.timing): \(String(describing: error))")
        }
        #expect(throws: Never.self) { try EncodeSettings.with { $0.timing.fps = Rational(50) }.validate(for: .gif) }
        #expect(throws: Never.self) {
            try EncodeSettings.with { $0.timing.fps = Rational(30000, 1001) }.validate(for: .gif)
        }
    }
}
