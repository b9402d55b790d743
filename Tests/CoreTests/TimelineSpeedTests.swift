import Testing

@testable import ThrobberKit

@Suite("Timeline speed: exact rational time")
struct TimelineSpeedTests {
    @Test("--speed 1.5 of 30 fps: 90 frames last exactly 2 s, delays 2 or 3 cs adding up to 200 with no drift")
    func speedOneAndAHalf() {
        var settings = Timeline.Settings(fps: Rational(30))
        settings.speed = Rational(3, 2)
        let timeline = Timeline(sourceCount: 90, settings: settings)
        #expect(timeline.duration == Rational(2))
        let delays = timeline.delaysCentiseconds
        #expect(delays.reduce(0, +) == 200)
        #expect(Set(delays) == [2, 3])
        // Every 45 frames end on a whole second: 100 cs exactly.
        #expect(delays[0..<45].reduce(0, +) == 100)
    }

    @Test("a speed divides the durations an animated input brings, and the fixed delay")
    func animatedDurations() throws {
        let source = TimedFrames(durations: [Rational(1, 10), Rational(3, 10), Rational(1, 2)])
        var settings = Timeline.Settings()
        settings.speed = Rational(2)
        let timeline = Timeline(source: source, settings: settings)
        #expect(timeline.delaysCentiseconds == [5, 15, 25])
        settings.retime = true
        settings.delay = 10
        settings.speed = Rational(1, 2)
        #expect(Timeline(source: source, settings: settings).delaysCentiseconds == [20, 20, 20])
    }

    @Test("the shortest entry is the shortest time any frame is shown")
    func shortest() {
        let timeline = Timeline(
            durations: [Rational(1, 10), Rational(1, 30), Rational(1)], duplicates: [1, 2, 1], bounce: false)
        #expect(timeline.shortestEntry == Rational(1, 30))
    }
}

/// Frames that only carry durations (never drawn).
private struct TimedFrames: FrameSource {
    let durations: [Rational]
    var count: Int { durations.count }
    func name(at index: Int) -> String { "frame \(index)" }
    func frame(at index: Int) throws -> RGBAImage { RGBAImage(width: 1, height: 1) }
    func duration(at index: Int) -> Rational? { durations[index] }
}
