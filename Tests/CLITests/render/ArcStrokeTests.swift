import Foundation
import TestSupport
import Testing

/// The `arc` layer's stroke (the config format (man throbber): radius, start, end, width, cap; 0° at
/// 12 o'clock, clockwise), measured on the lossless APNG as the spec decoder
/// of anim_reference.py reads it. A right half-ring, 12 o'clock → 6 o'clock,
/// around the center (50, 50) of a 100x100 canvas at scale 1: its thickness
/// is the ink across the 3 o'clock row, and its caps are what lies left of
/// x = 50 (nothing for butt caps; two half-discs of radius width/2 for round
/// caps). Every expected number is plane geometry.
@Suite("render: arc stroke width and caps")
struct ArcStrokeTests {
    struct Alpha {
        var a: [Double]
        func at(_ x: Int, _ y: Int) -> Double { a[y * 100 + x] }
        func row(_ y: Int, _ xs: Range<Int>) -> Double { xs.reduce(0) { $0 + at($1, y) } }
        func column(_ x: Int, _ ys: Range<Int>) -> Double { ys.reduce(0) { $0 + at(x, $1) } }
        func area(_ xs: Range<Int>, _ ys: Range<Int>) -> Double { ys.reduce(0) { s, y in s + row(y, xs) } }
    }

    static func render(radius: Int, width: Int, cap: String) throws -> Alpha {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                """
                {"version": 1, "canvas": {"width": 100, "height": 100},
                 "layers": [{"arc": {"radius": \(radius), "start": 0, "end": 180, "width": \(width), "cap": "\(cap)"}, "stroke": "black"}]}
                """, to: dir, as: "arc.json")
            let out = dir.appendingPathComponent("arc.png")
            try SceneCLI.render(config, to: out)
            let d = try APNGCLI.decode("spec", out)
            try #require(
                d.width == 100 && d.height == 100 && d.frames.count == 1,
                "\(d.width)x\(d.height), \(d.frames.count) frames")
            let frame = d.frames[0]
            return Alpha(a: stride(from: 3, to: frame.count, by: 4).map { Double(frame[$0]) / 255 })
        }
    }

    @Test(
        "thickness, radius, sweep and caps of a half-ring, butt and round caps",
        arguments: [(30, 10, "butt"), (30, 10, "round"), (20, 4, "butt"), (20, 4, "round")])
    func halfRing(radius r: Int, width w: Int, cap: String) throws {
        let a = try Self.render(radius: r, width: w, cap: cap)
        let inner = Double(r) - Double(w) / 2
        let outer = Double(r) + Double(w) / 2
        let what = "radius \(r), width \(w), \(cap) caps"
        // Thickness: the two rows around 3 o'clock (centers 0.5 px off the axis).
        for y in [49, 50] {
            let expected = (outer * outer - 0.25).squareRoot() - (inner * inner - 0.25).squareRoot()
            let measured = a.row(y, 50..<100)
            #expect(
                abs(measured - expected) <= 0.05, "\(what): row \(y) holds \(measured) px of ink, expected \(expected)")
        }
        // Nothing beyond the ring's outer edge or inside its inner edge on that row.
        #expect(
            a.row(50, 50..<(50 + Int(inner) - 1)) == 0 && a.row(50, (51 + Int(outer))..<100) == 0,
            "\(what): stray ink on the 3 o'clock row")
        // Where the ink starts on that row: the inner radius, to a tenth of a pixel.
        let firstInk = Double(50 + Int(inner) + 1) - a.row(50, (50 + Int(inner) - 1)..<(50 + Int(inner) + 1))
        #expect(abs(firstInk - (50 + inner)) <= 0.1, "\(what): ink starts at x = \(firstInk), expected \(50 + inner)")
        // Caps: left of x = 50 there is nothing (butt), or two half-discs of radius w/2 (round).
        let capRadius = Double(w) / 2
        let left = a.area(0..<50, 0..<100)
        let body = Double(w) * Double(r) * Double.pi
        let total = a.area(0..<100, 0..<100)
        if cap == "butt" {
            #expect(left <= 0.02, "\(what): \(left) px² of ink left of the ends")
            #expect(abs(total - body) <= 0.005 * body, "\(what): \(total) px² of ink, expected w·r·π = \(body)")
        } else {
            let caps = Double.pi * capRadius * capRadius
            #expect(
                abs(left - caps) <= 0.03 * caps, "\(what): \(left) px² left of the ends, expected π(w/2)² = \(caps)")
            #expect(
                abs(total - body - caps) <= 0.005 * (body + caps),
                "\(what): \(total) px² of ink, expected \(body + caps)")
            // The top cap is centered on (50, 50 − r): pixel column 48 spans 1 to 2 px left of its
            // axis, where the half-disc is 2·√((w/2)² − d²) tall; its ink is that chord's mean
            // over d in [1, 2]: f(2) − f(1), f(d) = d·√(c² − d²) + c²·asin(d/c), c = w/2. Nothing lies
            // farther left than w/2.
            func f(_ d: Double) -> Double {
                let c = capRadius
                return d * max(0, c * c - d * d).squareRoot() + c * c * asin(min(1, d / c))
            }
            let chord = f(2) - f(1)
            let measured = a.column(48, 0..<50)
            #expect(
                abs(measured - chord) <= 0.1,
                "\(what): the top cap is \(measured) px tall 1.5 px left of its axis, expected \(chord)")
            #expect(
                a.area(0..<(50 - Int(capRadius) - 1), 0..<100) == 0, "\(what): ink farther left than the caps reach")
        }
    }
}
