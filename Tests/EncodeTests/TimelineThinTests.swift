import Testing

@testable import ThrobberEncode
@testable import ThrobberKit

/// `Timeline.thinned(every:)`: every kth entry, each shown until the next
/// one kept, so the loop lasts as long; and the ladder of reductions a
/// byte budget may try with the user's leave.
@Suite("Timeline thinning and budget reductions")
struct TimelineThinTests {
    @Test("10 frames at 25 fps, every 3rd: frames 0, 3, 6, 9 for 3, 3, 3 and 1 frame times; 0.4 s as before")
    func everyThird() {
        let timeline = Timeline(sourceCount: 10, settings: .init(fps: Rational(25)))
        let thin = timeline.thinned(every: 3)
        #expect(thin.entries.map(\.source) == [0, 3, 6, 9])
        #expect(thin.entries.map(\.start) == [Rational(0), Rational(3, 25), Rational(6, 25), Rational(9, 25)])
        #expect(thin.duration == Rational(2, 5))
    }

    @Test("own durations add up: 0.1, 0.2, 0.1, 0.3, 0.1 s every 2nd is 0.3, 0.4, 0.1 s")
    func ownDurations() {
        let timeline = Timeline(
            durations: [Rational(1, 10), Rational(2, 10), Rational(1, 10), Rational(3, 10), Rational(1, 10)],
            duplicates: [1, 1, 1, 1, 1], bounce: false)
        let thin = timeline.thinned(every: 2)
        #expect(thin.entries.map(\.source) == [0, 2, 4])
        #expect(thin.entries.map(\.start) == [Rational(0), Rational(3, 10), Rational(7, 10)])
        #expect(thin.duration == Rational(8, 10))
    }

    @Test("every 1st is the timeline itself")
    func everyFirst() {
        let timeline = Timeline(sourceCount: 7, settings: .init(fps: Rational(10)))
        #expect(timeline.thinned(every: 1) == timeline)
    }

    @Test("the reductions, least first: frames 2, 3, 4, 6, 8; sizes 3/4 to 1/4; together by share, frames first")
    func ladder() {
        #expect(BudgetReduction.ladder(.frameRate).map(\.every) == [2, 3, 4, 6, 8])
        #expect(BudgetReduction.ladder(.frameRate).allSatisfy { $0.scale == 1 })
        #expect(BudgetReduction.ladder(.size).map(\.scale) == [0.75, 0.5, 0.375, 0.25])
        let both = BudgetReduction.ladder([.frameRate, .size])
        #expect(both.count == 6 * 5 - 1)
        #expect(both.prefix(4).map { [Double($0.every), $0.scale] } == [[1, 0.75], [2, 1], [3, 1], [2, 0.75]])
        // 1/4 of the pixels a second either way: every 4th frame before half the size.
        let quarter = both.filter { $0.share == 0.25 }.map(\.every)
        #expect(quarter == [4, 1])
        #expect(zip(both, both.dropFirst()).allSatisfy { $0.share >= $1.share })
    }

    @Test("--allow-reduce's names: fps, size, both in any order; anything else is refused")
    func names() {
        #expect(BudgetReductions.parse("fps") == .frameRate)
        #expect(BudgetReductions.parse("size,fps") == [.frameRate, .size])
        #expect(BudgetReductions.parse("FPS, size") == [.frameRate, .size])
        #expect(BudgetReductions.parse("speed") == nil)
        #expect(BudgetReductions.parse("fps,") == nil)
    }
}
