internal import CFontconfig
import Glibc

/// Finds installed font files by family name and weight through fontconfig.
///
/// fontconfig always answers with *some* font, so the family it matched is
/// compared with the one asked for and a different one is an error that
/// lists the families there are, nearest first: a config never silently
/// draws its text in a font it did not name.
///
/// fontconfig keeps its configuration itself, loaded on first use under its
/// own lock (`FcInit`, and every call given a `nil` configuration uses that
/// current one), so this type holds no state of its own.
enum FontLookup {
    /// Why no font file was found, as a sentence saying what to change.
    struct Failure: Error, Equatable {
        /// The sentence.
        var message: String
    }

    /// How many installed families a failure lists at most.
    static let listedFamilies = 8

    /// The font file fontconfig matches for `family` at `weight` (CSS weights 1…1000, nil is regular 400),
    /// upright (not italic).
    ///
    /// Unless `generic` (a name such as "sans-serif" that fontconfig's configuration resolves to a family of
    /// the system's choice), the match must have `family` among its family names (compared without regard
    /// to case); otherwise fontconfig substituted another family and this throws, listing the families
    /// installed. The weight is the nearest one the family has, as CSS picks it: fontconfig may match a bold
    /// file for 600, or the regular file for 700 when the family has no bold. A face inside a font
    /// collection other than its first is refused, since a file name alone cannot select it.
    static func file(family: String, weight: Int?, generic: Bool = false) throws(Failure) -> String {
        guard !family.isEmpty, family.contains(where: { !$0.isWhitespace }) else {
            throw Failure("the font family is empty: name one, such as \"DejaVu Sans\"")
        }
        guard !family.unicodeScalars.contains("\0") else {
            throw Failure("the font family \"\(printable(family))\" contains a NUL character")
        }
        let cssWeight = weight ?? 400
        guard (1...1000).contains(cssWeight) else {
            throw Failure("font weight \(cssWeight) is out of range: use 1…1000 (400 regular, 700 bold)")
        }
        guard FcInit() != 0 else { throw Failure("fontconfig could not load its configuration") }
        guard let pattern = FcPatternCreate() else { throw Failure("fontconfig is out of memory") }
        defer { FcPatternDestroy(pattern) }
        _ = addString(pattern, FC_FAMILY, family)
        FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(cssWeight)))
        FcPatternAddInteger(pattern, FC_SLANT, FC_SLANT_ROMAN)
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else {
            throw Failure(missing(family, installed: installedFamilies()))
        }
        defer { FcPatternDestroy(match) }
        let wanted = family.lowercased()
        guard generic || strings(match, FC_FAMILY).contains(where: { $0.lowercased() == wanted }) else {
            throw Failure(missing(family, installed: installedFamilies()))
        }
        guard let file = strings(match, FC_FILE).first else {
            throw Failure("fontconfig matched font family \"\(family)\" but names no file for it")
        }
        var index: Int32 = 0
        if FcPatternGetInteger(match, FC_INDEX, 0, &index) == FcResultMatch, index & 0xFFFF != 0 {
            throw Failure(
                "font family \"\(family)\" is face \(index & 0xFFFF) of the collection \"\(file)\"; "
                    + "only a collection's first face can be used: install the family as its own file")
        }
        return file
    }

    /// Adds `value` to `object` of `pattern` as a fontconfig string.
    private static func addString(_ pattern: OpaquePointer, _ object: String, _ value: String) -> Bool {
        value.withCString { chars in
            chars.withMemoryRebound(to: FcChar8.self, capacity: value.utf8.count + 1) {
                FcPatternAddString(pattern, object, $0) != 0
            }
        }
    }

    /// Every string value `object` has in `pattern`, in fontconfig's order.
    private static func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
        var values: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(pattern, object, Int32(values.count), &value) == FcResultMatch, let chars = value {
            values.append(String(decoding: UnsafeBufferPointer(start: chars, count: strlen(chars)), as: UTF8.self))
        }
        return values
    }

    /// The folders fontconfig finds installed fonts in (its `<dir>`s, as
    /// configured): a config may name a font file there as well as beside it,
    /// as it may reach the same files by `family`.
    static func fontDirectories() -> [String] {
        guard FcInit() != 0, let list = FcConfigGetFontDirs(nil) else { return [] }
        defer { FcStrListDone(list) }
        var out: [String] = []
        while let p = FcStrListNext(list) {
            out.append(String(cString: p))
        }
        return out
    }

    /// Every family name of every installed font (all of a font's names, as fontconfig lists them),
    /// without repeats.
    static func installedFamilies() -> [String] {
        guard FcInit() != 0, let pattern = FcPatternCreate() else { return [] }
        defer { FcPatternDestroy(pattern) }
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        FcObjectSetAdd(objects, FC_FAMILY)
        guard let list = FcFontList(nil, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(list) }
        var seen = Set<String>()
        var families: [String] = []
        for index in 0..<Int(list.pointee.nfont) {
            guard let font = list.pointee.fonts[index] else { continue }
            for name in strings(font, FC_FAMILY) where seen.insert(name.lowercased()).inserted {
                families.append(name)
            }
        }
        return families
    }

    /// The message for a family fontconfig does not have: up to `listedFamilies` installed families,
    /// nearest to `family` first (edit distance without regard to case, ties by name), and a suggestion
    /// when one is close.
    static func missing(_ family: String, installed: [String]) -> String {
        let wanted = Array(family.lowercased())
        let ranked = installed.map { (name: $0, distance: editDistance(wanted, Array($0.lowercased()))) }
            .sorted { ($0.distance, $0.name.lowercased(), $0.name) < ($1.distance, $1.name.lowercased(), $1.name) }
        var message = "no font family \"\(printable(family))\""
        if ranked.isEmpty {
            return message + " (fontconfig finds no fonts installed)"
        }
        let listed = ranked.prefix(listedFamilies).map { "\"\($0.name)\"" }
        let more = ranked.count > listedFamilies ? ", …" : ""
        message += " (fontconfig offers \(listed.joined(separator: ", "))\(more))"
        if let best = ranked.first, best.distance <= max(1, wanted.count / 3) {
            message += "; did you mean \"\(best.name)\"?"
        }
        return message
    }

    /// The Levenshtein distance between two strings of characters: the fewest insertions, deletions and
    /// substitutions that turn `a` into `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// `text` with control characters shown as `\u{…}` escapes, for messages.
    static func printable(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}

extension FontLookup.Failure {
    /// A failure saying `message`.
    init(_ message: String) { self.init(message: message) }
}
