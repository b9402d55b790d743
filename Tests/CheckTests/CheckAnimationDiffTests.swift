import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// AnimationDiff: where two decoded animations first differ, as a viewer
/// sees them, with counts a test can compute by hand.
@Suite("Check: animation diff")
struct CheckAnimationDiffTests {
    static func frame(_ w: Int, _ h: Int, _ v: UInt8) -> RGBAImage { Synth.solid(v, v, v, width: w, height: h) }

    static func animation(_ frames: [RGBAImage], durations: [Rational]? = nil, loop: Int = 0) -> DecodedAnimation {
        let d = durations ?? Array(repeating: Rational(1, 10), count: frames.count)
        let stored = frames.map { f in
            DecodedAnimation.StoredFrame(
                rect: PixelRect(x: 0, y: 0, width: f.width, height: f.height), delay: (10, 100),
                dispose: "none", blend: "over", colors: nil, transparent: nil)
        }
        return DecodedAnimation(
            width: frames[0].width, height: frames[0].height, frames: frames, durations: d, loop: loop,
            format: .gif, stored: stored)
    }

    @Test("identical animations: no difference")
    func same() {
        let a = Self.animation([Self.frame(4, 3, 10), Self.frame(4, 3, 20)])
        #expect(AnimationDiff.compare(expected: a, actual: a) == nil)
    }

    @Test("the first frame that differs, how many pixels and the largest channel difference; the difference image")
    func pixels() throws {
        var changed = Self.frame(4, 3, 20)
        changed.pixels[0] = 25  // pixel 0: red +5
        changed.pixels[4 * 5 + 3] = 100  // pixel 5: alpha -155
        changed.pixels[4 * 11 + 1] = 0  // pixel 11: green -20
        let e = Self.animation([Self.frame(4, 3, 10), Self.frame(4, 3, 20), Self.frame(4, 3, 30)])
        let a = Self.animation([Self.frame(4, 3, 10), changed, Self.frame(4, 3, 99)])
        let d = try #require(AnimationDiff.compare(expected: e, actual: a))
        #expect(d.frame == 1)
        #expect(d.number == 2, "the second frame is frame 2 to people")
        // Pixels 0, 5 and 11 of a 4x3 frame: (0,0), (1,1), (3,2).
        #expect(d.region == PixelRect(x: 0, y: 0, width: 4, height: 3))
        #expect(d.differingPixels == 3)
        #expect(d.largestChannelDifference == 155)
        #expect(d.expected == e.frames[1] && d.actual == changed)
        #expect(d.note == nil)
        let diff = d.difference.pixels
        let values = stride(from: 0, to: diff.count, by: 4).map { diff[$0] }
        #expect(values[0] == 20 && values[5] == 255 && values[11] == 80)
        #expect(values.enumerated().allSatisfy { [0, 5, 11].contains($0.offset) || $0.element == 0 })
        var grayAndOpaque = true
        for p in stride(from: 0, to: diff.count, by: 4) {
            let v: UInt8 = diff[p]
            if diff[p + 1] != v || diff[p + 2] != v || diff[p + 3] != 255 { grayAndOpaque = false }
        }
        #expect(grayAndOpaque)
    }

