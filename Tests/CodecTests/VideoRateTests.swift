import Testing

@testable import ThrobberCodecs
@testable import ThrobberCore

/// A constant frame rate found through a coarse time base; every
/// timestamp list is worked out from the rate and the container's rounding.
@Suite struct VideoRateTests {
    /// Timestamps of `count` frames at `fps` in 1 ms ticks, rounded to the
    /// nearest tick (Matroska's muxer) or truncated.
    private func ticks(_ count: Int, fps: Rational, truncated: Bool = false) -> [Int64] {
        (0..<count).map { i in
            let ms = Rational(Int64(i) * 1000) / fps
            return truncated ? ms.floor : ms.roundedHalfUp
        }
    }

    private let ms = Rational(1, 1000)

    @Test func sixtyRoundedToMilliseconds() {
        let pts = ticks(120, fps: 60)
        #expect(pts.prefix(4) == [0, 17, 33, 50])
        // The last frame's packet says 16 ms (the default duration truncated).
        #expect(VideoRate.find(pts, lastLength: 16, timeBase: ms, guesses: []) == VideoRate(fps: 60, exact: false))
        #expect(
            VideoRate.find(ticks(120, fps: 60, truncated: true), lastLength: 16, timeBase: ms, guesses: [])?.fps == 60)
    }

    @Test func ntscPrefersFFmpegsGuess() {
        let ntsc = Rational(30000, 1001)
        let pts = ticks(30, fps: ntsc)
        #expect(VideoRate.find(pts, lastLength: 33, timeBase: ms, guesses: [ntsc])?.fps == ntsc)
        // Without a guess, the simplest rate every timestamp fits.
        let found = VideoRate.find(pts, lastLength: 33, timeBase: ms, guesses: [])?.fps
        let fits = found.map { fps in
            pts.indices.allSatisfy { i in abs(Double(pts[i]) - Double(i) * 1000 / fps.doubleValue) < 1 }
        }
        #expect(fits == true, "\(String(describing: found))")
    }

    @Test func exactGapsAreExact() {
        #expect(
            VideoRate.find([0, 40, 80, 120], lastLength: 40, timeBase: ms, guesses: [])
                == VideoRate(fps: 25, exact: true))
        // A last frame longer than the others: not constant.
        #expect(VideoRate.find([0, 40, 80, 120], lastLength: 41, timeBase: ms, guesses: []) == nil)
    }

    @Test func variableRatesAreNot() {
        #expect(VideoRate.find([0, 140, 200, 300, 440, 500], lastLength: 100, timeBase: ms, guesses: []) == nil)
        // Within a tick of 60 fps but the last frame twice as long.
        #expect(VideoRate.find(ticks(10, fps: 60), lastLength: 33, timeBase: ms, guesses: [60]) == nil)
    }

    @Test func simplestFraction() {
        #expect(VideoRate.simplest(above: Rational(59, 1), below: Rational(61, 1)) == 60)
        #expect(VideoRate.simplest(above: Rational(1, 3), below: Rational(1, 2)) == Rational(2, 5))
        #expect(VideoRate.simplest(above: Rational(0), below: Rational(1, 10)) == Rational(1, 11))
        // The smallest denominator q with a p/q strictly inside, found by trying every q in turn.
        #expect(VideoRate.simplest(above: Rational(2997, 100), below: Rational(2998, 100)) == Rational(1019, 34))
    }
}
