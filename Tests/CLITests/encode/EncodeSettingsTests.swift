import Foundation
import TestSupport
import Testing

/// `--dither` and a config's `encode` block (man throbber, CONFIG FORMAT: quality,
/// colors, dither, matte) change the GIF as documented, read back by Pillow
/// (anim_reference.py). The input is a 64x16 gray ramp (column x is gray
/// 4·x) drawn by Pillow, so every expected pixel is known by hand.
@Suite("Encode settings: --dither and the config's encode block")
struct EncodeSettingsTests {
    static let width = 64, height = 16

    /// The ramp as a Pillow-written PNG named `name` in `folder`.
    @discardableResult
    static func ramp(in folder: URL, name: String = "ramp.png") throws -> URL {
        let columns = (0..<width).map { [$0, 0, 1, height, 4 * $0, 4 * $0, 4 * $0, 255] }
        return try Pillow.makeFrames(
            [Pillow.Frame(name, width: width, height: height, color: [0, 0, 0, 255], marks: columns)],
            in: folder)[0]
    }

    /// What a quantized ramp looks like: its distinct colors, how many
    /// columns hold more than one color (error diffusion mixes a column;
    /// without it every column of equal inputs maps to one color), and the
    /// mean distance of each column's average red from the input's 4·x.
    struct RampStats {
        var colors: Int, mixedColumns: Int, columnError: Double, exact: Bool

        init(_ rgba: [UInt8]) {
            var set = Set<[UInt8]>()
            var mixed = 0
            var error = 0.0
            var same = true
            for x in 0..<EncodeSettingsTests.width {
                var column = Set<[UInt8]>()
                var sum = 0
                for y in 0..<EncodeSettingsTests.height {
                    let p = (y * EncodeSettingsTests.width + x) * 4
                    let px = Array(rgba[p..<p + 4])
                    column.insert(px)
                    set.insert(px)
                    sum += Int(px[0])
                    let v = UInt8(4 * x)
                    if px != [v, v, v, 255] { same = false }
                }
                if column.count > 1 { mixed += 1 }
                error += abs(Double(sum) / Double(EncodeSettingsTests.height) - Double(4 * x))
            }
            colors = set.count
            mixedColumns = mixed
            columnError = error / Double(EncodeSettingsTests.width)
            exact = same
        }
    }