    @Test("the region is the smallest rectangle holding every differing pixel")
    func region() throws {
        var changed = Self.frame(6, 4, 20)
        changed.pixels[4 * (1 * 6 + 2)] = 21  // (2,1)
        changed.pixels[4 * (3 * 6 + 4) + 2] = 0  // (4,3)
        let e = Self.animation([Self.frame(6, 4, 20)])
        let d = try #require(AnimationDiff.compare(expected: e, actual: Self.animation([changed])))
        #expect(d.number == 1 && d.differingPixels == 2)
        #expect(
            d.region == PixelRect(x: 2, y: 1, width: 3, height: 3), "\(d.region.map(String.init(describing:)) ?? "nil")"
        )
    }

    @Test("a changed delay is a difference with a note, even with equal pixels")
    func delay() throws {
        let e = Self.animation(
            [Self.frame(2, 2, 1), Self.frame(2, 2, 2)], durations: [Rational(1, 10), Rational(1, 10)])
        let a = Self.animation(
            [Self.frame(2, 2, 1), Self.frame(2, 2, 2)], durations: [Rational(1, 10), Rational(1, 5)])
        let d = try #require(AnimationDiff.compare(expected: e, actual: a))
        #expect(d.frame == 1 && d.differingPixels == 0 && d.largestChannelDifference == 0)
        #expect(d.region == nil)
        // The second frame's delay changed: frame 2, counted from 1.
        #expect(d.note == "frame 2 is shown 0.2 s instead of 0.1 s", "\(d.note ?? "no note")")
    }

    @Test("more or fewer frames, another size, another loop count")
    func structure() throws {
        let two = Self.animation([Self.frame(2, 2, 1), Self.frame(2, 2, 2)])
        let three = Self.animation([Self.frame(2, 2, 1), Self.frame(2, 2, 2), Self.frame(2, 2, 3)])
        let d = try #require(AnimationDiff.compare(expected: two, actual: three))
        #expect(d.frame == 2 && d.note?.contains("2 frames became 3") == true)
        let d2 = try #require(AnimationDiff.compare(expected: three, actual: two))
        #expect(d2.frame == 2 && d2.note?.contains("3 frames became 2") == true)

        let big = Self.animation([Self.frame(3, 2, 1)])
        let s = try #require(AnimationDiff.compare(expected: Self.animation([Self.frame(2, 2, 1)]), actual: big))
        #expect(s.note?.contains("2x2 became 3x2") == true)

        let once = Self.animation([Self.frame(2, 2, 1)], loop: 1)
        let l = try #require(
            AnimationDiff.compare(expected: Self.animation([Self.frame(2, 2, 1)], loop: 0), actual: once))
        #expect(l.note?.contains("loop count 0 became 1") == true)
    }

    @Test("decoded files: a GIF and the same frames as APNG show the same pictures")
    func gifVersusAPNG() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            var frames: [RGBAImage] = []
            for i in 0..<3 {
                var pixels: [UInt8] = []
                for p in 0..<24 {
                    let r = UInt8(p * 10 + i)
                    let g = UInt8(200 - p)
                    let b = UInt8(i * 60)
                    pixels += [r, g, b, 255]
                }
                frames.append(RGBAImage(width: 6, height: 4, pixels: pixels))
            }
            var settings = EncodeSettings()
            settings.timing.delay = 10
            for (format, name) in [(AnimationFormat.gif, "a.gif"), (.apng, "a.png")] {
                let out = try OutputFile(path: dir.appendingPathComponent(name).path)
                let source = MemoryFrameSource(frames)
                settings.compression = .fast
                _ = try AnimationEncoder(format: format, settings: settings).encode(source, to: out)
                try out.commit()
            }
            // What the two files show, by independent decoders: Pillow for
            // the GIF, the APNG spec decoder for the APNG (anim_reference.py).
            let gifPath = dir.appendingPathComponent("a.gif").path
            let pngPath = dir.appendingPathComponent("a.png").path
            let pillow = try ReferenceAnimation(.pillow, path: gifPath)
            let spec = try ReferenceAnimation(.spec, path: pngPath)
            #expect(
                pillow.frames == frames.map(\.pixels) && spec.frames == frames.map(\.pixels),
                "the files do not show the frames")
            #expect(
                pillow.seconds == [0.1, 0.1, 0.1]
                    && spec.fractions == Array(repeating: Optional(Rational(1, 10)), count: 3))
            let gif = try DecodedAnimation.read(gifPath)
            let png = try DecodedAnimation.read(pngPath)
            #expect(gif.frames == frames && png.frames == frames)
            #expect(AnimationDiff.compare(expected: gif, actual: png) == nil)
        }
    }
}
