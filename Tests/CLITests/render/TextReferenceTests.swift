import Foundation
import TestSupport
import Testing

/// `text` layers (man throbber, CONFIG FORMAT: text): HarfBuzz's glyph
/// outlines filled by cairo, against pango-view drawing the same line from
/// the same font file (Tests/tools/text_reference.py: pango shapes with
/// HarfBuzz too, and cairo fills FreeType's outlines, unhinted, at 8 times
/// the size, averaged), at 35 dB over gray.
///
/// Where the line lands is worked out here from the font file, not from
/// Throbber: with `"align": "left"` the line starts at the layer's center x,
/// and its box, ascender to descender (HarfBuzz's horizontal extents: the
/// hhea table's, as the font does not set OS/2 USE_TYPO_METRICS), is
/// centered on the center y, so the baseline is (ascender + descender) / 2
/// font units below it. The layer's center is chosen so the baseline falls
/// on an eighth of a pixel, where the reference can put it exactly (it
/// rounds the origin to 1/8 px; a 1/16 px error costs 4 dB at 24 px).
///
/// Letter spacing is not compared: text_reference.py draws no letter
/// spacing.
@Suite("text layers drawn as pango-view draws the same font file", .tags(.slow))
struct TextReferenceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var px: Int
        var testDescription: String { "\"\(text)\" at \(px) px" }
    }

    /// Plain words, a digit and a space, and "AV Wa fi": kerning (A–V,
    /// W–a) and the fi ligature.
    static let cases = ["Loading", "Uploading 3 files", "AV Wa fi"].flatMap { text in
        [24, 48, 96].map { Case(text: text, px: $0) }
    }

    static let font = URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    static let available =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/pango-view")
        && FileManager.default.fileExists(atPath: font.path)

    /// The font's vertical metrics, read with struct from its tables.
    struct Metrics: Decodable {
        var unitsPerEm: Int
        var ascender: Int
        var descender: Int
        /// OS/2 fsSelection bit 7: whether HarfBuzz would take OS/2's typo metrics instead.
        var useTypoMetrics: Bool
    }

    static let readMetrics = """
        import json, struct, sys
        data = open(sys.argv[1], "rb").read()
        count = struct.unpack(">H", data[4:6])[0]
        tables = {}
        for i in range(count):
            record = data[12 + 16 * i: 28 + 16 * i]
            tables[record[:4].decode("latin-1")] = struct.unpack(">I", record[8:12])[0]
        head, hhea, os2 = tables["head"], tables["hhea"], tables["OS/2"]
        upem = struct.unpack(">H", data[head + 18: head + 20])[0]
        ascender, descender = struct.unpack(">hh", data[hhea + 4: hhea + 8])
        selection = struct.unpack(">H", data[os2 + 62: os2 + 64])[0]
        print(json.dumps({"unitsPerEm": upem, "ascender": ascender, "descender": descender,
                          "useTypoMetrics": bool(selection & 0x80)}))
        """

    static func metrics() throws -> Metrics {
        let r = try Command.run(Pillow.python, ["-c", readMetrics, font.path])
        try #require(r.status == 0, "reading \(font.path): \(r.stderrText)")
        return try JSONDecoder().decode(Metrics.self, from: r.stdout)
    }

    struct Comparison: Decodable {
        var psnr: Double
        var maxdiff: Int
    }

    @Test(
        "a left-aligned line of DejaVu Sans at 35 dB, baseline placed from the font's hhea metrics",
        .enabled(
            if: available || Fixtures.onCI, "skipped: pango-view (pango1.0-tools) or DejaVu Sans is not installed"),
        arguments: cases)
    func drawnAsPango(_ c: Case) throws {
        let m = try Self.metrics()
        try #require(!m.useTypoMetrics, "the font asks for its OS/2 typo metrics: the baseline below would be wrong")
        // Room for the line (DejaVu Sans advances are under 0.75 em on
        // average here) and half an em either side; two ems tall.
        let width = px(c, 0.75 * Double(c.text.count) + 1)
        let height = 2 * c.px
        let x = Double(c.px) / 2
        // The baseline: (ascender + descender)/2 units below the center,
        // in eighths of a pixel: b8 = 8·y; the center is then
        // (b8·upem − 4·(ascender + descender)·px) / (8·upem), exactly.
        let drop = Double(m.ascender + m.descender) / 2 * Double(c.px) / Double(m.unitsPerEm)
        let b8 = Int((Double(height) / 2 + drop).rounded(.down)) * 8 + 3
        let centerNumerator = b8 * m.unitsPerEm - 4 * (m.ascender + m.descender) * c.px
        let centerDenominator = 8 * m.unitsPerEm
        let baseline = Double(b8) / 8
        try withTemporaryDirectory { dir in
            try FileManager.default.copyItem(at: Self.font, to: dir.appendingPathComponent("DejaVuSans.ttf"))
            let config = try SceneCLI.write(
                """
                {"version": 1, "canvas": {"width": \(width), "height": \(height), "background": "white"},
                 "timing": {"fps": 25, "duration": 0.04},
                 "layers": [{"text": {"string": "\(c.text)", "font": "DejaVuSans.ttf", "size": \(c.px), "align": "left"},
                             "center": [\(x), "\(centerNumerator)/\(centerDenominator)"], "fill": "black"}]}
                """, to: dir, as: "text.json")
            let out = dir.appendingPathComponent("text.png")
            try SceneCLI.render(config, to: out)
            let json = try Pillow.script(
                "text_reference.py",
                [
                    "compare", Self.font.path, "\(c.px)", c.text, "\(width)", "\(height)", "\(x)", "\(baseline)",
                    out.path, "--out", dir.appendingPathComponent("pango.png").path,
                ])
            let result = try JSONDecoder().decode(Comparison.self, from: json)
            #expect(
                result.psnr >= 35,
                "\(c.testDescription): \(result.psnr) dB against pango-view (largest difference \(result.maxdiff)), baseline at y = \(baseline)"
            )
        }
    }

    /// `ems` em of the case's size, in whole pixels.
    func px(_ c: Case, _ ems: Double) -> Int { Int((ems * Double(c.px)).rounded(.up)) }
}
