internal import CHarfBuzz

/// Turns a string into glyph outlines: shaped by HarfBuzz (kerning,
/// ligatures and the rest of the font's default features), each glyph
/// drawn as cubic Béziers in points, so a text layer looks the same in
/// frames, SVG and Lottie and needs no font where it is viewed.
///
/// Coordinates are points with y down. Horizontally the block sits by
/// `Options.align` (center: its center at x = 0; left: it starts at 0;
/// right: it ends at 0), each line aligned on its own within it.
/// Vertically the block's center is at y = 0, a line's box runs from the
/// font's ascender to its descender, and consecutive baselines are
/// ascender − descender + line gap apart (HarfBuzz's horizontal font
/// extents). Lines are separated by newline characters (`\n`, `\r\n`, and
/// the other characters Swift calls newlines).
///
/// The result depends only on the font file's bytes, the text and the
/// options: the language is fixed ("und", undetermined), so no locale or
/// environment changes shaping.
enum TextOutliner {
    /// Where each line sits horizontally.
    enum Align: String, Sendable { case left, center, right }

    /// How to lay the text out.
    struct Options: Sendable {
        /// The em size in points.
        var size: Double
        /// Points added after every glyph cluster but the last of a line (may be negative). When not zero,
        /// the optional ligatures (`liga`, `clig`) are turned off, as CSS does.
        var letterSpacing = 0.0
        /// Where each line sits horizontally.
        var align = Align.center
        /// The CSS weight (1…1000) for a variable font's `wght` axis; nil keeps the font's default. A font
        /// without that axis given a weight is an error: pick the file of that weight instead (`FontLookup`).
        var weight: Int? = nil
    }

    /// A box in points, y down.
    struct Box: Sendable, Equatable {
        /// The top left corner.
        var min: PathGeometry.Point
        /// The bottom right corner.
        var max: PathGeometry.Point
        /// The middle of the box.
        var center: PathGeometry.Point { .init((min.x + max.x) / 2, (min.y + max.y) / 2) }
    }

    /// One drawn glyph.
    struct Glyph: Sendable, Equatable {
        /// Its outline in points, y down; filled with the nonzero rule.
        var outline: PathGeometry
        /// The index, in the text's Characters (newlines included), of the first Character of its cluster.
        var character: Int
        /// Its advance box: x from its pen position to pen + advance, y from its line's top (ascender) to its
        /// bottom (descender), so the glyphs of one line share a vertical center. Letter spacing is outside it.
        var box: Box
        /// The center of its advance box: what it turns and scales about when animated on its own.
        var center: PathGeometry.Point { box.center }
    }

    /// Laid-out text.
    struct Result: Sendable, Equatable {
        /// The visible glyphs in visual order, line by line; spaces and other blank glyphs produce none.
        var glyphs: [Glyph]
        /// The block's width in points: its widest line, advances and letter spacing included.
        var width: Double
        /// The block's height in points: from the first line's ascender to the last line's descender.
        var height: Double
        /// The y of the first line's baseline.
        var baseline: Double
    }

    /// Why text could not be outlined, as a sentence saying what to fix.
    struct Failure: Error, Equatable {
        /// The sentence.
        var message: String
    }

    /// The most Characters a text may have.
    static let maxCharacters = 1000
    /// The largest em size, in points.
    static let maxSize = 10_000.0

    /// One shaped glyph in font units, HarfBuzz's x right and y up.
    struct Shaped {
        /// Glyph id (0: the font has none), UTF-8 offset of its cluster in the line, advance and offset.
        var id: UInt32, cluster: UInt32, advance: Int32, offsetX: Int32, offsetY: Int32
    }

    /// One shaped line: its glyphs in visual order, where its Characters start in the UTF-8 given to
    /// HarfBuzz, and the index of its first Character in the whole text.
    struct Line {
        var glyphs: [Shaped], characterStarts: [Int], byteCount: Int, firstCharacter: Int
    }

    /// Shapes `text` with the font in `fontFile` and returns its glyphs' outlines, laid out by `options`.
    static func outline(_ text: String, fontFile: String, options: Options) throws(Failure) -> Result {
        guard !text.isEmpty else { throw Failure("the text is empty: give at least one character") }
        let count = text.count
        guard count <= maxCharacters else {
            throw Failure("the text has \(count) characters, more than \(maxCharacters): shorten it")
        }
        guard options.size.isFinite, options.size > 0, options.size <= maxSize else {
            throw Failure(
                "font size \(options.size) is out of range: use more than 0 and at most \(Int(maxSize)) points")
        }
        guard options.letterSpacing.isFinite, abs(options.letterSpacing) <= maxSize else {
            throw Failure(
                "letter spacing \(options.letterSpacing) is out of range: use -\(Int(maxSize))…\(Int(maxSize)) points")
        }
        let font = try FontFace(file: fontFile)
        try font.setWeight(options.weight)
        let extents = font.lineExtents
        guard extents.ascender > extents.descender else {
            throw Failure("the font has unusable line metrics (ascender at or below descender)")
        }
        let lines = shape(text, font: font.font, ligatures: options.letterSpacing == 0)
        try checkGlyphs(lines, text: text, font: font)
        return layout(lines, font: font, options: options)
    }

