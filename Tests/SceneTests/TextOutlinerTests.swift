import Glibc
import Testing

@testable import ThrobberScene

/// HarfBuzz's shaping and outlines of DejaVu Sans (Debian's
/// fonts-dejavu-core), and fontconfig's families: glyph counts,
/// kerning, ligatures, layout and every refusal.
@Suite("text outlines: shaping, layout, fonts and refusals")
struct TextOutlinerTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    static func outline(_ text: String, _ options: TextOutliner.Options = .init(size: 48), font: String = dejaVu)
        throws -> TextOutliner.Result
    {
        try TextOutliner.outline(text, fontFile: font, options: options)
    }

    static func failure(_ text: String, _ options: TextOutliner.Options = .init(size: 48), font: String = dejaVu)
        -> String
    {
        do {
            _ = try TextOutliner.outline(text, fontFile: font, options: options)
            return "no failure"
        } catch { return error.message }
    }

    @Test("the same text gives the same outlines; a ligature is one glyph") func deterministic() throws {
        let a = try Self.outline("Uploading 3 files")
        let b = try Self.outline("Uploading 3 files")
        #expect(a.glyphs == b.glyphs)
        #expect(a.glyphs.count == 14)  // "fi" is one glyph
    }

    @Test("kerning pulls AV together; letter spacing turns ligatures off and goes after each cluster")
    func ligatureAndCharacters() throws {
        let r = try Self.outline("AV Wa fi")
        #expect(r.glyphs.map(\.character) == [0, 1, 3, 4, 6])
        // Kerning: A V closer than their advances.
        let spaced = try Self.outline("AV Wa fi", .init(size: 48, letterSpacing: 1))
        #expect(spaced.glyphs.map(\.character) == [0, 1, 3, 4, 6, 7])
        let a = try Self.outline("A").width
        let v = try Self.outline("V").width
        #expect(try Self.outline("AV").width < a + v - 1)
        // Spacing after every cluster but the last: 7 gaps; without ligature the "fi" advance is f + i.
        let f = try Self.outline("f").width
        let i = try Self.outline("i").width
        let fi = try Self.outline("fi").width
        #expect(abs(spaced.width - (r.width - fi + f + i + 7)) < 1e-9)
    }

    @Test("left, center and right align the block; a line's glyphs share a vertical center") func alignment() throws {
        for align in [TextOutliner.Align.left, .center, .right] {
            let r = try Self.outline("Loading", .init(size: 30, align: align))
            let minX = r.glyphs.map(\.box.min.x).min() ?? .nan
            let maxX = r.glyphs.map(\.box.max.x).max() ?? .nan
            #expect(abs(maxX - minX - r.width) < 1e-9)
            switch align {
            case .left: #expect(minX == 0)
            case .center: #expect(abs(minX + maxX) < 1e-9)
            case .right: #expect(abs(maxX) < 1e-9)
            }
            for g in r.glyphs {
                #expect(abs(g.box.min.y + r.height / 2) < 1e-9 && abs(g.box.max.y - r.height / 2) < 1e-9)
                #expect(abs(g.box.center.y) < 1e-9)
            }
        }
    }

    @Test("newlines start lines of one line box each") func lines() throws {
        let one = try Self.outline("a")
        let r = try Self.outline("ab\nc\r\n\nd", .init(size: 48, align: .left))
        #expect(r.glyphs.map(\.character) == [0, 1, 3, 6])
        // DejaVu's line gap is 0: four lines are four line boxes.
        #expect(abs(r.height - 4 * one.height) < 1e-9)
        #expect(abs(r.glyphs[3].box.max.y - r.height / 2) < 1e-9)
        #expect(r.glyphs[2].box.min.x == 0)
        #expect(try Self.outline("  \n ").glyphs.isEmpty)
    }

    @Test("glyph outlines are closed contours above the baseline") func outlinesClosed() throws {
        let r = try Self.outline("Og")
        for g in r.glyphs {
            #expect(!g.outline.subpaths.isEmpty)
            for s in g.outline.subpaths {
                #expect(s.closed)
                #expect(s.segments.last?.to == s.start)
            }
        }
        // O: two contours, y down: the outline lies above the baseline (y < baseline).
        let o = r.glyphs[0].outline
        #expect(o.subpaths.count == 2)
        let ys = o.subpaths.flatMap { $0.segments.map(\.to.y) }
        #expect((ys.max() ?? 99) <= r.baseline + 1)
    }

    @Test("empty, too long, missing glyphs, missing or special files, not a font, a weight on a static font")
    func failures() throws {
        #expect(Self.failure("") == "the text is empty: give at least one character")
        #expect(Self.failure(String(repeating: "é", count: 1001)).contains("more than 1000"))
        #expect(Self.failure(String(repeating: "é", count: 1000)) == "no failure")
        #expect(
            Self.failure("Hi 中文", font: Self.dejaVu) == "the font has no glyph for \"中\" (U+4E2D), \"文\" (U+6587): "
                + "use a font that has them or change the text")
        #expect(Self.failure("✓ ok ☃ \u{10FFFD}").contains("\"\u{10FFFD}\" (U+10FFFD)"))
        #expect(Self.failure("a\u{0301}\u{0378}b").contains("(U+0378)"))
        #expect(Self.failure("x", font: "/nonexistent/x.ttf").contains("No such file"))
        #expect(Self.failure("x", font: "/tmp").contains("is a directory"))
        #expect(Self.failure("x", font: "/dev/zero").contains("is a device"))
        let text = "/tmp/throbber-text-test-\(getpid()).ttf"
        _ = "this is not a font\n".withCString { p in
            let f = fopen(text, "w")
            defer { fclose(f) }
            return fputs(p, f)
        }
        defer { unlink(text) }
        #expect(Self.failure("x", font: text).contains("is not a font file"))
        #expect(Self.failure("x", .init(size: 48, weight: 700)).contains("not a variable font"))
        #expect(Self.failure("x", .init(size: .nan)).contains("font size"))
        #expect(Self.failure("x", .init(size: 10, letterSpacing: .infinity)).contains("letter spacing"))
        let fifo = "/tmp/throbber-text-fifo-\(getpid())"
        mkfifo(fifo, 0o600)
        defer { unlink(fifo) }
        #expect(Self.failure("x", font: fifo).contains("FIFO"))
        #expect(try TextOutliner.weightAxis(fontFile: Self.dejaVu) == nil)
    }

    @Test("fontconfig finds DejaVu families and refuses a family it lacks with what it has") func lookup() throws {
        #expect(try FontLookup.file(family: "DejaVu Sans", weight: nil) == Self.dejaVu)
        #expect(try FontLookup.file(family: "dejavu sans", weight: 400) == Self.dejaVu)
        #expect(try FontLookup.file(family: "DejaVu Sans", weight: 700).hasSuffix("DejaVuSans-Bold.ttf"))
        #expect(try FontLookup.file(family: "DejaVu Serif", weight: nil).hasSuffix("DejaVuSerif.ttf"))
        func message(_ family: String, _ weight: Int? = nil) -> String {
            do {
                let file = try FontLookup.file(family: family, weight: weight)
                return "found \(file)"
            } catch { return error.message }
        }
        let m = message("DejaVu Sanz")
        #expect(m.hasPrefix("no font family \"DejaVu Sanz\" (fontconfig offers \"DejaVu Sans\", "))
        #expect(m.hasSuffix("; did you mean \"DejaVu Sans\"?"))
        #expect(!message("Helvetica").contains("did you mean"))
        #expect(message("sans-serif").hasPrefix("no font family"))
        #expect(try FontLookup.file(family: "sans-serif", weight: nil, generic: true) == Self.dejaVu)
        #expect(
            try FontLookup.file(family: "monospace", weight: 700, generic: true).hasSuffix("DejaVuSansMono-Bold.ttf"))
        #expect(message("").contains("empty"))
        #expect(message("DejaVu Sans", 0).contains("out of range"))
        #expect(
            FontLookup.missing("Helvetca", installed: ["Helvetica", "Arial"])
                == "no font family \"Helvetca\" (fontconfig offers \"Helvetica\", \"Arial\"); did you mean \"Helvetica\"?"
        )
    }

    @Test("concurrent lookups and outlines agree") func concurrent() async throws {
        let reference = try Self.outline("Loading")
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<16 {
                group.addTask {
                    let file = try FontLookup.file(family: i % 2 == 0 ? "DejaVu Sans" : "DejaVu Serif", weight: nil)
                    _ = try TextOutliner.outline("Loading", fontFile: file, options: .init(size: 48))
                    return try Self.outline("Loading").glyphs == reference.glyphs
                }
            }
            for try await same in group { #expect(same) }
        }
    }
}
