import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// The config format's layers (man throbber, CONFIG FORMAT), checked on rendered pixels: sizes in points times
/// scale, 0° at 12 o'clock and clockwise, repeat placement, @2x images,
/// group opacity, the default center and colors.
@Suite("scene renderer: what the layer keys draw")
struct SceneRendererTests {
    static func render(_ json: String, at t: Rational = Rational(0)) throws -> RGBAImage {
        try SceneTestKit.renderer(try SceneTestKit.config(json)).render(at: t)
    }

    @Test("the canvas is width·scale × height·scale pixels, filled with the background")
    func canvas() throws {
        let image = try Self.render(
            SceneTestKit.scene(
                width: 30, height: 20, scale: 3, background: "#102030",
                layers: #"{"circle": {"radius": 1}, "center": [2, 2]}"#))
        #expect(image.width == 90 && image.height == 60)
        #expect(image.rgba(80, 50) == [0x10, 0x20, 0x30, 255])
        let clear = try Self.render(
            SceneTestKit.scene(width: 10, height: 10, layers: #"{"circle": {"radius": 1}, "center": [2, 2]}"#))
        #expect(clear.alpha(8, 8) == 0, "the default background is transparent")
    }

    @Test("a circle of radius r pt at scale s covers π(r·s)² px, centered on the canvas by default, black by default")
    func circle() throws {
        let image = try Self.render(
            SceneTestKit.scene(width: 60, height: 40, scale: 2, layers: #"{"circle": {"radius": 10}}"#))
        #expect(abs(image.coverage() - Double.pi * 400) < 2, "\(image.coverage())")
        let c = try #require(image.centroid())
        #expect(abs(c.x - 60) < 0.01 && abs(c.y - 40) < 0.01)
        #expect(image.rgba(60, 40) == [0, 0, 0, 255])
    }

    @Test("a rect is centered on its center, w × h, its corner radius cutting the corners")
    func rect() throws {
        let image = try Self.render(
            SceneTestKit.scene(
                width: 40, height: 40,
                layers: #"{"rect": {"width": 20, "height": 10, "corner": 5}, "center": [15, 25], "fill": "red"}"#))
        let box = try #require(image.inkBox())
        #expect(box.minX == 5 && box.maxX == 24 && box.minY == 20 && box.maxY == 29, "\(box)")
        #expect(image.rgba(15, 25) == [255, 0, 0, 255])
        #expect(image.alpha(5, 20) < 128, "the corner is rounded")
        // Area: 20·10 minus the four corners' (r² − πr²/4).
        #expect(abs(image.coverage() - (200 - (25 - Double.pi * 25 / 4) * 4)) < 1)
    }

    @Test("arc angles: 0° is 12 o'clock and angles grow clockwise (start 0, end 90 is the upper-right quarter)")
    func arcOrientation() throws {
        let image = try Self.render(
            SceneTestKit.scene(
                width: 60, height: 60,
                layers: #"{"arc": {"radius": 20, "start": 0, "end": 90, "width": 4, "cap": "butt"}, "stroke": "blue"}"#)
        )
        let upperRight = image.coverage(xs: 30..<60, ys: 0..<30)
        let total = image.coverage()
        #expect(total > 0 && upperRight / total > 0.99, "\(upperRight) of \(total) in the upper-right quarter")
        // Quarter of an annulus 18…22: π(22² − 18²)/4.
        #expect(abs(total - Double.pi * (484 - 324) / 4) < 1.5)
        #expect(image.rgba(30 + 14, 30 - 14)[2] == 255, "the stroke is blue")
    }

    @Test("rotate is clockwise on screen: a dot at 12 o'clock in a group turned 90° appears at 3 o'clock")
    func rotateClockwise() throws {
        let image = try Self.render(
            SceneTestKit.scene(
                width: 60, height: 60,
                layers: #"{"group": [{"circle": {"radius": 3}, "center": [30, 10]}], "rotate": 90}"#))
        let c = try #require(image.centroid())
        #expect(abs(c.x - 50) < 0.05 && abs(c.y - 30) < 0.05, "\(c)")
        // And animated: a step of +90° per 0.25 s takes it there at t = 0.25 s.
        let animated = try Self.render(
            SceneTestKit.scene(
                width: 60, height: 60,
                layers:
                    #"{"group": [{"circle": {"radius": 3}, "center": [30, 10]}], "animate": [{"kind": "step", "property": "rotate", "by": 90}]}"#
            ),
            at: Rational(1, 4))
        let a = try #require(animated.centroid())
        #expect(abs(a.x - 50) < 0.05 && abs(a.y - 30) < 0.05, "\(a)")
    }

    @Test(
        "repeat around: copy i sits at angle i·360/n clockwise from 12 o'clock on a circle of that radius, turned to face outward"
    )
    func repeatAround() throws {
        // A tall 2×8 bar, 4 copies around radius 20: upright at 12 and 6, lying at 3 and 9.
        let image = try Self.render(
            SceneTestKit.scene(
                width: 60, height: 60,
                layers: #"{"rect": {"width": 2, "height": 8}, "repeat": {"count": 4, "around": 20}}"#))
        let quadrants: [(xs: Range<Int>, ys: Range<Int>, x: Double, y: Double, wide: Bool)] = [
            (25..<35, 0..<20, 30, 10, false),  // 12 o'clock
            (40..<60, 25..<35, 50, 30, true),  // 3 o'clock
            (25..<35, 40..<60, 30, 50, false),  // 6 o'clock
            (0..<20, 25..<35, 10, 30, true),  // 9 o'clock
        ]
        for (i, q) in quadrants.enumerated() {
            let c = try #require(image.centroid(xs: q.xs, ys: q.ys), "copy \(i) missing")
            #expect(abs(c.x - q.x) < 0.05 && abs(c.y - q.y) < 0.05, "copy \(i) at \(c)")
            #expect(abs(image.coverage(xs: q.xs, ys: q.ys) - 16) < 0.5, "copy \(i)")
            // Its extent: 8 px along the radius, 2 across.
            var wide = 0
            var tall = 0
            for y in q.ys {
                for x in q.xs where image.alpha(x, y) >= 128 {
                    wide = max(wide, abs(x - Int(q.x)))
                    tall = max(tall, abs(y - Int(q.y)))
                }
            }
            #expect(q.wide ? wide > tall : tall > wide, "copy \(i) faces the wrong way")
        }
        #expect(abs(image.coverage() - 64) < 1)
        // With "turn": 0 the copies keep their own orientation (all upright).
        let kept = try Self.render(
            SceneTestKit.scene(
                width: 60, height: 60,
                layers: #"{"rect": {"width": 2, "height": 8}, "repeat": {"count": 4, "around": 20, "turn": 0}}"#))
        let box = try #require(kept.inkBox())
        #expect(box.minY == 6 || box.minY == 5, "the 12 o'clock bar stays upright: \(box)")
        #expect(kept.inkBox(threshold: 128).map { $0.maxX - $0.minX } ?? 0 <= 42)
    }

    @Test("repeat offset: copy i is moved by i·offset")
    func repeatOffset() throws {
        let image = try Self.render(
            SceneTestKit.scene(
                width: 120, height: 40, scale: 2,
                layers:
                    #"{"circle": {"radius": 10}, "fill": "gray", "center": [25, 20], "repeat": {"count": 3, "offset": [35, 0]}}"#
            ))
        for (i, x) in [50.0, 120, 190].enumerated() {
            let c = try #require(image.centroid(xs: (Int(x) - 35)..<(Int(x) + 35)))
            #expect(abs(c.x - x) < 0.05 && abs(c.y - 40) < 0.05, "dot \(i) at \(c)")
        }
        #expect(image.rgba(120, 40) == [128, 128, 128, 255], "gray is #808080")
    }

    @Test(
        "an image's @2x / @3x suffix sets its pixels per point; a plain name is 1 pixel per point",
        arguments: [("ring.png", 120), ("ring@2x.png", 60), ("ring@3x.png", 40)])
    func imageScale(_ name: String, _ expectedPixels: Int) throws {
        try withTemporaryDirectory { dir in
            // The example ring: 120×120 px with ink reaching (nearly) its edges.
            let source = SceneTestKit.examples.appendingPathComponent("loading_loop@2x.png")
            try FileManager.default.copyItem(at: source, to: dir.appendingPathComponent(name))
            let reference = try referenceImages([source.path])[0]  // Pillow's decode
            let refBox = try #require(reference.inkBox(threshold: 1))
            let config = try SceneTestKit.config(
                SceneTestKit.scene(width: 160, height: 160, layers: #"{"image": "\#(name)"}"#),
                base: dir.path)
            let image = try SceneTestKit.renderer(config).render(at: Rational(0))
            let box = try #require(image.inkBox(threshold: 1))
            let span = Double(box.maxX - box.minX + 1)
            let refSpan = Double(refBox.maxX - refBox.minX + 1)
            #expect(abs(span - refSpan * Double(expectedPixels) / 120) <= 2, "\(name): ink spans \(span) px")
            let c = try #require(image.centroid())
            #expect(abs(c.x - 80) < 0.5 && abs(c.y - 80) < 0.5, "\(name) is centered: \(c)")
        }
    }

    @Test(
        "group opacity applies to the group as a whole: two overlapping opaque circles at 0.5 show 0.5 where they overlap"
    )
    func groupOpacity() throws {
        let image = try Self.render(
            SceneTestKit.scene(
                width: 40, height: 20,
                layers:
                    #"{"group": [{"circle": {"radius": 8}, "center": [15, 10]}, {"circle": {"radius": 8}, "center": [25, 10]}], "opacity": 0.5}"#
            ))
        #expect(abs(image.alpha(20, 10) - 128) <= 1, "overlap alpha \(image.alpha(20, 10))")
        #expect(abs(image.alpha(10, 10) - 128) <= 1)
        // A layer's own opacity multiplies with an animated one.
        let faded = try Self.render(
            SceneTestKit.scene(
                width: 10, height: 10,
                layers:
                    #"{"rect": {"width": 10, "height": 10}, "opacity": 0.5, "animate": [{"kind": "keyframes", "property": "opacity", "period": 1, "keys": [{"at": 0, "value": 0.5}]}]}"#
            ))
        #expect(abs(faded.alpha(5, 5) - 64) <= 1, "0.5 × 0.5: \(faded.alpha(5, 5))")
    }

    @Test(
        "scaleX / scaleY / translate compose: a 10 pt circle scaled 2× horizontally is 40 × 20 px, moved by translateX")
    func scalesAndTranslate() throws {
        let image = try Self.render(
            SceneTestKit.scene(
                width: 100, height: 40,
                layers:
                    #"{"circle": {"radius": 10}, "center": [30, 20], "animate": [{"kind": "keyframes", "property": "scaleX", "period": 1, "keys": [{"at": 0, "value": 2}]}, {"kind": "keyframes", "property": "translateX", "period": 1, "keys": [{"at": 0, "value": 25}]}]}"#
            ))
        let box = try #require(image.inkBox())
        #expect(box.maxX - box.minX + 1 == 40 && box.maxY - box.minY + 1 == 20, "\(box)")
        let c = try #require(image.centroid())
        #expect(abs(c.x - 55) < 0.05 && abs(c.y - 20) < 0.05)
        #expect(abs(image.coverage() - Double.pi * 200) < 0.01 * Double.pi * 200, "area \(image.coverage())")
    }

    @Test("rotateY θ draws a horizontal scale by cos θ: 60° halves the width, 180° mirrors")
    func rotateY() throws {
        func render(_ degrees: Int) throws -> RGBAImage {
            try Self.render(
                SceneTestKit.scene(
                    width: 60, height: 20,
                    layers:
                        #"{"group": [{"rect": {"width": 20, "height": 10}, "center": [20, 10]}, {"circle": {"radius": 2}, "center": [45, 10]}], "animate": [{"kind": "keyframes", "property": "rotateY", "period": 1, "keys": [{"at": 0, "value": \#(degrees)}]}]}"#
                ))
        }
        let half = try render(60)
        // The rect spans x 10…30 → about the center 30: 20…30; the circle at 45 → 37.5.
        #expect(abs(half.coverage(xs: 0..<33) - 100) < 1, "rect area halves")
        let rectBox = try #require(half.inkBox())
        #expect(rectBox.minX == 20, "\(rectBox)")
        let dot = try #require(half.centroid(xs: 33..<60))
        #expect(abs(dot.x - 37.5) < 0.05)
        let mirrored = try render(180)
        let m = try #require(mirrored.centroid(xs: 0..<30))
        #expect(abs(m.x - 15) < 0.05, "the circle is mirrored to x = 15: \(m)")
        #expect(abs(mirrored.coverage(xs: 30..<60) - 200) < 1, "the rect is mirrored to 30…50")
    }

    @Test("repeat on a group moves (offset) or places and turns (around) the whole group")
    func repeatGroup() throws {
        let moved = try Self.render(
            SceneTestKit.scene(
                width: 80, height: 20,
                layers:
                    #"{"group": [{"circle": {"radius": 3}, "center": [10, 10]}], "repeat": {"count": 3, "offset": [20, 0]}}"#
            ))
        for (i, x) in [10.0, 30, 50].enumerated() {
            let c = try #require(moved.centroid(xs: (Int(x) - 10)..<(Int(x) + 10)), "copy \(i) missing")
            #expect(abs(c.x - x) < 0.05 && abs(c.y - 10) < 0.05, "copy \(i) at \(c)")
        }
        #expect(moved.coverage(xs: 60..<80) == 0)
        let placed = try Self.render(
            SceneTestKit.scene(
                width: 60, height: 60,
                layers: #"{"group": [{"rect": {"width": 2, "height": 8}}], "repeat": {"count": 4, "around": 20}}"#))
        let single = try Self.render(
            SceneTestKit.scene(
                width: 60, height: 60,
                layers: #"{"rect": {"width": 2, "height": 8}, "repeat": {"count": 4, "around": 20}}"#))
        #expect(placed == single, "a repeated group of one bar should draw what the repeated bar draws")
    }

    @Test("an arc's end can be animated: end 0 → 360 over 1 s draws a quarter ring at 0.25 s, starting at 12 o'clock")
    func arcAnimated() throws {
        let config = try SceneTestKit.config(
            SceneTestKit.scene(
                width: 60, height: 60,
                layers:
                    #"{"arc": {"radius": 20, "start": 0, "end": 0, "width": 4, "cap": "butt"}, "animate": [{"kind": "keyframes", "property": "end", "period": 1, "keys": [{"at": 0, "value": 0}, {"at": 1, "value": 360}]}]}"#
            ))
        let r = try SceneTestKit.renderer(config)
        let quarter = try r.render(at: Rational(1, 4))
        #expect(abs(quarter.coverage() - Double.pi * (484 - 324) / 4) < 1.5)
        #expect(quarter.coverage(xs: 30..<60, ys: 0..<30) / quarter.coverage() > 0.99)
        let half = try r.render(at: Rational(1, 2))
        #expect(half.coverage(xs: 30..<60) / half.coverage() > 0.99, "half-way: the right half")
    }

    @Test(
        "an image layer reads Apple CgBI PNGs: the MJRefresh frame draws exactly like its standard-PNG copy",
        Fixtures.needed)
    func cgbiImage() throws {
        let folder = Fixtures.root.appendingPathComponent("mjrefresh-dropdown_anim")
        for n in [1, 30, 60] {
            let name = "dropdown_anim__000\(n)@2x.png"
            let crushed = try Self.render(
                SceneTestKit.scene(
                    width: 60, height: 60, scale: 2,
                    layers: #"{"image": "\#(folder.appendingPathComponent(name).path)"}"#))
            let plain = try Self.render(
                SceneTestKit.scene(
                    width: 60, height: 60, scale: 2,
                    layers: #"{"image": "\#(folder.appendingPathComponent("normalized/" + name).path)"}"#))
            // CgBI decoding is exact (CgBIDecodeTests), so the two draw identically.
            var worstAlpha = 0
            var worstColor = 0
            for p in stride(from: 0, to: crushed.pixels.count, by: 4) {
                worstAlpha = max(worstAlpha, abs(Int(crushed.pixels[p + 3]) - Int(plain.pixels[p + 3])))
                for ch in 0..<3 {
                    worstColor = max(worstColor, abs(Int(crushed.pixels[p + ch]) - Int(plain.pixels[p + ch])))
                }
            }
            #expect(
                crushed.pixels == plain.pixels,
                "frame \(n): CgBI and standard PNG differ by \(worstAlpha) alpha, \(worstColor) color levels")
            #expect(crushed.coverage() > 100)
        }
    }
}
