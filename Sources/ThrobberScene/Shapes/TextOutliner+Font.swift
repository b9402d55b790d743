internal import CHarfBuzz
import Glibc

extension TextOutliner {
    /// The largest font file read, in bytes (64 MiB).
    static let maxFontBytes = 64 << 20

    /// The range of the `wght` axis of the variable font in `fontFile` (its first face), or nil when the
    /// font is static: whether `Options.weight` may be given for it.
    static func weightAxis(fontFile: String) throws(Failure) -> ClosedRange<Double>? {
        try FontFace(file: fontFile).weightAxis
    }

    /// Throws when the font lacks a glyph for a character that is not blank (whitespace, control or
    /// default-ignorable), naming up to five such characters.
    static func checkGlyphs(_ lines: [Line], text: String, font: FontFace) throws(Failure) {
        let characters = Array(text)
        var missing: [Unicode.Scalar] = []
        for line in lines {
            let clusters = Set(line.glyphs.map { Int($0.cluster) }).sorted()
            for glyph in line.glyphs where glyph.id == 0 {
                let start = Int(glyph.cluster)
                let end = clusters.first { $0 > start } ?? line.byteCount
                let indices = line.characterStarts.indices.filter {
                    line.characterStarts[$0] >= start && line.characterStarts[$0] < end
                }
                let scalars = indices.flatMap { characters[line.firstCharacter + $0].unicodeScalars }
                let visible = scalars.filter { !isBlank($0) }
                let lacking = visible.filter { !font.hasGlyph($0) }
                for scalar in lacking.isEmpty ? Array(visible.prefix(1)) : lacking where !missing.contains(scalar) {
                    missing.append(scalar)
                }
            }
        }
        guard !missing.isEmpty else { return }
        var named = missing.prefix(5).map { scalar in
            "\"\(isBlank(scalar) ? " " : String(scalar))\" (U+\(hex(scalar.value)))"
        }.joined(separator: ", ")
        if missing.count > 5 { named += " and \(missing.count - 5) more" }
        let them = missing.count == 1 ? "it" : "them"
        throw Failure(
            "the font has no glyph for \(named): use a font that has \(them) or change the text")
    }

    /// Whether `scalar` draws nothing by design: whitespace, a control or format character, or one Unicode
    /// says to ignore by default.
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isWhitespace || properties.isDefaultIgnorableCodePoint
            || [.control, .format].contains(properties.generalCategory)
    }

    /// `value` as at least four uppercase hexadecimal digits.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A font file's first face opened by HarfBuzz at a scale of one font unit per unit, so positions and
    /// outlines come back in exact font units. Owns its HarfBuzz objects; used by one thread at a time.
    final class FontFace {
        /// The path it was read from, for messages.
        let file: String
        /// The file's bytes, which HarfBuzz frees with the blob.
        let blob: OpaquePointer
        /// The first face of the file.
        let face: OpaquePointer
        /// The face at one font unit per unit.
        let font: OpaquePointer
        /// Font units per em.
        let unitsPerEm: UInt32

        /// Reads `file` (a regular file of at most `maxFontBytes`) and opens its first face.
        init(file: String) throws(Failure) {
            self.file = file
            let (bytes, count) = try Self.read(file)
            blob = hb_blob_create(bytes, UInt32(count), HB_MEMORY_MODE_READONLY, bytes) { free($0) }
            face = hb_face_create(blob, 0)
            font = hb_font_create(face)
            unitsPerEm = hb_face_get_upem(face)
            guard hb_face_get_glyph_count(face) > 0 else {
                throw Failure("\"\(file)\" is not a font file (TrueType, OpenType or a collection)")
            }
            hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
        }

        deinit {
            hb_font_destroy(font)
            hb_face_destroy(face)
            hb_blob_destroy(blob)
        }

        /// The font's ascender, descender (negative below the baseline) and line gap in font units.
        var lineExtents: (ascender: Int32, descender: Int32, lineGap: Int32) {
            var extents = hb_font_extents_t()
            hb_font_get_h_extents(font, &extents)
            return (extents.ascender, extents.descender, extents.line_gap)
        }

        /// Whether the font's character map has a glyph for `scalar`.
        func hasGlyph(_ scalar: Unicode.Scalar) -> Bool {
            var glyph: hb_codepoint_t = 0
            return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 && glyph != 0
        }

        /// The range of the `wght` axis, or nil for a font without one.
        var weightAxis: ClosedRange<Double>? {
            var axis = hb_ot_var_axis_info_t()
            guard hb_ot_var_find_axis_info(face, TextOutliner.tag("wght"), &axis) != 0 else { return nil }
            return Double(min(axis.min_value, axis.max_value))...Double(max(axis.min_value, axis.max_value))
        }

        /// Sets the `wght` axis to `weight`; nil keeps the font's default instance.
        func setWeight(_ weight: Int?) throws(Failure) {
            guard let weight else { return }
            guard let range = weightAxis else {
                throw Failure(
                    "the font is not a variable font with a weight axis, so weight \(weight) cannot "
                        + "be applied: give no weight, or pick the file of that weight")
            }
            guard range.contains(Double(weight)) else {
                throw Failure(
                    "weight \(weight) is outside the font's weight axis "
                        + "(\(Int(range.lowerBound.rounded()))…\(Int(range.upperBound.rounded())))")
            }
            var variation = hb_variation_t(tag: TextOutliner.tag("wght"), value: Float(weight))
            hb_font_set_variations(font, &variation, 1)
        }

        /// The bytes of `path` in memory from `malloc` (the caller frees them) and their count. Refuses
        /// anything but a regular file and files over `maxFontBytes`; opens without blocking, so a FIFO
        /// never hangs.
        static func read(_ path: String) throws(Failure) -> (UnsafeMutableRawPointer, Int) {
            guard !path.isEmpty, !path.unicodeScalars.contains("\0") else {
                throw Failure("the font file name \"\(FontLookup.printable(path))\" is not a valid path")
            }
            let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else {
                throw Failure("cannot open the font file \"\(path)\": \(String(cString: strerror(errno)))")
            }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                throw Failure("cannot read the font file \"\(path)\": \(String(cString: strerror(errno)))")
            }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFREG else {
                let what =
                    switch kind {
                    case S_IFDIR: "a directory"
                    case S_IFIFO: "a FIFO (named pipe)"
                    case S_IFCHR, S_IFBLK: "a device"
                    case S_IFSOCK: "a socket"
                    default: "not a regular file"
                    }
                throw Failure("the font file \"\(path)\" is \(what): give a TrueType or OpenType font file")
            }
            let tooLarge = Failure(
                "the font file \"\(path)\" is larger than \(maxFontBytes >> 20) MiB: use a smaller font file")
            guard info.st_size <= maxFontBytes else { throw tooLarge }
            // One byte more than the limit, to notice a file that grew since fstat.
            let capacity = Int(info.st_size) + 1
            guard let bytes = malloc(capacity) else { throw Failure("out of memory reading \"\(path)\"") }
            var count = 0
            while count < capacity {
                let got = Glibc.read(fd, bytes + count, capacity - count)
                if got == 0 { break }
                if got < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    free(bytes)
                    throw Failure("cannot read the font file \"\(path)\": \(reason)")
                }
                count += got
            }
            guard count < capacity else {
                free(bytes)
                throw Failure("the font file \"\(path)\" changed while it was read: try again")
            }
            return (bytes, count)
        }
    }
}
