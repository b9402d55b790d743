/// JSON text for a parsed document: compact, members in their order,
/// numbers exactly as they were written, strings escaped as RFC 8259
/// requires (quote, backslash and control characters) and otherwise left
/// as UTF-8. Parsing the output gives back the same values.
package enum JSONText {
    /// Appends `value` as JSON text to `out`.
    package static func write(_ value: JSON, to out: inout [UInt8]) {
        switch value {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, m) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                string(m.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(m.value.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(e.value, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let s): string(s, to: &out)
        case .number(let text): out += text.utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .null: out += "null".utf8
        }
    }

    private static func string(_ s: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
