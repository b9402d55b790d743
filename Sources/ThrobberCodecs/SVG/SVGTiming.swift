import ThrobberCore

/// The times of an SVG's animations, as CSS and SMIL write them.
enum SVGTiming {
    /// SMIL animation elements, by local name.
    static let smilElements: Set<String> = ["animate", "animateTransform", "animateMotion", "animateColor", "set"]

    /// What follows "animation" in the name of the duration's own property.
    private static let durationSuffix = Array("-duration".utf8)

    /// The duration of every CSS animation in `text`, in seconds: the
    /// first time of each animation in an `animation` shorthand (CSS
    /// gives the duration before the delay), and each time of an
    /// `animation-duration`, wherever they are declared (a `<style>`
    /// element or a `style` attribute).
    static func cssDurations(_ text: [UInt8]) -> [Rational] {
        let key = Array("animation".utf8)
        var found: [Rational] = []
        let scanner = SVGScanner(text)
        var from = 0
        while let i = scanner.find(key, from: from) {
            from = i + key.count
            // A property name stands after `{`, `;`, a quote or white space.
            guard i == 0 || "{;\"'".utf8.contains(text[i - 1]) || SVGScanner.isSpace(text[i - 1]) else { continue }
            var j = from
            if scanner.starts(durationSuffix, j) { j += durationSuffix.count }
            while j < text.count, SVGScanner.isSpace(text[j]) { j += 1 }
            guard j < text.count, text[j] == UInt8(ascii: ":") else { continue }
            var end = j + 1
            while end < text.count, !";}\"'<".utf8.contains(text[end]) { end += 1 }
            let value = String(decoding: text[(j + 1)..<end], as: UTF8.self)
            for part in value.split(separator: ",") {
                let times = part.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                    .compactMap { cssTime(String($0)) }
                if let first = times.first { found.append(first) }
            }
            from = end
        }
        return found
    }

    /// Longest duration taken, in seconds (11.6 days): with durations in
    /// whole microseconds it keeps their arithmetic within 64 bits.
    static let maxSeconds = 1_000_000.0

    /// `seconds` to the nearest microsecond, exactly; nil when negative,
    /// not finite or over ``maxSeconds``.
    static func quantized(_ seconds: Double?) -> Rational? {
        guard let seconds, seconds.isFinite, seconds >= 0, seconds <= maxSeconds else { return nil }
        return Rational(Int64((seconds * 1_000_000).rounded()), 1_000_000)
    }

    /// A plain decimal number ("1.2", ".5", "3"), no sign, exponent or
    /// other text: what CSS and SMIL times are written with here.
    static func decimal(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.count <= 24, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            text.filter({ $0 == "." }).count <= 1, text != "."
        else { return nil }
        return Double(text)
    }

    /// A CSS `<time>`: a number with the unit `s` or `ms` ("1.2s",
    /// "300ms"), in seconds; nil for anything else or a negative time.
    static func cssTime(_ token: String) -> Rational? {
        let lower = token.lowercased()
        if lower.hasSuffix("ms") { return quantized(decimal(lower.dropLast(2)).map { $0 / 1000 }) }
        if lower.hasSuffix("s") { return quantized(decimal(lower.dropLast())) }
        return nil
    }

    /// A SMIL clock value in seconds: "2s", "500ms", "1.5min", "0.1h", a
    /// bare number of seconds, "01:30" or "0:01:30.5"; nil for
    /// `indefinite`, `media` or anything else.
    static func clockValue(_ text: String) -> Rational? {
        let t = Substring(text)
        if t.contains(":") {
            let parts = t.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count) else { return nil }
            var total = 0.0
            for part in parts {
                guard let v = decimal(part) else { return nil }
                total = total * 60 + v
            }
            return quantized(total)
        }
        for (unit, seconds) in [("ms", 0.001), ("min", 60.0), ("h", 3600.0), ("s", 1.0)] where t.hasSuffix(unit) {
            return quantized(decimal(t.dropLast(unit.count)).map { $0 * seconds })
        }
        return quantized(decimal(t))
    }
}
