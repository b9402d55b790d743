/// A JSON document parsed with positions, so config errors can name the
/// line and column, numbers kept as written (so `0.25` stays exactly 1/4),
/// and object keys kept in order (so unknown keys are reported in order).
public indirect enum JSON: Equatable, Sendable {
    /// An object's members in file order (the parser refuses a repeated key).
    case object([(key: String, value: JSONNode)])
    /// An array's elements, each with its position.
    case array([JSONNode])
    /// A string with its escapes decoded.
    case string(String)
    /// The number's literal text.
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Same kind and same contents, members in the same order; nested
    /// values must also be at the same line and column.
    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let x), .array(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    /// A word for error messages: "an object", "a string", ...
    package var kindName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}
