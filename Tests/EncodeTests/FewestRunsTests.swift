import TestSupport
import Testing

@testable import ThrobberKit

/// The choice between a pixel's own index and the transparent one that keeps
/// what is shown: fewest value changes, checked against brute force, and
/// on an encoded animation that must still decode exactly.
@Suite("Fewest runs")
struct FewestRunsTests {
    /// Value changes between neighbours.
    static func changes(_ v: [UInt8]) -> Int { zip(v, v.dropFirst()).filter { $0 != $1 }.count }

    @Test("hand-made cases: an unchanged pixel joins the run around it; a run of keepable pixels becomes one run")
    func handMade() {
        let none = FewestRuns.none
        // 0 0 [1 or 0] 0 0 → all zeros.
        #expect(
            FewestRuns.choose(primary: [0, 0, 1, 0, 0], alternative: [none, none, 0, none, none]) == [0, 0, 0, 0, 0])
        // 1 2 1 2 1 where the middle three may be transparent (3): 1 3 3 3 1.
        #expect(FewestRuns.choose(primary: [1, 2, 1, 2, 1], alternative: [none, 3, 3, 3, none]) == [1, 3, 3, 3, 1])
        // Nothing to choose: the primary indices come back.
        #expect(FewestRuns.choose(primary: [4, 5, 6], alternative: [none, none, none]) == [4, 5, 6])
        // A single pixel, and ties going to the alternative.
        #expect(FewestRuns.choose(primary: [7], alternative: [none]) == [7])
        #expect(FewestRuns.choose(primary: [1, 2], alternative: [none, 1]) == [1, 1])
    }

    @Test(
        "stretches: a stretch of pixels with alternatives turns into them when it holds two runs or more, else keeps its own values"
    )
    func stretches() {
        let none = FewestRuns.none
        // 5 | 1 1 2 2 | 5: two runs in the stretch → all four transparent (0).
        #expect(
            FewestRuns.stretches(primary: [5, 1, 1, 2, 2, 5], alternative: [none, 0, 0, 0, 0, none])
                == [5, 0, 0, 0, 0, 5])
        // 5 | 1 1 1 | 5: one run → kept, so it may continue a run of 1 beyond.
        #expect(
            FewestRuns.stretches(primary: [1, 1, 1, 1, 5], alternative: [none, 0, 0, 0, none]) == [1, 1, 1, 1, 5])
        // Two stretches judged apart: the first one run, the second two.
        #expect(
            FewestRuns.stretches(primary: [3, 3, 9, 4, 6, 6], alternative: [0, 0, none, 0, 0, 0])
                == [3, 3, 9, 0, 0, 0])
        // A stretch across a row end (LZW order) and one that runs to the end.
        #expect(FewestRuns.stretches(primary: [7, 8], alternative: [2, 2]) == [2, 2])
        #expect(FewestRuns.stretches(primary: [4, 5, 6], alternative: [none, none, none]) == [4, 5, 6])
    }

    @Test(
        "on random rows the choice has the fewest changes of value that any choice has (brute force over 2^k choices)")
    func matchesBruteForce() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<300 {
            let n = Int(random.next() % 12) + 1
            let primary = (0..<n).map { _ in UInt8(random.next() % 3) }
            let alternative = (0..<n).map { _ in random.next() % 2 == 0 ? FewestRuns.none : Int16(random.next() % 4) }
            let chosen = FewestRuns.choose(primary: primary, alternative: alternative)
            for i in 0..<n {
                #expect(chosen[i] == primary[i] || Int16(chosen[i]) == alternative[i], "pixel \(i) is neither choice")
            }
            let free = (0..<n).filter { alternative[$0] >= 0 }
            var best = Int.max
            for mask in 0..<(1 << free.count) {
                var v = primary
                for (bit, i) in free.enumerated() where mask >> bit & 1 == 1 { v[i] = UInt8(alternative[i]) }
                best = min(best, Self.changes(v))
            }
            #expect(Self.changes(chosen) == best, "primary \(primary) alternative \(alternative) → \(chosen)")
        }
    }

    /// Conway's life on a torus, two colors, from a seeded random grid: most
    /// pixels stay, the changes are scattered.
    static func life(frames: Int, width: Int = 64, height: Int = 48) -> [RGBAImage] {
        var random = SeededRandom(seed: 42)
        var cells = (0..<(width * height)).map { _ in random.next() % 3 == 0 }
        var out: [RGBAImage] = []
        for _ in 0..<frames {
            let grid = cells
            out.append(
                Synth.image(width, height) { x, y in grid[y * width + x] ? (250, 250, 240, 255) : (10, 20, 30, 255) })
            cells = (0..<(width * height)).map { i in
                let x = i % width
                let y = i / width
                var n = 0
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        if grid[(y + dy + height) % height * width + (x + dx + width) % width] { n += 1 }
                    }
                }
                return n == 3 || (n == 2 && grid[i])
            }
        }
        return out
    }

    @Test(
        "a two-color life animation, where kept and redrawn pixels are mixed per pixel, decodes exactly in giflib and Pillow"
    )
    func lifeDecodesExactly() throws {
        let frames = Self.life(frames: 12)
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        // (Whether a frame ends up with transparent pixels is the writer's
        // choice by size: here drawing the kept pixels in their own color
        // makes fewer runs, and a frame that keeps none names no
        // transparent index.)
        #expect(gif.giflib.frames.count == frames.count)
        expectViewersShow(gif, frames.map { ($0, 10) })
    }
}
