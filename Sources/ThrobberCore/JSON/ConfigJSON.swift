import FoundationEssentials
import Glibc

/// Configs built in code (the presets) and printed as JSON that `render`
/// reads back to the same animation. Numbers are exact: whole numbers and
/// finite decimals print as JSON numbers, other fractions as "p/q" strings.
package indirect enum ConfigJSON {
    case object([(String, ConfigJSON)])
    case array([ConfigJSON])
    case string(String)
    case number(Rational)
    case bool(Bool)

    static func n(_ v: Rational) -> ConfigJSON { .number(v) }

    /// Pretty-printed with two-space indents; arrays of scalars stay on one line.
    package func printed(indent: String = "") -> String {
        switch self {
        case .string(let s): return ConfigJSON.quote(s)
        case .bool(let b): return b ? "true" : "false"
        case .number(let r): return ConfigJSON.format(r)
        case .array(let items):
            if items.allSatisfy({
                if case .object = $0 { return false }
                if case .array = $0 { return false }
                return true
            }) {
                return "[" + items.map { $0.printed() }.joined(separator: ", ") + "]"
            }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0.printed(indent: inner) }.joined(separator: ",\n") + "\n" + indent
                + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let inner = indent + "  "
            return "{\n"
                + members.map { inner + ConfigJSON.quote($0.0) + ": " + $0.1.printed(indent: inner) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        }
    }

    /// `s` as a JSON string literal, control characters escaped.
    package static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 { out += cFormat("\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    /// `3`, `0.25`, `-1.5`, or `"1/3"` when the decimal would not end.
    static func format(_ r: Rational) -> String {
        if r.denominator == 1 { return "\(r.numerator)" }
        var d = r.denominator
        var twos = 0
        var fives = 0
        while d % 2 == 0 {
            d /= 2
            twos += 1
        }
        while d % 5 == 0 {
            d /= 5
            fives += 1
        }
        guard d == 1 else { return "\"\(r.numerator)/\(r.denominator)\"" }
        let digits = max(twos, fives)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = r.numerator * (scale / r.denominator)
        let sign = scaled < 0 ? "-" : ""
        let mag = scaled.magnitude
        var frac = String(mag % UInt64(scale))
        frac = String(repeating: "0", count: digits - frac.count) + frac
        return "\(sign)\(mag / UInt64(scale)).\(frac)"
    }
}

extension ConfigJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral
{
    package init(stringLiteral s: String) { self = .string(s) }
    package init(integerLiteral v: Int) { self = .number(Rational(v)) }
    package init(booleanLiteral b: Bool) { self = .bool(b) }
    package init(arrayLiteral items: ConfigJSON...) { self = .array(items) }
    package init(dictionaryLiteral members: (String, ConfigJSON)...) { self = .object(members) }
    /// Float literals are read through their shortest decimal text, exactly.
    package init(floatLiteral v: Double) { self = .number(Rational(parsing: "\(v)")!) }
}
