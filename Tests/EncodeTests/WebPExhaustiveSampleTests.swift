import TestSupport
import Testing

@testable import ThrobberCodecs
@testable import ThrobberCore
@testable import ThrobberEncode

/// What the default WebP encode codes at the exhaustive setting before it
/// races it (`WebPRace.ExhaustiveSample`), and the rectangle helpers it
/// rests on.
@Suite("WebP exhaustive sample", .tags(.slow))
struct WebPExhaustiveSampleTests {
    /// A `width`×`height` frame on `background` with the rectangles in
    /// `marks` filled with their colors (later ones over earlier ones).
    static func frame(
        _ width: Int, _ height: Int, background: [UInt8] = [0, 0, 0, 0], _ marks: [(PixelRect, [UInt8])] = []
    ) -> RGBAImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let mark = marks.last { x >= $0.0.x && x < $0.0.maxX && y >= $0.0.y && y < $0.0.maxY }
                pixels += mark?.1 ?? background
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func rect(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRect { PixelRect(x: x, y: y, width: w, height: h) }
    static let red: [UInt8] = [255, 0, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 128]

    @Test("intersection and area: overlapping, touching, apart, inside")
    func intersection() {
        let a = Self.rect(0, 0, 10, 10)
        #expect(a.intersection(Self.rect(5, 6, 10, 10)) == Self.rect(5, 6, 5, 4))
        #expect(a.intersection(Self.rect(5, 6, 10, 10)).area == 20)
        #expect(a.intersection(Self.rect(2, 3, 4, 1)) == Self.rect(2, 3, 4, 1))
        // Touching edges and apart: nothing in common.
        #expect(a.intersection(Self.rect(10, 0, 5, 5)).isEmpty)
        #expect(a.intersection(Self.rect(10, 0, 5, 5)).area == 0)
        #expect(a.intersection(Self.rect(-20, -20, 5, 5)).area == 0)
        #expect(Self.rect(0, 0, 0, 7).area == 0)
        #expect(Self.rect(0, 0, -3, 7).area == 0)
    }

    @Test("content box: what differs from the top-left pixel; clear pixels of any RGB are one background")
    func contentBox() {
        #expect(FrameDiff.contentBox(Self.frame(8, 6, [(Self.rect(2, 1, 3, 4), Self.red)])) == Self.rect(2, 1, 3, 4))
        // Two marks: the box holds both.
        let two = Self.frame(8, 6, [(Self.rect(1, 1, 1, 1), Self.red), (Self.rect(6, 4, 2, 2), Self.blue)])
        #expect(FrameDiff.contentBox(two) == Self.rect(1, 1, 7, 5))
        // Clear pixels whose invisible RGB differs are background.
        let ghost = Self.frame(8, 6, [(Self.rect(0, 0, 8, 3), [9, 9, 9, 0]), (Self.rect(4, 4, 1, 1), Self.red)])
        #expect(FrameDiff.contentBox(ghost) == Self.rect(4, 4, 1, 1))
        // An opaque background: the marks on it, whatever their alpha.
        let white: [UInt8] = [255, 255, 255, 255]
        let onWhite = Self.frame(8, 6, background: white, [(Self.rect(3, 2, 2, 2), [0, 0, 0, 0])])
        #expect(FrameDiff.contentBox(onWhite) == Self.rect(3, 2, 2, 2))
        // A mark at the top-left corner makes the corner the drawing: the
        // rest differs from it, so the box is the whole frame.
        #expect(FrameDiff.contentBox(Self.frame(8, 6, [(Self.rect(0, 0, 1, 1), Self.red)])) == Self.rect(0, 0, 8, 6))
        // One color, clear or not: empty.
        #expect(FrameDiff.contentBox(Self.frame(8, 6)).isEmpty)
        #expect(FrameDiff.contentBox(Self.frame(8, 6, background: white)).isEmpty)
    }

    @Test("a drawing turned or grown: the rectangle coincides with it; cropped to what is drawn")
    func coinciding() {
        // A 20x20 square, then the same place redrawn a little larger.
        let first = Self.frame(64, 64, [(Self.rect(10, 10, 20, 20), Self.red)])
        let next = Self.frame(64, 64, [(Self.rect(9, 9, 22, 22), Self.blue)])
        let s = WebPRace.ExhaustiveSample(first, next: next)
        #expect(s.drawn?.width == 20 && s.drawn?.height == 20)
        #expect(s.drawn?.pixels.count == 20 * 20 * 4 && s.drawn?.pixels.prefix(4).elementsEqual(Self.red) == true)
        #expect(s.changed?.width == 22 && s.changed?.height == 22)
        #expect(s.changed?.pixels.prefix(4).elementsEqual(Self.blue) == true)
        #expect(s.coincide)
    }

    @Test("a small change inside the drawing, or beside it, is something else: sampled on its own")
    func apart() {
        // Five bars; the third stretches (the bars preset).
        let bars = (0..<5).map { (Self.rect(8 + 10 * $0, 20, 6, 20), Self.red) }
        let first = Self.frame(64, 64, bars)
        let next = Self.frame(64, 64, bars + [(Self.rect(28, 16, 6, 28), Self.red)])
        let s = WebPRace.ExhaustiveSample(first, next: next)
        #expect(s.drawn?.width == 46 && s.drawn?.height == 20)
        #expect(s.changed?.width == 6 && s.changed?.height == 28)
        #expect(!s.coincide)
        // A dot that moves far away: overlap nothing.
        let dot = Self.frame(64, 64, [(Self.rect(0, 30, 4, 4), Self.red)])
        let moved = Self.frame(64, 64, [(Self.rect(60, 30, 4, 4), Self.red)])
        #expect(!WebPRace.ExhaustiveSample(dot, next: moved).coincide)
        // Half the larger box in common is enough to coincide; less is
        // not: a 40x10 bar whose left 20 (then 19) columns change color.
        let wide = Self.frame(64, 64, [(Self.rect(0, 10, 40, 10), Self.red)])
        let half = Self.frame(64, 64, [(Self.rect(0, 10, 40, 10), Self.red), (Self.rect(0, 10, 20, 10), Self.blue)])
        #expect(WebPRace.ExhaustiveSample(wide, next: half).coincide)
        let less = Self.frame(64, 64, [(Self.rect(0, 10, 40, 10), Self.red), (Self.rect(0, 10, 19, 10), Self.blue)])
        #expect(!WebPRace.ExhaustiveSample(wide, next: less).coincide)
    }

    @Test("a blank first frame: only the rectangle; one frame: only the drawing; nothing drawn: no sample")
    func partial() throws {
        let blank = Self.frame(32, 32)
        let grown = Self.frame(32, 32, [(Self.rect(8, 8, 16, 16), Self.red)])
        let s = WebPRace.ExhaustiveSample(blank, next: grown)
        #expect(s.drawn == nil && s.changed?.width == 16 && !s.coincide)
        let alone = WebPRace.ExhaustiveSample(grown, next: nil)
        #expect(alone.drawn?.width == 16 && alone.changed == nil && !alone.coincide)
        let none = WebPRace.ExhaustiveSample(blank, next: nil)
        #expect(none.drawn == nil && none.changed == nil)
        #expect(try WebPRace.exhaustivePays(blank, next: nil, frames: 10) == false)
    }

    @Test("the exhaustive coder uses a side thread only for the exhaustive setting and only with two jobs")
    func sideThread() {
        #expect(WebPRace.sideThread(WebPTuning.exhaustive, jobs: 2))
        #expect(!WebPRace.sideThread(WebPTuning.exhaustive, jobs: 1))
        #expect(!WebPRace.sideThread(WebPTuning.fullEffort, jobs: 4))
    }
}
