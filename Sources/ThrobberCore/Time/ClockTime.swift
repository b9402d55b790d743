/// Times in a clip as people read and type them: `90`, `1.5`, `1:30`,
/// `01:02:03.250` (seconds, or minutes and seconds, or hours, minutes and
/// seconds, each with an optional decimal fraction), kept exact.
public enum ClockTime {
    /// The seconds `text` means, exactly, or nil when it is no such time:
    /// each field is digits (minutes and seconds after the first field
    /// below 60), the last may have a fraction of up to 6 digits
    /// (microseconds), and the value is at most 100 hours.
    public static func parse(_ text: String) -> Rational? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var total = Rational(0)
        for (i, field) in fields.enumerated() {
            let last = i == fields.count - 1
            guard !field.isEmpty, field.allSatisfy({ $0.isASCII && ($0.isNumber || (last && $0 == ".")) }),
                let value = Rational(parsing: String(field))
            else { return nil }
            if i > 0 && !(value < Rational(60)) { return nil }
            if let dot = field.firstIndex(of: "."), field[dot...].count > 7 { return nil }
            total = total * Rational(60) + value
        }
        guard !(Rational(100 * 3600) < total) else { return nil }
        return total
    }

    /// `seconds` as `M:SS.mmm`, or `H:MM:SS.mmm` from an hour on,
    /// rounded half up to the millisecond: 3.12 → `0:03.120`.
    public static func text(_ seconds: Rational) -> String {
        let millis = max(0, (seconds * Rational(1000)).roundedHalfUp)
        let (s, ms) = (millis / 1000, millis % 1000)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let fraction = "." + String(String(ms + 1000).dropFirst())
        if s >= 3600 { return "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))\(fraction)" }
        return "\(s / 60):\(two(s % 60))\(fraction)"
    }
}
