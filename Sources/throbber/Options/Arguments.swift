import ThrobberKit

/// A small command-line parser: long options (`--fps 30`, `--fps=30`), short
/// aliases (`-o out.gif`), flags, positional arguments and `--`. The options
/// it knows are a subcommand's declared `OptionSpec`s.
struct Arguments {
    /// One positional argument or option value as it was given.
    struct Given {
        /// Its index in the list parsed.
        var index: Int
        /// The option it is the value of (its long name); nil for a
        /// positional argument.
        var option: String?
        /// The argument, or the option's value.
        var value: String
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var positional: [String] = []
    /// Every positional argument and option value of the list parsed, in
    /// order, with where it stood (``set(_:_:)`` and
    /// ``prepend(positional:)`` add nothing here): `check` names an entry's
    /// `args[k]` with it.
    private(set) var given: [Given] = []

    init(_ args: [String], spec: CommandSpec) throws {
        try self.init(args, options: spec.options)
    }

    init(_ args: [String], options: [OptionSpec]) throws {
        var i = 0
        var onlyPositional = false
        func find(_ name: String) -> OptionSpec? { options.first { $0.long == name } }
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositional || arg == "-" || !arg.hasPrefix("-") {
                positional.append(arg)
                given.append(Given(index: i - 1, option: nil, value: arg))
                continue
            }
            if arg == "--" {
                onlyPositional = true
                continue
            }
            var name: String
            var inline: String? = nil
            if arg.hasPrefix("--") {
                name = String(arg.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else {
                guard arg.count == 2, let o = options.first(where: { $0.short == arg.last }) else {
                    throw Arguments.unknown(option: arg, among: options)
                }
                name = o.long
            }
            guard let option = find(name) else { throw Arguments.unknown(option: "--" + name, among: options) }
            if option.takesValue {
                if let inline {
                    values[name, default: []].append(inline)
                    given.append(Given(index: i - 1, option: name, value: inline))
                } else {
                    guard i < args.count else { throw ThrobberError(.usage, "option '--\(name)' needs a value") }
                    values[name, default: []].append(args[i])
                    given.append(Given(index: i, option: name, value: args[i]))
                    i += 1
                }
            } else {
                guard inline == nil else { throw ThrobberError(.usage, "option '--\(name)' takes no value") }
                values[name, default: []].append("")
            }
        }
    }

    /// The error for an option `options` do not have, with the nearest
    /// long option as a hint (`-width` is taken for `--width`).
    static func unknown(option arg: String, among options: [OptionSpec]) -> ThrobberError {
        let longs = options.map(\.long)
        let name = String(arg.drop { $0 == "-" })
        var hint = ""
        if arg.count > 2, !arg.hasPrefix("--"), longs.contains(name) {
            hint = "; did you mean '--\(name)'?"
        } else if arg.count > 2 {
            hint = Suggestion.didYouMean(name, among: longs, prefix: "--")
        }
        return ThrobberError(.usage, "unknown option '\(arg)'\(hint)")
    }

    /// The error for a value that is none of an option's `choices`:
    /// `--fit must be contain, cover or stretch, got 'cuver'; did you mean
    /// 'cover'?`. Every option with a fixed set of values says it so.
    static func badChoice(_ name: String, _ text: String, among choices: [String]) -> ThrobberError {
        let list = choices.dropLast().joined(separator: ", ") + (choices.count > 1 ? " or " : "") + (choices.last ?? "")
        return ThrobberError(
            .usage, "--\(name) must be \(list), got '\(text)'" + Suggestion.didYouMean(text, among: choices))
    }

    /// The error for a value of a color option that is no color, with the
    /// syntax and the nearest color name.
    static func badColor(_ name: String, _ text: String) -> ThrobberError {
        ThrobberError(
            .usage,
            "--\(name) expects \(Color.syntaxHelp), got '\(text)'" + Suggestion.didYouMean(text, among: Color.names))
    }

    /// The value of `name` as a case of `T`, by its raw value; nil when the
    /// option is not given. Throws ``badChoice(_:_:among:)`` for any other value.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, of type: T.Type) throws -> T?
    where T.RawValue == String {
        guard let text = string(name) else { return nil }
        guard let value = T(rawValue: text) else {
            throw Arguments.badChoice(name, text, among: T.allCases.map(\.rawValue))
        }
        return value
    }

    /// Sets an option as if it had been given last (`check` makes each entry
    /// with its own output and --jobs).
    mutating func set(_ name: String, _ value: String = "") {
        values[name, default: []].append(value)
    }

    /// Puts `arguments` before the positional arguments given.
    mutating func prepend(positional arguments: [String]) {
        positional.insert(contentsOf: arguments, at: 0)
    }

    /// These arguments without the options named in `names`.
    func removing(_ names: Set<String>) -> Arguments {
        var copy = self
        copy.values = values.filter { !names.contains($0.key) }
        return copy
    }

    func flag(_ name: String) -> Bool { values[name] != nil }

    /// The last value given for `name` (later options override earlier ones).
    func string(_ name: String) -> String? { values[name]?.last }

    func int(_ name: String, in range: ClosedRange<Int>? = nil) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let v = Int(text) else { throw ThrobberError(.usage, "--\(name) expects a whole number, got '\(text)'") }
        if let range, !range.contains(v) {
            throw ThrobberError(.usage, "--\(name) must be \(range.lowerBound)…\(range.upperBound), got \(v)")
        }
        return v
    }

    func double(_ name: String, in range: ClosedRange<Double>? = nil) throws -> Double? {
        guard let text = string(name) else { return nil }
        guard let v = Double(text), v.isFinite else {
            throw ThrobberError(.usage, "--\(name) expects a number, got '\(text)'")
        }
        if let range, !range.contains(v) {
            throw ThrobberError(.usage, "--\(name) must be \(range.lowerBound)…\(range.upperBound), got \(text)")
        }
        return v
    }

    func rational(_ name: String) throws -> Rational? {
        guard let text = string(name) else { return nil }
        guard let v = Rational(parsing: text) else {
            throw ThrobberError(.usage, "--\(name) expects a number or a fraction like 30000/1001, got '\(text)'")
        }
        // Bounded so that exact time arithmetic can never overflow.
        guard v.numerator.magnitude <= 1_000_000_000, v.denominator <= 1_000_000 else {
            throw ThrobberError(
                .usage, "--\(name) '\(text)' is too large or too finely divided (up to 1e9, denominators up to 1e6)")
        }
        return v
    }
}
