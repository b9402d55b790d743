import Testing
import ThrobberKit

/// Which frames of a clip are shown and for how long; every expectation
/// is worked out by hand from the clip's timestamps.
@Suite struct VideoTimingRuleTests {
    private func r(_ n: Int64, _ d: Int64 = 1) -> Rational { Rational(n, d) }
    private let gif = Rational(1, 50)

    @Test func constantRateKeepsEveryFrame() {
        let starts = (0..<10).map { r($0, 25) }
        let t = VideoTiming(starts: starts, length: r(10, 25), shortest: gif)
        #expect(t.frames == Array(0..<10))
        #expect(t.durations == Array(repeating: r(1, 25), count: 10))
    }

    @Test func sixtyFPSShowsEverySecondFrameAndMergesAShortLastOne() {
        // 7 frames at 60 fps: 0, 2, 4 kept; 6 would last 1/60 s < 1/50 s.
        let t = VideoTiming(starts: (0..<7).map { r($0, 60) }, length: r(7, 60), shortest: gif)
        #expect(t.frames == [0, 2, 4])
        #expect(t.durations == [r(2, 60), r(2, 60), r(3, 60)])
        let sum = t.durations.reduce(r(0), +)
        #expect(sum == r(7, 60))
    }

    @Test func oneTwentyFPSShowsEveryThirdFrame() {
        let t = VideoTiming(starts: (0..<9).map { r($0, 120) }, length: r(9, 120), shortest: gif)
        #expect(t.frames == [0, 3, 6])
        #expect(t.durations == [r(3, 120), r(3, 120), r(3, 120)])
    }

    @Test func variableRateKeepsUnevenDelays() {
        let starts = [r(0), r(1, 10), r(13, 100), r(1, 2)]
        let t = VideoTiming(starts: starts, length: r(6, 10), shortest: gif)
        #expect(t.frames == [0, 1, 2, 3])
        #expect(t.durations == [r(1, 10), r(3, 100), r(37, 100), r(1, 10)])
        // 10 ms after the frame before is faster than GIF shows: skipped,
        // the frame before covers it.
        let close = VideoTiming(
            starts: [r(0), r(1, 10), r(11, 100), r(1, 2)], length: r(6, 10), shortest: gif)
        #expect(close.frames == [0, 1, 3])
        #expect(close.durations == [r(1, 10), r(4, 10), r(1, 10)])
        // Without a fastest rate (APNG, WebP) nothing is skipped.
        let any = VideoTiming(starts: [r(0), r(1, 10), r(11, 100), r(1, 2)], length: r(6, 10), shortest: nil)
        #expect(any.frames == [0, 1, 2, 3])
    }

    @Test func resamplingPicksTheFrameOnScreenMidFrame() {
        // 60 → 50 fps over one second: source frame i lands in slot
        // round(5i/6): 0→0, 1→1, 2→2, 3→3 (2.5 rounds up), 4→3, 5→4.
        let t = VideoTiming(starts: (0..<60).map { r($0, 60) }, length: r(1), shortest: gif, fps: r(50))
        #expect(t.frames.count == 50)
        #expect(Array(t.frames.prefix(5)) == [0, 1, 2, 4, 5])
        #expect(t.durations == Array(repeating: r(1, 50), count: 50))
        // 30 → 10 fps: frame 3j+1 (j/10 + 1/30 s) still rounds to slot j.
        let ten = VideoTiming(starts: (0..<90).map { r($0, 30) }, length: r(3), shortest: gif, fps: r(10))
        #expect(ten.frames == (0..<30).map { 3 * $0 + 1 })
    }

    @Test func resamplingAVariableRateClip() {
        // Frames at 0, 0.25 and 0.3 s of a 1 s clip, at 4 fps: slots
        // round(4t) = 0, 1, 1 (1.2); the frame at 0.3 s wins slot 1 and on.
        let t = VideoTiming(starts: [r(0), r(1, 4), r(3, 10)], length: r(1), shortest: gif, fps: r(4))
        #expect(t.frames == [0, 2, 2, 2])
    }

    @Test func aRateFasterThanTheFormatIsCappedToIt() {
        // 100 fps asked for GIF: at most 50 frames a second.
        let t = VideoTiming(starts: (0..<100).map { r($0, 100) }, length: r(1), shortest: gif, fps: r(100))
        #expect(t.frames.count == 50)
        #expect(t.durations[0] == r(1, 50))
    }
}

/// Times as people type them for --from and --to, and as messages print them.
@Suite struct ClockTimeTests {
    @Test func parsesSecondsMinutesAndHours() {
        #expect(ClockTime.parse("90") == Rational(90))
        #expect(ClockTime.parse("1.5") == Rational(3, 2))
        #expect(ClockTime.parse("1:30") == Rational(90))
        #expect(ClockTime.parse("01:02:03.250") == Rational(3_723_250, 1000))
        #expect(ClockTime.parse("0:00.001") == Rational(1, 1000))
        #expect(ClockTime.parse("2.123456") == Rational(2_123_456, 1_000_000))
        for bad in ["", "-1", "1:60", "1:2:3:4", "a", "1.5:00", "1e3", ":30", "101:00:00", "+3", "1.1234567"] {
            #expect(ClockTime.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func printsMinutesSecondsAndMilliseconds() {
        #expect(ClockTime.text(Rational(312, 100)) == "0:03.120")
        #expect(ClockTime.text(Rational(90)) == "1:30.000")
        #expect(ClockTime.text(Rational(3_723_250, 1000)) == "1:02:03.250")
        #expect(ClockTime.text(Rational(1, 3)) == "0:00.333")
    }
}
