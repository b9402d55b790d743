/// An exact fraction: times and rates are rationals so that rounding to
/// centiseconds happens once, at the end, and never accumulates.
public struct Rational: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The numerator in lowest terms; carries the sign.
    public let numerator: Int64
    /// The denominator in lowest terms; always positive.
    public let denominator: Int64

    /// `numerator / denominator`, reduced to lowest terms with a positive
    /// denominator: `Rational(2, -4)` is -1/2. Traps when `denominator` is 0.
    public init(_ numerator: Int64, _ denominator: Int64 = 1) {
        precondition(denominator != 0, "zero denominator")
        let g = Rational.gcd(numerator.magnitude, denominator.magnitude)
        let sign: Int64 = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / Int64(g)
        self.denominator = sign * denominator / Int64(g)
    }

    /// The whole number `value`.
    public init(_ value: Int) { self.init(Int64(value), 1) }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    /// Parses `"3"`, `"-2/3"` or a finite decimal such as `"0.25"` exactly.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let n = Int64(parts[0]), let d = Int64(parts[1]), d != 0 else { return nil }
            self.init(n, d)
            return
        }
        guard parts.count == 1 else { return nil }
        var s = Substring(text)
        var negative = false
        if s.hasPrefix("-") {
            negative = true
            s = s.dropFirst()
        } else if s.hasPrefix("+") {
            s = s.dropFirst()
        }
        let pieces = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count),
            pieces.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            !(pieces[0].isEmpty && (pieces.count == 1 || pieces[1].isEmpty))
        else { return nil }
        let fraction = pieces.count == 2 ? pieces[1] : ""
        guard pieces[0].count + fraction.count <= 17 else { return nil }
        guard let whole = Int64(pieces[0].isEmpty ? "0" : String(pieces[0])),
            let frac = Int64(fraction.isEmpty ? "0" : String(fraction))
        else { return nil }
        var scale: Int64 = 1
        for _ in 0..<fraction.count { scale *= 10 }
        self.init((whole * scale + frac) * (negative ? -1 : 1), scale)
    }

    /// The exact sum. Like all four operations it traps if an intermediate
    /// product overflows `Int64`.
    public static func + (a: Rational, b: Rational) -> Rational {
        Rational(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator)
    }
    /// The exact difference.
    public static func - (a: Rational, b: Rational) -> Rational {
        Rational(a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator)
    }
    /// The exact product.
    public static func * (a: Rational, b: Rational) -> Rational {
        Rational(a.numerator * b.numerator, a.denominator * b.denominator)
    }
    /// The exact quotient; traps when `b` is 0.
    public static func / (a: Rational, b: Rational) -> Rational {
        Rational(a.numerator * b.denominator, a.denominator * b.numerator)
    }
    /// Exact comparison, by cross-multiplying.
    public static func < (a: Rational, b: Rational) -> Bool {
        a.numerator * b.denominator < b.numerator * a.denominator
    }

    /// floor(self + 1/2): round half up, exactly.
    public var roundedHalfUp: Int64 {
        let n = 2 * numerator + denominator
        let d = 2 * denominator
        return n >= 0 ? n / d : -((-n + d - 1) / d)
    }

    /// The nearest `Double` (for drawing and easing, never for timing).
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// `3`, `1.5`, or `1/3` when the decimal would not end.
    public var description: String {
        if denominator == 1 { return "\(numerator)" }
        var d = denominator
        var digits = 0
        while d % 10 == 0 {
            d /= 10
            digits += 1
        }
        while d % 2 == 0 || d % 5 == 0 {
            if d % 2 == 0 { d /= 2 } else { d /= 5 }
            if digits < 18 { digits += 1 }
        }
        guard d == 1, digits <= 6 else { return "\(numerator)/\(denominator)" }
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = numerator * (scale / denominator)
        let mag = scaled.magnitude
        let s = UInt64(scale)
        var frac = String(mag % s)
        frac = String(repeating: "0", count: digits - frac.count) + frac
        while frac.hasSuffix("0") { frac.removeLast() }
        return (scaled < 0 ? "-" : "") + "\(mag / s).\(frac)"
    }
}

extension Rational {
    /// The largest integer ≤ self.
    public var floor: Int64 {
        let q = numerator / denominator
        return (numerator % denominator != 0 && numerator < 0) ? q - 1 : q
    }

    /// self modulo a positive `m`, in 0 ..< m.
    public func modulo(_ m: Rational) -> Rational {
        self - m * Rational((self / m).floor)
    }

    /// Least common multiple of two positive rationals: the shortest time
    /// that is a whole number of both periods. Nil if it does not fit.
    public static func lcm(_ a: Rational, _ b: Rational) -> Rational? {
        // lcm(p/q, r/s) = lcm(p, r) / gcd(q, s) for reduced fractions.
        let g = Int64(gcd(a.numerator.magnitude, b.numerator.magnitude))
        let (n, overflow) = (a.numerator / g).multipliedReportingOverflow(by: b.numerator)
        guard !overflow else { return nil }
        return Rational(n, Int64(gcd(a.denominator.magnitude, b.denominator.magnitude)))
    }
}

extension Rational: ExpressibleByIntegerLiteral {
    /// Lets a whole number be written where a `Rational` is expected: `let fps: Rational = 30`.
    public init(integerLiteral value: Int64) { self.init(value, 1) }
}
