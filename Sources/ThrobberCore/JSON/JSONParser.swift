/// A strict JSON (RFC 8259) parser over UTF-8 bytes.
package struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    struct SyntaxError: Error {
        var line: Int, column: Int, message: String
    }

    /// Parses `bytes`; a syntax error names `file`, line and column.
    package static func parse(_ bytes: [UInt8], file: String) throws -> JSONNode {
        do {
            return try parse(bytes)
        } catch let e as SyntaxError {
            throw ThrobberError(.data, "\(file): line \(e.line), column \(e.column): JSON syntax error: \(e.message)")
        }
    }

    static func parse(_ bytes: [UInt8]) throws -> JSONNode {
        var p = JSONParser(bytes: bytes)
        if p.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            p.i = 3
            p.lineStart = 3
        }  // UTF-8 BOM
        p.skipSpace()
        let node = try p.value()
        p.skipSpace()
        if p.i < p.bytes.count { throw p.error("unexpected \(p.describeCurrent()) after the end of the document") }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var column: Int { i - lineStart + 1 }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(line: line, column: column, message: message)
    }

    private func describeCurrent() -> String {
        guard i < bytes.count else { return "end of file" }
        let c = bytes[i]
        if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
                lineStart = i
            default: return
            }
        }
    }

    private mutating func value() throws -> JSONNode {
        let (l, c) = (line, column)
        guard i < bytes.count else { throw error("unexpected end of file, expected a value") }
        let v: JSON
        switch bytes[i] {
        case UInt8(ascii: "{"): v = try object()
        case UInt8(ascii: "["): v = try array()
        case UInt8(ascii: "\""): v = .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            v = .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            v = .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            v = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): v = .number(try number())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
        return JSONNode(value: v, line: l, column: c)
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard bytes.count - i >= w.count, Array(bytes[i..<(i + w.count)]) == w else {
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        i += w.count
    }

    private mutating func nest() throws {
        depth += 1
        if depth > 200 { throw error("nesting is deeper than 200 levels") }
    }

    private mutating func object() throws -> JSON {
        try nest()
        defer { depth -= 1 }
        i += 1
        var members: [(key: String, value: JSONNode)] = []
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
            i += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a key in double quotes")
            }
            let key = try string()
            if members.contains(where: { $0.key == key }) { throw error("duplicate key \"\(key)\"") }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after the key")
            }
            i += 1
            skipSpace()
            members.append((key, try value()))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(members)
            }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    private mutating func array() throws -> JSON {
        try nest()
        defer { depth -= 1 }
        i += 1
        var items: [JSONNode] = []
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    private mutating func string() throws -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                break
            }
            if c < 0x20 { throw error("control character in a string (escape it)") }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < bytes.count else { throw error("unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                i -= 1
                throw error("invalid escape \\\(Character(Unicode.Scalar(e)))")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
        return s
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
        else {
            throw error("invalid \\u escape (expected 4 hex digits)")
        }
        i += 4
        return v
    }

    private mutating func number() throws -> String {
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count && (0x30...0x39).contains(bytes[i]) { i += 1 }
            return i - s
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw error("invalid number") }
        if bytes[i] == UInt8(ascii: "0") { i += 1 } else { _ = digits() }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard digits() > 0 else { throw error("invalid number: digits expected in the exponent") }
        }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }
}
