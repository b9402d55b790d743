/// Walks a parsed config with JSON paths, so every error can say where it
/// is and what was expected: `ease.json: layers[0].animate[1].by: expected a
/// number or a fraction like "1/3"`. Objects report keys nobody asked for.
package struct ConfigReader {
    package let file: String

    package init(file: String) { self.file = file }

    package func error(_ path: String, _ message: String) -> ThrobberError {
        ThrobberError(.data, "\(file): \(path.isEmpty ? "(top level)" : path): \(message)")
    }

    /// Keys of one JSON object, with a check that all were used.
    package final class Object {
        package let reader: ConfigReader
        package let path: String
        package let members: [(key: String, value: JSONNode)]
        private var used: Set<String> = []

        package init(_ reader: ConfigReader, _ node: JSONNode, path: String) throws {
            guard case .object(let m) = node.value else {
                throw reader.error(path, "expected an object, found \(node.value.kindName)")
            }
            self.reader = reader
            self.path = path
            self.members = m
        }

        package func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        package func has(_ key: String) -> Bool { members.contains { $0.key == key } }

        package func node(_ key: String) -> JSONNode? {
            guard let m = members.first(where: { $0.key == key }) else { return nil }
            used.insert(key)
            return m.value
        }

        package func optional<T>(_ key: String, _ parse: (JSONNode, String) throws -> T) throws -> T? {
            guard let n = node(key) else { return nil }
            return try parse(n, child(key))
        }

        package func required<T>(_ key: String, _ parse: (JSONNode, String) throws -> T) throws -> T {
            guard let n = node(key) else {
                // A near miss is most likely a typo of this very key.
                if let typo = members.first(where: {
                    !used.contains($0.key) && !Suggestion.nearest(to: $0.key, among: [key]).isEmpty
                }) {
                    throw reader.error(
                        child(typo.key), "unknown key" + Suggestion.didYouMean(typo.key, among: [key], quote: "\""))
                }
                throw reader.error(path, "missing required key \"\(key)\"")
            }
            return try parse(n, child(key))
        }

        /// Fails on the first key that was never read: a typo must not
        /// silently produce a different animation.
        package func finish(allowed: [String]) throws {
            for m in members where !used.contains(m.key) {
                let known = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
                throw reader.error(
                    child(m.key),
                    "unknown key (expected one of \(known))" + Suggestion.didYouMean(m.key, among: allowed, quote: "\"")
                )
            }
        }
    }

    package func object(_ node: JSONNode, _ path: String) throws -> Object { try Object(self, node, path: path) }

    package func array(_ node: JSONNode, _ path: String) throws -> [JSONNode] {
        guard case .array(let items) = node.value else {
            throw error(path, "expected an array, found \(node.value.kindName)")
        }
        return items
    }

    package func string(_ node: JSONNode, _ path: String) throws -> String {
        guard case .string(let s) = node.value else {
            throw error(path, "expected a string, found \(node.value.kindName)")
        }
        return s
    }

    package func bool(_ node: JSONNode, _ path: String) throws -> Bool {
        guard case .bool(let b) = node.value else {
            throw error(path, "expected true or false, found \(node.value.kindName)")
        }
        return b
    }

    /// Largest numerator and denominator accepted, so exact time arithmetic
    /// stays far from overflow.
    package static let maxMagnitude: Int64 = 1_000_000_000
    package static let maxDenominator: Int64 = 100_000

    /// A number or a fraction string such as "1/3" or "-2/3", exactly.
    /// A number that no config number can be (1e308, 1e400, a value past
    /// ±``maxMagnitude``) is refused as out of range, naming `range`, the
    /// range the caller allows (±1e9 when nil).
    package func number(_ node: JSONNode, _ path: String, range: String? = nil) throws -> Rational {
        let expected = "expected a number or a fraction like \"1/3\""
        let value: Rational?
        switch node.value {
        case .number(let text):
            guard let v = ConfigReader.exact(text) else { throw unrepresentable(text, path, range: range) }
            value = v
        case .string(let text): value = text.contains("/") ? Rational(parsing: text) : nil
        default: throw error(path, "\(expected), found \(node.value.kindName)")
        }
        guard let v = value else {
            if case .string(let text) = node.value, Self.isFraction(text) {
                throw outOfRange("\"\(text)\"", path, range: range)
            }
            throw error(path, expected)
        }
        guard v.numerator.magnitude <= ConfigReader.maxMagnitude.magnitude,
            v.denominator <= ConfigReader.maxDenominator
        else {
            if v.doubleValue.magnitude > Double(ConfigReader.maxMagnitude) {
                throw outOfRange(ConfigReader.literal(node), path, range: range)
            }
            throw error(path, "\(v) is too large or too finely divided (at most 1e9, denominators up to 100000)")
        }
        return v
    }

    /// Whether `text` is written as a fraction, digits over digits with an
    /// optional sign ("-2/3") and a denominator that is not zero, whatever
    /// the size of its numbers: one that does not parse is then out of
    /// range, not malformed ("1/0" is malformed).
    static func isFraction(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let numerator = parts[0].first.map { $0 == "-" || $0 == "+" } == true ? parts[0].dropFirst() : parts[0]
        let digits = [numerator, parts[1]].allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        return digits && parts[1].contains { $0 != "0" }
    }

    /// The error for a JSON number `text` that is no exact config number:
    /// out of range when its magnitude is (1e308, or 1e400, which JSON
    /// readers make infinite), else too finely divided (1e-320, or more
    /// digits than 17).
    private func unrepresentable(_ text: String, _ path: String, range: String?) -> ThrobberError {
        let magnitude = Double(text).map(\.magnitude) ?? .infinity
        if !(magnitude <= Double(ConfigReader.maxMagnitude)) { return outOfRange(text, path, range: range) }
        return error(
            path,
            "\(ConfigReader.quoted(text)) is too finely divided (a config number has at most 5 decimals, or is a fraction like \"1/3\")"
        )
    }

    /// "`text` is out of range (`range`)".
    package func outOfRange(_ text: String, _ path: String, range: String?) -> ThrobberError {
        let shown = text.count > 40 ? "\(text.prefix(40))…" : text
        let most = ConfigReader.maxMagnitude
        return error(path, "\(shown) is out of range (\(range ?? "-\(most)…\(most)"))")
    }

    /// The number `node` as written: its literal, or its string.
    package static func literal(_ node: JSONNode) -> String {
        switch node.value {
        case .number(let text), .string(let text): text
        default: node.value.kindName
        }
    }

    package func number(
        _ node: JSONNode, _ path: String, atLeast low: Rational? = nil, above: Rational? = nil,
        atMost high: Rational? = nil
    ) throws -> Rational {
        var bounds: [String] = []
        if let low { bounds.append("at least \(low)") }
        if let above { bounds.append("greater than \(above)") }
        bounds.append("at most \(high ?? Rational(ConfigReader.maxMagnitude))")
        let v = try number(node, path, range: bounds.joined(separator: ", "))
        if let low, v < low { throw error(path, "must be at least \(low), got \(v)") }
        if let above, !(above < v) { throw error(path, "must be greater than \(above), got \(v)") }
        if let high, high < v { throw error(path, "must be at most \(high), got \(v)") }
        return v
    }

    /// A number in `range`, both ends allowed: anything else is refused as
    /// out of range, naming the range and its `unit` (`points`, `degrees`).
    package func number(_ node: JSONNode, _ path: String, in range: ClosedRange<Rational>, unit: String) throws
        -> Rational
    {
        let text = "\(range.lowerBound)…\(range.upperBound)\(unit.isEmpty ? "" : " " + unit)"
        let v = try number(node, path, range: text)
        guard range.contains(v) else { throw outOfRange(ConfigReader.literal(node), path, range: text) }
        return v
    }

    package func integer(_ node: JSONNode, _ path: String, in range: ClosedRange<Int>) throws -> Int {
        guard case .number(let text) = node.value else {
            throw error(path, "expected a whole number, found \(node.value.kindName)")
        }
        let bounds = "\(range.lowerBound)…\(range.upperBound)"
        guard let v = ConfigReader.exact(text) else {
            let magnitude = Double(text).map(\.magnitude) ?? .infinity
            if !(magnitude <= Double(ConfigReader.maxMagnitude)) { throw outOfRange(text, path, range: bounds) }
            throw error(path, "expected a whole number, found a fraction")
        }
        guard v.denominator == 1 else { throw error(path, "expected a whole number, found a fraction") }
        guard v.numerator >= Int64(range.lowerBound) && v.numerator <= Int64(range.upperBound) else {
            throw error(path, "must be \(bounds), got \(v)")
        }
        return Int(v.numerator)
    }

    /// A color string, as ``Color/init(parsing:)`` reads it; anything else
    /// is refused with the syntax, the value given and the nearest color
    /// name: `expected a color like "#RGB", …, got "whte"; did you mean "white"?`.
    package func color(_ node: JSONNode, _ path: String) throws -> Color {
        guard case .string(let s) = node.value else {
            throw error(path, "expected \(Color.syntaxHelp), found \(node.value.kindName)")
        }
        guard let c = Color(parsing: s) else {
            throw error(
                path,
                "expected \(Color.syntaxHelp), got \(ConfigReader.quoted(s))"
                    + Suggestion.didYouMean(s, among: Color.names, quote: "\""))
        }
        return c
    }

    /// A string that must be one of `names`; anything else is refused with
    /// the list and the nearest name: `expected "natural" or "name", got
    /// "nautral"; did you mean "natural"?`.
    package func choice(_ node: JSONNode, _ path: String, among names: [String]) throws -> String {
        let s = try string(node, path)
        guard names.contains(s) else {
            throw error(
                path,
                "expected \(ConfigReader.list(names)), got \(ConfigReader.quoted(s))"
                    + Suggestion.didYouMean(s, among: names, quote: "\""))
        }
        return s
    }

    /// Names for a message, each in double quotes: `"a", "b" or "c"`.
    package static func list(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        guard let last = quoted.last else { return "" }
        return quoted.count == 1 ? last : quoted.dropLast().joined(separator: ", ") + " or " + last
    }

    /// A value from the config echoed in a message: in double quotes, cut
    /// to its first 40 characters so a long mistake stays readable.
    package static func quoted(_ s: String) -> String {
        s.count > 40 ? "\"\(s.prefix(40))…\"" : "\"\(s)\""
    }

    package func point(_ node: JSONNode, _ path: String) throws -> (Rational, Rational) {
        let items = try array(node, path)
        guard items.count == 2 else { throw error(path, "expected [x, y]") }
        return (try number(items[0], path + "[0]"), try number(items[1], path + "[1]"))
    }

    /// A JSON number literal as an exact rational (decimal and exponent).
    package static func exact(_ text: String) -> Rational? {
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let x = Int(text[text.index(after: e)...]), abs(x) <= 18 else { return nil }
            exponent = x
            mantissa = text[..<e]
        }
        guard var r = Rational(parsing: String(mantissa)) else { return nil }
        for _ in 0..<abs(exponent) {
            guard r.numerator.magnitude < UInt64(Int64.max / 10), r.denominator < Int64.max / 10 else { return nil }
            r = exponent > 0 ? r * Rational(10) : r / Rational(10)
        }
        return r
    }
}
