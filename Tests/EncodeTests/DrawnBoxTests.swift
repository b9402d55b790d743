import Testing

@testable import ThrobberKit

/// ``DrawnBox``'s rule on hand-drawn frames, whose boxes are known from
/// where the pixels were put.
@Suite("DrawnBox: the border the corners give, and the union of what differs from it")
struct DrawnBoxTests {
    /// A `w`×`h` frame of `fill` with `marks` (x, y, w, h, color) drawn on it.
    func frame(_ w: Int, _ h: Int, fill: Color, _ marks: [(Int, Int, Int, Int, Color)]) -> RGBAImage {
        var image = RGBAImage(width: w, height: h, fill: fill)
        for (x, y, mw, mh, color) in marks {
            image.draw(RGBAImage(width: mw, height: mh, fill: color), at: x, y, over: false)
        }
        return image
    }

    func box(_ frames: [RGBAImage], jobs: Int = 1, within: PixelRect? = nil) throws -> DrawnBox {
        try DrawnBox.find(
            in: MemoryFrameSource(frames),
            within: { within ?? PixelRect(x: 0, y: 0, width: $0, height: $1) }, jobs: jobs)
    }

    let red = Color(r: 255, g: 0, b: 0, a: 255)
    let white = Color(r: 255, g: 255, b: 255, a: 255)

    @Test(
        "transparent frames: the union of pixels with any alpha, also when one touches a corner; the same for any jobs"
    )
    func transparent() throws {
        let frames = [
            frame(40, 30, fill: .transparent, [(5, 6, 3, 2, red)]),
            frame(40, 30, fill: .transparent, [(20, 10, 4, 4, Color(r: 0, g: 0, b: 0, a: 1))]),
            frame(40, 30, fill: .transparent, [(36, 0, 4, 2, red)]),  // the top-right corner
            frame(40, 30, fill: .transparent, []),
        ]
        for jobs in [1, 2, 3, 8] {
            let b = try box(frames, jobs: jobs)
            #expect(b.rect == PixelRect(x: 5, y: 0, width: 35, height: 14) && !b.isBlank, "jobs \(jobs): \(b)")
        }
    }

    @Test("opaque frames with one corner color: pixels that differ from it; inside a crop, the crop's corners count")
    func opaque() throws {
        let frames = [
            frame(40, 30, fill: white, [(10, 12, 2, 2, red)]),
            frame(40, 30, fill: white, [(14, 8, 1, 1, Color(r: 255, g: 255, b: 254, a: 255))]),
        ]
        #expect(try box(frames).rect == PixelRect(x: 10, y: 8, width: 5, height: 6))
        let crop = PixelRect(x: 11, y: 0, width: 20, height: 30)
        #expect(try box(frames, within: crop).rect == PixelRect(x: 11, y: 8, width: 4, height: 6))
    }

    @Test("opaque corners of different colors, or frames that disagree on the border: nothing is trimmed")
    func disagree() throws {
        let split = frame(40, 30, fill: white, [(0, 0, 20, 30, red), (25, 5, 2, 2, red)])
        #expect(try box([split]).rect == PixelRect(x: 0, y: 0, width: 40, height: 30))
        let mixed = [
            frame(40, 30, fill: white, [(10, 12, 2, 2, red)]),
            frame(40, 30, fill: .transparent, [(10, 12, 2, 2, red)]),
        ]
        #expect(try box(mixed).rect == PixelRect(x: 0, y: 0, width: 40, height: 30))
    }

    @Test("nothing drawn: the top-left pixel of the area, marked blank; a margin grows it within the frame")
    func blank() throws {
        let frames = [frame(40, 30, fill: .transparent, []), frame(40, 30, fill: .transparent, [])]
        let b = try box(frames)
        #expect(b.isBlank && b.rect == PixelRect(x: 0, y: 0, width: 1, height: 1))
        var t = FrameTransform()
        t.trim = true
        t.trimMargin = 3
        let (trimmed, _) = try t.trimmed(over: MemoryFrameSource(frames), jobs: 1)
        #expect(trimmed.crop == PixelRect(x: 0, y: 0, width: 4, height: 4) && !trimmed.trim)
    }
}
