import Testing

@testable import ThrobberKit

/// `Timeline.sample(runs:length:)`: stretches of consecutive entries
/// spread over the whole loop, first and last at its ends, each entry
/// keeping its own duration; the whole loop when it is short.
@Suite("Timeline samples")
struct TimelineSampleTests {
    @Test("3 stretches of 2 entries from 10 frames at 10 fps: frames 0-1, 4-5 and 8-9, 0.1 s each")
    func spreadOverTheLoop() {
        let timeline = Timeline(sourceCount: 10, settings: .init(fps: Rational(10)))
        let sample = timeline.sample(runs: 3, length: 2)
        #expect(sample.entries.map(\.source) == [0, 1, 4, 5, 8, 9])
        #expect(sample.duration == Rational(6, 10))
        #expect(sample.entries.map(\.start) == (0..<6).map { Rational(Int64($0), 10) })
    }

    @Test("own durations are kept: a frame shown twice as long stays so in the sample")
    func keepsDurations() {
        let timeline = Timeline(
            durations: [Rational(1, 10), Rational(2, 10), Rational(1, 10), Rational(3, 10), Rational(1, 10)],
            duplicates: [1, 1, 1, 1, 1], bounce: false)
        let sample = timeline.sample(runs: 2, length: 2)
        #expect(sample.entries.map(\.source) == [0, 1, 3, 4])
        #expect(sample.duration == Rational(7, 10))
    }

    @Test("a loop no longer than the sample is the sample")
    func shortLoop() {
        let timeline = Timeline(sourceCount: 6, settings: .init(fps: Rational(25)))
        #expect(timeline.sample(runs: 3, length: 2) == timeline)
        #expect(timeline.sample(runs: 8, length: 4) == timeline)
    }
}
