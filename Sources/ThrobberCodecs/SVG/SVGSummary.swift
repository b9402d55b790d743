import ThrobberCore

/// What an SVG file says of itself, for `throbber info`: its size, its
/// title, what made it, and how its animations are timed. Read from the
/// text as data (`SVGScanner`): no XML parser, no entity expansion, no
/// file or address it names is opened.
///
/// An SVG has no frames or frame rate: a browser draws it continuously.
/// Its animations are CSS (`animation`, `animation-duration`, in `<style>`
/// or `style` attributes) and SMIL (`<animate>`, `<animateTransform>`,
/// `<animateMotion>`, `<animateColor>`, `<set>` with `dur`).
public struct SVGSummary: Sendable, Equatable {
    /// `width` and `height` of the root element as written ("64", "2cm"); nil when absent.
    public var width: String?, height: String?
    /// `viewBox` of the root element as written.
    public var viewBox: String?
    /// The first `<title>`'s text.
    public var title: String?
    /// What made the file: "Throbber" when its names are the hash of its
    /// text as Throbber writes them (so it is as Throbber wrote it), else
    /// a generator comment ("Generator: …", "Created with …") or Inkscape's
    /// version attribute; nil when the file does not say.
    public var generator: String?
    /// The durations of its CSS animations, in seconds, one per animation.
    public var cssDurations: [Rational] = []
    /// The durations of its SMIL animations (nil: `indefinite`, `media` or none given).
    public var smilDurations: [Rational?] = []
    /// Whether it has a `<script>` (whose animation is not measured).
    public var hasScript = false
    /// Whether the bytes were gzip-compressed (`.svgz`).
    public var compressed = false

    /// Most bytes of SVG text read, after inflating: the most Throbber's
    /// own SVG export writes.
    public static let maxBytes = 64 << 20
    /// Most characters of a title or generator kept.
    static let maxText = 200

    /// The distinct durations of all animations, shortest first.
    public var durations: [Rational] {
        Array(Set(cssDurations + smilDurations.compactMap { $0 }).filter { Rational(0) < $0 }).sorted()
    }

    /// How long until every animation is back where it started: the least
    /// common multiple of ``durations``; nil without any, or when that is
    /// longer than the longest duration read (`SVGTiming.maxSeconds`).
    public var loop: Rational? {
        var all = durations.makeIterator()
        guard var loop = all.next() else { return nil }
        while let d = all.next() {
            guard let next = Rational.lcm(loop, d), Double(next.floor) <= SVGTiming.maxSeconds else { return nil }
            loop = next
        }
        return loop
    }

    /// Whether `bytes` are an SVG file: after a byte-order mark, an XML
    /// declaration, comments and a DOCTYPE, the first element is `<svg>`,
    /// in the bytes or in what they inflate to (`.svgz`).
    public static func isSVG(_ bytes: [UInt8]) -> Bool {
        guard GzipInflate.isGzip(bytes) else { return rootStart(bytes) != nil }
        return (try? GzipInflate.inflate(bytes, limit: maxBytes, name: "")).map { rootStart($0) != nil } ?? false
    }

    /// The summary of the SVG `bytes` (gzip-compressed or not) read from
    /// `name`. Throws ``ThrobberError/Kind/data`` naming it for bytes that
    /// are no SVG, or past ``maxBytes``.
    public static func read(_ bytes: [UInt8], name: String) throws -> SVGSummary {
        var text = bytes
        let compressed = GzipInflate.isGzip(bytes)
        if compressed { text = try GzipInflate.inflate(bytes, limit: maxBytes, name: name) }
        guard text.count <= maxBytes else {
            throw ThrobberError(
                .data, "\(name): \(text.count) bytes of SVG, over Throbber's limit of \(maxBytes >> 20) MiB")
        }
        guard rootStart(text) != nil else { throw ThrobberError(.data, "\(name): not an SVG file") }
        var summary = SVGSummary()
        summary.compressed = compressed
        summary.scanMarkup(text)
        summary.cssDurations = SVGTiming.cssDurations(text)
        return summary
    }

    /// Walks the markup from the start (generator comments come before
    /// the root): the root's attributes (the first tag, as ``rootStart(_:)``
    /// found), the title, SMIL animations, scripts and generator comments.
    private mutating func scanMarkup(_ text: [UInt8]) {
        var scanner = SVGScanner(text)
        var first = true
        while let item = scanner.next(attributesOf: { first || SVGTiming.smilElements.contains(Self.localName($0)) }) {
            switch item {
            case .comment(let range):
                guard generator == nil else { continue }
                let words = SVGScanner.text(text[range], limit: Self.maxText)
                for mark in ["Generator:", "Created with"] where words.hasPrefix(mark) {
                    generator = String(words.dropFirst(mark.count)).trimmingPrefix(" ").description
                }
            case .tag(let name, let attributes, let end):
                func value(_ key: String) -> String? {
                    attributes.first { $0.name == key }.map { SVGScanner.text(text[$0.value], limit: Self.maxText) }
                }
                let local = Self.localName(name)
                if first {
                    first = false
                    (width, height, viewBox) = (value("width"), value("height"), value("viewBox"))
                    if let version = value("inkscape:version") { generator = "Inkscape \(version)" }
                    if let mark = value("class"), Self.isThrobberHash(mark, of: text) { generator = "Throbber" }
                } else if local == "title", title == nil {
                    let close = scanner.find("</", from: end) ?? text.count
                    title = SVGScanner.text(text[end..<close], limit: Self.maxText)
                } else if local == "script" {
                    hasScript = true
                } else if SVGTiming.smilElements.contains(local) {
                    smilDurations.append(value("dur").flatMap(SVGTiming.clockValue))
                }
            }
        }
    }

    /// `name` without its namespace prefix: "svg:title" is "title".
    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// Where the root `<svg` tag starts in `bytes`, after what may come
    /// before it; nil when the first element is not `svg`.
    static func rootStart(_ bytes: [UInt8]) -> Int? {
        let scanner = SVGScanner(bytes)
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count {
            if SVGScanner.isSpace(bytes[i]) {
                i += 1
            } else if scanner.starts("<?", i) {
                i = (scanner.find("?>", from: i) ?? bytes.count) + 2
            } else if scanner.starts("<!--", i) {
                i = (scanner.find("-->", from: i) ?? bytes.count) + 3
            } else if scanner.starts("<!", i) {
                i = SVGScanner.declarationEnd(bytes, from: i)
            } else {
                break
            }
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else { return nil }
        var end = i + 1
        while end < bytes.count, !SVGScanner.isSpace(bytes[end]), !">/".utf8.contains(bytes[end]) { end += 1 }
        let name = String(decoding: bytes[i + 1..<end], as: UTF8.self)
        return name == "svg" || name.hasSuffix(":svg") ? i : nil
    }

    /// Whether `mark` ("t" and 8 hex digits) is the name Throbber's SVG
    /// export gives `text`: the SHA-256 of the text with each of its uses
    /// put back to the placeholder byte 1 starts with those digits.
    static func isThrobberHash(_ mark: String, of text: [UInt8]) -> Bool {
        let name = Array(mark.utf8)
        guard name.count == 9, name[0] == UInt8(ascii: "t"),
            name.dropFirst().allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return false }
        var placeheld: [UInt8] = []
        placeheld.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            if text[i] == name[0], i + 9 <= text.count, text[i..<i + 9].elementsEqual(name) {
                placeheld.append(1)
                i += 9
            } else {
                placeheld.append(text[i])
                i += 1
            }
        }
        return SHA256.hex(placeheld).hasPrefix(String(mark.dropFirst()))
    }
}