    /// Shapes each line of `text` on its own.
    static func shape(_ text: String, font: OpaquePointer, ligatures: Bool) -> [Line] {
        let language = hb_language_from_string("und", -1)
        var features: [hb_feature_t] = []
        if !ligatures {
            features = ["liga", "clig"].map { hb_feature_t(tag: tag($0), value: 0, start: 0, end: UInt32.max) }
        }
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        var lines: [Line] = []
        var firstCharacter = 0
        for substring in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = String(substring)
            var starts: [Int] = []
            var offset = 0
            for character in line {
                starts.append(offset)
                offset += character.utf8.count
            }
            hb_buffer_clear_contents(buffer)
            line.withUTF8 { hb_buffer_add_utf8(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count)) }
            hb_buffer_set_flags(buffer, hb_buffer_flags_t(HB_BUFFER_FLAG_BOT.rawValue | HB_BUFFER_FLAG_EOT.rawValue))
            hb_buffer_set_language(buffer, language)
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(font, buffer, features, UInt32(features.count))
            var length: UInt32 = 0
            var glyphs: [Shaped] = []
            if let infos = hb_buffer_get_glyph_infos(buffer, &length),
                let positions = hb_buffer_get_glyph_positions(buffer, &length)
            {
                for i in 0..<Int(length) {
                    glyphs.append(
                        Shaped(
                            id: infos[i].codepoint, cluster: infos[i].cluster, advance: positions[i].x_advance,
                            offsetX: positions[i].x_offset, offsetY: positions[i].y_offset))
                }
            }
            lines.append(
                Line(glyphs: glyphs, characterStarts: starts, byteCount: offset, firstCharacter: firstCharacter))
            firstCharacter += starts.count + 1
        }
        return lines
    }

    /// Places the shaped lines' glyphs in points and collects their outlines.
    static func layout(_ lines: [Line], font: FontFace, options: Options) -> Result {
        let scale = options.size / Double(font.unitsPerEm)
        let extents = font.lineExtents
        let lineHeight = Double(extents.ascender - extents.descender) * scale
        let lineStep = Double(extents.ascender - extents.descender + extents.lineGap) * scale
        let height = Double(lines.count - 1) * lineStep + lineHeight
        let spacing = options.letterSpacing
        let widths = lines.map { line in
            Double(line.glyphs.reduce(Int64(0)) { $0 + Int64($1.advance) }) * scale
                + Double(clusterBreaks(line.glyphs).count(where: { $0 })) * spacing
        }
        let width = max(0, widths.max() ?? 0)
        let drawer = GlyphDrawer(font: font.font)
        var glyphs: [Glyph] = []
        for (index, line) in lines.enumerated() {
            let top = -height / 2 + Double(index) * lineStep
            let baseline = top + Double(extents.ascender) * scale
            var pen = Int64(0)
            var spaces = 0
            let x0 =
                switch options.align {
                case .left: 0.0
                case .center: -widths[index] / 2
                case .right: -widths[index]
                }
            for (glyph, spaced) in zip(line.glyphs, clusterBreaks(line.glyphs)) {
                let x = x0 + Double(pen) * scale + Double(spaces) * spacing
                pen += Int64(glyph.advance)
                if spaced { spaces += 1 }
                guard glyph.id != 0 else { continue }
                let units = drawer.outline(glyph.id)
                guard !units.subpaths.isEmpty else { continue }
                let origin = PathGeometry.Point(
                    x + Double(glyph.offsetX) * scale, baseline - Double(glyph.offsetY) * scale)
                let box = Box(
                    min: .init(x, top), max: .init(x + Double(glyph.advance) * scale, top + lineHeight))
                glyphs.append(
                    Glyph(
                        outline: place(units, at: origin, scale: scale),
                        character: line.firstCharacter + characterIndex(Int(glyph.cluster), line.characterStarts),
                        box: box))
            }
        }
        let baseline = -height / 2 + Double(extents.ascender) * scale
        return Result(glyphs: glyphs, width: width, height: height, baseline: baseline)
    }

    /// For each glyph, whether letter spacing follows it: at every change of cluster, not after the last.
    static func clusterBreaks(_ glyphs: [Shaped]) -> [Bool] {
        glyphs.indices.map { $0 + 1 < glyphs.count && glyphs[$0].cluster != glyphs[$0 + 1].cluster }
    }

    /// The index of the Character holding UTF-8 offset `byte`, given where each Character starts.
    static func characterIndex(_ byte: Int, _ starts: [Int]) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= byte { low = middle } else { high = middle - 1 }
        }
        return max(0, low)
    }

    /// `units` (font units, y up) scaled by `scale`, flipped to y down and moved to `origin`.
    static func place(_ units: PathGeometry, at origin: PathGeometry.Point, scale: Double) -> PathGeometry {
        func map(_ p: PathGeometry.Point) -> PathGeometry.Point {
            .init(origin.x + p.x * scale, origin.y - p.y * scale)
        }
        return PathGeometry(
            subpaths: units.subpaths.map { subpath in
                PathGeometry.Subpath(
                    start: map(subpath.start),
                    segments: subpath.segments.map { .init(c1: map($0.c1), c2: map($0.c2), to: map($0.to)) },
                    closed: subpath.closed)
            })
    }

    /// An OpenType tag from its four ASCII characters.
    static func tag(_ name: String) -> UInt32 {
        name.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}

extension TextOutliner.Failure {
    /// A failure saying `message`.
    init(_ message: String) { self.init(message: message) }
}