    static func stats(_ gif: URL) throws -> RampStats {
        let d = try APNGCLI.decode("pillow", gif)
        try #require(
            d.width == width && d.height == height && d.frames.count == 1,
            "\(d.width)x\(d.height), \(d.frames.count) frames")
        return RampStats(d.frames[0])
    }

    @Test(
        "encode --colors 4: --dither 0 maps every column of the ramp to one color; --dither 1 (the default) mixes columns and keeps their averages closer to the input"
    )
    func ditherOption() throws {
        try withTemporaryDirectory { dir in
            let input = try Self.ramp(in: dir.appendingPathComponent("in"))
            var s: [String: RampStats] = [:]
            for dither in ["0", "1", nil] {
                let out = dir.appendingPathComponent("d\(dither ?? "default").gif")
                try APNGCLI.run(
                    ["encode", input.path, "-o", out.path, "--colors", "4"] + (dither.map { ["--dither", $0] } ?? []))
                s[dither ?? "default"] = try Self.stats(out)
            }
            let off = try #require(s["0"])
            let on = try #require(s["1"])
            let byDefault = try #require(s["default"])
            #expect(off.colors <= 4 && on.colors <= 4, "\(off.colors) and \(on.colors) colors")
            #expect(off.mixedColumns == 0, "--dither 0: \(off.mixedColumns) columns hold more than one color")
            // Measured: 30 of 64 columns mixed; column averages 9.6 levels off with dithering, 16.6 without.
            #expect(on.mixedColumns >= 16, "--dither 1: only \(on.mixedColumns) columns mixed")
            #expect(
                on.columnError < 0.75 * off.columnError,
                "column averages: \(on.columnError) dithered, \(off.columnError) not")
            #expect(
                byDefault.mixedColumns == on.mixedColumns && byDefault.columnError == on.columnError,
                "the default is --dither 1")
        }
    }

    /// Renders a config of the ramp as an image layer, with `encode` members.
    static func renderRamp(_ encode: String?, in dir: URL, as name: String) throws -> URL {
        let block = encode.map { ", \"encode\": {\($0)}" } ?? ""
        let config = try SceneCLI.write(
            """
            {"version": 1, "canvas": {"width": \(width), "height": \(height)}, "layers": [{"image": "ramp.png"}]\(block)}
            """, to: dir, as: "\(name).json")
        let out = dir.appendingPathComponent("\(name).gif")
        try SceneCLI.render(config, to: out)
        return out
    }

    @Test(
        "a config's encode block: no block keeps the 64 grays exactly; colors and dither act as the options do; quality N quantizes even what would fit"
    )
    func configEncodeBlock() throws {
        try withTemporaryDirectory { dir in
            try Self.ramp(in: dir)
            let plain = try Self.stats(Self.renderRamp(nil, in: dir, as: "plain"))
            #expect(
                plain.exact && plain.colors == 64,
                "without an encode block the ramp is lossless: \(plain.colors) colors")
            let off = try Self.stats(Self.renderRamp(#""colors": 4, "dither": 0"#, in: dir, as: "off"))
            let on = try Self.stats(Self.renderRamp(#""colors": 4, "dither": 1"#, in: dir, as: "on"))
            #expect(off.colors <= 4 && on.colors <= 4, "\(off.colors) and \(on.colors) colors")
            #expect(
                off.mixedColumns == 0 && on.mixedColumns >= 16,
                "mixed columns: \(off.mixedColumns) undithered, \(on.mixedColumns) dithered")
            #expect(
                on.columnError < 0.75 * off.columnError,
                "column averages: \(on.columnError) dithered, \(off.columnError) not")
            // Quality 20: measured 10 colors.
            let q = try Self.stats(Self.renderRamp(#""quality": 20"#, in: dir, as: "q20"))
            #expect(!q.exact && q.colors < 64, "quality 20: \(q.colors) colors, exact \(q.exact)")
        }
    }

    @Test(
        "a config's matte: a 40%-opaque blue disc is composited on red (153, 0, 102); without a matte its alpha (102) is below the 50% threshold and it vanishes"
    )
    func configMatte() throws {
        try withTemporaryDirectory { dir in
            for (name, block) in [("matte", ##", "encode": {"matte": "#ff0000"}"##), ("none", "")] {
                let config = try SceneCLI.write(
                    """
                    {"version": 1, "canvas": {"width": 20, "height": 20},
                     "layers": [{"circle": {"radius": 8}, "fill": "#0000ff", "opacity": 0.4}]\(block)}
                    """, to: dir, as: "\(name).json")
                let out = dir.appendingPathComponent("\(name).gif")
                try SceneCLI.render(config, to: out)
                let frame = try #require(try APNGCLI.decode("pillow", out).frames.first)
                func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(frame[(y * 20 + x) * 4..<(y * 20 + x) * 4 + 4]) }
                if name == "matte" {
                    // 0.4·(0, 0, 255) + 0.6·(255, 0, 0), inside the disc (radius 8 around (10, 10)).
                    for (x, y) in [(10, 10), (6, 10), (10, 13), (12, 7)] {
                        let p = pixel(x, y)
                        #expect(
                            abs(Int(p[0]) - 153) <= 1 && p[1] == 0 && abs(Int(p[2]) - 102) <= 1 && p[3] == 255,
                            "(\(x), \(y)): \(p)")
                    }
                    #expect(pixel(0, 0) == [0, 0, 0, 0], "outside the disc stays transparent")
                } else {
                    #expect(
                        stride(from: 3, to: frame.count, by: 4).allSatisfy { frame[$0] == 0 },
                        "without a matte every pixel is transparent")
                }
            }
        }
    }
}
