import Testing

@testable import ThrobberCodecs
@testable import ThrobberCore
@testable import ThrobberEncode

/// Which libwebp settings the WebP encoder races (`WebPRace.candidates`):
/// method 4 at effort 100 joins methods 3 and 5 only where libwebp would
/// otherwise bin the histograms of a frame and the exhaustive race is out.
@Suite("WebP racers")
struct WebPRacerTests {
    static func settings(_ change: (inout EncodeSettings) -> Void = { _ in }) -> EncodeSettings {
        var s = EncodeSettings()
        change(&s)
        return s
    }

    static func list(_ s: EncodeSettings, frames: Int, _ width: Int, _ height: Int) -> [String] {
        WebPRace.candidates(s, frames: frames, size: FrameSize(width: width, height: height)).map {
            "m\($0.method)q\(Int($0.quality))"
        }
    }

    @Test("effort 100 at method 4 is raced second on large frames of long animations, in the default only")
    func fullEffort() {
        let best = Self.settings()
        #expect(Self.list(best, frames: 100, 320, 240) == ["m3q50", "m4q100", "m5q90"])
        // 12x12 = 144 tiles of 8x8: more than 128.
        #expect(Self.list(best, frames: 100, 96, 96) == ["m3q50", "m4q100", "m5q90"])
        // 11x11 = 121 tiles: libwebp never bins them, effort 100 gains nothing.
        #expect(Self.list(best, frames: 100, 88, 88) == ["m3q50", "m5q90"])
        // 16 frames of 128x128 are 256 Ki pixels: the exhaustive race
        // instead, without method 3 but for a palette WebP.
        #expect(Self.list(best, frames: 16, 128, 128) == ["m5q90", "m6q100"])
        #expect(Self.list(Self.settings { $0.colors = 16 }, frames: 16, 128, 128) == ["m3q50", "m5q90", "m6q100"])
        #expect(Self.list(best, frames: 17, 128, 128) == ["m3q50", "m4q100", "m5q90"])
        // At most twice the prefix: too short for the prefix to decide.
        #expect(Self.list(best, frames: 8, 320, 240) == ["m3q50", "m5q90"])
        #expect(Self.list(best, frames: 9, 320, 240) == ["m3q50", "m4q100", "m5q90"])
        #expect(Self.list(Self.settings { $0.compression = .fast }, frames: 100, 320, 240) == ["m1q25"])
        #expect(
            Self.list(Self.settings { $0.compression = .max }, frames: 100, 320, 240) == ["m3q50", "m5q90", "m6q100"])
        #expect(Self.list(Self.settings { $0.colors = 64 }, frames: 100, 320, 240) == ["m3q50", "m5q90"])
        #expect(Self.list(Self.settings { $0.quality = 75 }, frames: 100, 320, 240) == ["m4q75"])
    }
}

/// Which racers the first frames stop (`WebPRace.prefixLosers`), from each
/// racer's prefix size, the racers in the default's order: methods 3, 4 at
/// effort 100, and 5.
@Suite("WebP prefix race")
struct WebPPrefixRaceTests {
    static let order = [WebPTuning.method3, WebPTuning.fullEffort, WebPTuning.method5]

    @Test("effort 100 goes on only 1 % under both others, and then the larger of them stops")
    func fullEffortPays() {
        #expect(WebPRace.prefixLosers([1000, 980, 990], settings: Self.order, full: 1) == [0])
        #expect(WebPRace.prefixLosers([990, 980, 1000], settings: Self.order, full: 1) == [2])
        // Equal others: the later stops.
        #expect(WebPRace.prefixLosers([1000, 980, 1000], settings: Self.order, full: 1) == [2])
    }

    @Test("method 5 stops with effort 100 where method 3's prefix is 1 % smaller")
    func methodThreeAlone() {
        #expect(WebPRace.prefixLosers([966, 997, 1000], settings: Self.order, full: 1) == [1, 2])
        // Exactly 1 % smaller.
        #expect(WebPRace.prefixLosers([990, 995, 1000], settings: Self.order, full: 1) == [1, 2])
        // 0.9 % smaller, or equal: method 5 goes on.
        #expect(WebPRace.prefixLosers([991, 995, 1000], settings: Self.order, full: 1) == [1])
        #expect(WebPRace.prefixLosers([1000, 1000, 1000], settings: Self.order, full: 1) == [1])
        #expect(WebPRace.prefixLosers([1000, 990, 980], settings: Self.order, full: 1) == [1])
    }
}
