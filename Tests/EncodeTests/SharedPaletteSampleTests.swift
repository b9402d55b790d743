import Testing

@testable import ThrobberEncode

/// Which frames `--palette shared` builds its palette from.
@Suite("Shared palette sample")
struct SharedPaletteSampleTests {
    @Test("an animation up to the limit gives every frame")
    func short() {
        #expect(GIFEncoder.sample(0, most: 120) == [])
        #expect(GIFEncoder.sample(1, most: 120) == [0])
        #expect(GIFEncoder.sample(120, most: 120) == Array(0..<120))
    }

    @Test("a longer one gives that many frames, evenly spaced, the first and the last included")
    func long() {
        #expect(GIFEncoder.sample(10, most: 4) == [0, 3, 6, 9])
        #expect(GIFEncoder.sample(7, most: 3) == [0, 3, 6])
        let s = GIFEncoder.sample(1200, most: 120)
        #expect(s.count == 120 && s.first == 0 && s.last == 1199)
        let gaps = Set(zip(s, s.dropFirst()).map { $1 - $0 })
        #expect(gaps == [10, 11], "gaps \(gaps)")
    }
}
