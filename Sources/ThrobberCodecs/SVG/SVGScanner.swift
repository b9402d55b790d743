import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// A walk over an SVG file's markup without an XML parser: start tags with
/// their attributes, and comments. Nothing is resolved or fetched: no
/// entity but XML's own five and character references is expanded (a
/// DOCTYPE's entities stay as written), and nothing outside the bytes is
/// read. Every step moves forward, so a walk is linear in the bytes.
struct SVGScanner {
    /// One thing the walk met.
    enum Item {
        /// A start tag: its name, its attributes (names, and where each
        /// value lies in the bytes), and the index after its `>`.
        case tag(name: String, attributes: [(name: String, value: Range<Int>)], end: Int)
        /// A comment's text.
        case comment(Range<Int>)
    }

    let bytes: [UInt8]
    /// Where the walk is.
    private(set) var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Markup the walk looks for, as bytes.
    private static let open = Array("<".utf8), close = Array(">".utf8), commentOpen = Array("<!--".utf8),
        commentClose = Array("-->".utf8), cdataOpen = Array("<![CDATA[".utf8), cdataClose = Array("]]>".utf8),
        declaration = Array("<!".utf8), instructionOpen = Array("<?".utf8), instructionClose = Array("?>".utf8),
        endTag = Array("</".utf8)

    /// The next start tag or comment; nil at the end. Text, end tags,
    /// processing instructions, declarations and CDATA are passed over.
    /// The attributes are read only of a tag whose name `wanted` accepts
    /// (the others are passed over, quotes and all).
    mutating func next(attributesOf wanted: (String) -> Bool = { _ in true }) -> Item? {
        while let lt = find(Self.open, from: at) {
            at = lt
            if starts(Self.commentOpen, at) {
                let end = find(Self.commentClose, from: at + 4) ?? bytes.count
                defer { at = min(bytes.count, end + 3) }
                return .comment(at + 4..<end)
            }
            if starts(Self.cdataOpen, at) {
                at = min(bytes.count, (find(Self.cdataClose, from: at + 9) ?? bytes.count) + 3)
            } else if starts(Self.declaration, at) {
                at = Self.declarationEnd(bytes, from: at)
            } else if starts(Self.instructionOpen, at) {
                at = min(bytes.count, (find(Self.instructionClose, from: at + 2) ?? bytes.count) + 2)
            } else if starts(Self.endTag, at) {
                at = min(bytes.count, (find(Self.close, from: at + 2) ?? bytes.count) + 1)
            } else {
                return startTag(wanted)
            }
        }
        at = bytes.count
        return nil
    }

    /// Whether `b` ends a name: white space, `=`, `>` or `/`.
    private static func endsName(_ b: UInt8) -> Bool {
        isSpace(b) || b == UInt8(ascii: "=") || b == UInt8(ascii: ">") || b == UInt8(ascii: "/")
    }

    /// The start tag at ``at``, which is moved past it; its attributes
    /// only when `wanted` accepts its name.
    private mutating func startTag(_ wanted: (String) -> Bool) -> Item {
        var i = at + 1
        let nameStart = i
        while i < bytes.count, !Self.endsName(bytes[i]) { i += 1 }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
        let keep = wanted(name)
        var attributes: [(name: String, value: Range<Int>)] = []
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
            if Self.isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "/") {
                i += 1
                continue
            }
            let start = i
            while i < bytes.count, !Self.endsName(bytes[i]) { i += 1 }
            let nameEnd = i
            while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { continue }
            i += 1
            while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { break }
            let value: Range<Int>
            if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                let end = find([bytes[i]], from: i + 1) ?? bytes.count
                value = i + 1..<end
                i = min(bytes.count, end + 1)
            } else {
                let valueStart = i
                while i < bytes.count, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
                value = valueStart..<i
            }
            if keep { attributes.append((String(decoding: bytes[start..<nameEnd], as: UTF8.self), value)) }
        }
        at = min(bytes.count, i + 1)
        return .tag(name: name, attributes: attributes, end: at)
    }

    /// The index after the `>` that ends the declaration (`<!DOCTYPE …>`)
    /// at `start`, past an internal subset in brackets and quoted text.
    static func declarationEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start + 2
        var depth = 0
        var quote: UInt8? = nil
        while i < bytes.count {
            let b = bytes[i]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "[") {
                depth += 1
            } else if b == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if b == UInt8(ascii: ">") && depth == 0 {
                return i + 1
            }
            i += 1
        }
        return bytes.count
    }

    /// Whether `pattern` (ASCII) is at `index`.
    func starts(_ pattern: String, _ index: Int) -> Bool { starts(Array(pattern.utf8), index) }

    /// Whether `pattern` is at `index`.
    func starts(_ pattern: [UInt8], _ index: Int) -> Bool {
        guard index >= 0, index + pattern.count <= bytes.count else { return false }
        for k in pattern.indices where bytes[index + k] != pattern[k] { return false }
        return true
    }

    /// The first index at or after `from` where `pattern` starts.
    func find(_ pattern: String, from: Int) -> Int? { find(Array(pattern.utf8), from: from) }

    /// The first index at or after `from` where `pattern` starts: each
    /// place its first byte is (memchr(3)), then the rest compared.
    func find(_ pattern: [UInt8], from: Int) -> Int? {
        guard let first = pattern.first, from >= 0 else { return nil }
        let count = bytes.count
        return bytes.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var i = from
            while i + pattern.count <= count {
                guard let hit = memchr(base + i, Int32(first), count - i) else { return nil }
                let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                guard at + pattern.count <= count else { return nil }
                if memcmp(base + at, pattern, pattern.count) == 0 { return at }
                i = at + 1
            }
            return nil
        }
    }

    /// XML's white space.
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// `bytes` as text: XML's five entities and character references
    /// expanded (any other entity kept as written), white space runs made
    /// one space, control characters dropped, cut to `limit` characters.
    static func text(_ bytes: ArraySlice<UInt8>, limit: Int) -> String {
        // A character is at most 4 bytes, a reference at most 12; white
        // space beyond that many bytes is taken as cut.
        let raw = String(decoding: bytes.prefix(limit * 16), as: UTF8.self)
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var rest = Substring(raw)
        while let scalar = rest.unicodeScalars.first, out.count < limit {
            var next = scalar
            var length = 1
            if scalar == "&", let semi = rest.prefix(12).firstIndex(of: ";"),
                let decoded = entity(rest[rest.index(after: rest.startIndex)..<semi])
            {
                next = decoded
                length = rest.unicodeScalars[rest.startIndex...semi].count
            }
            rest = Substring(rest.unicodeScalars.dropFirst(length))
            if next.properties.isWhitespace {
                pendingSpace = !out.isEmpty
            } else if next.properties.generalCategory != .control {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(next)
            }
        }
        return String(out)
    }

    /// The character an entity name (between `&` and `;`) stands for, of
    /// XML's five and numeric references; nil for any other.
    private static func entity(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}
