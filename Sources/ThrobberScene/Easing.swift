import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Timing functions with CSS semantics: `linear`, the named cubic Béziers
/// (`ease` is Core Animation's default), `cubic-bezier(x1, y1, x2, y2)` and
/// `steps(n)` (jump-end). Cubic Béziers are solved for x to within 1e-7.
public enum Easing: Equatable, Sendable, CustomStringConvertible {
    /// Constant speed: the output is the input.
    case linear
    /// `cubic-bezier(x1, y1, x2, y2)`: the curve from (0, 0) to (1, 1) with
    /// control points (x1, y1) and (x2, y2); x1 and x2 are in 0…1.
    case cubicBezier(Double, Double, Double, Double)
    /// `steps(n)`: n equal jumps, each at the end of its interval (n ≥ 1).
    case steps(Int)

    static let named: [String: Easing] = [
        "linear": .linear,
        "ease": .cubicBezier(0.25, 0.1, 0.25, 1),
        "ease-in": .cubicBezier(0.42, 0, 1, 1),
        "ease-out": .cubicBezier(0, 0, 0.58, 1),
        "ease-in-out": .cubicBezier(0.42, 0, 0.58, 1),
    ]

    /// The named easings, in the order messages list them.
    static let names = ["linear", "ease", "ease-in", "ease-out", "ease-in-out"]

    static let syntaxHelp =
        "\"linear\", \"ease\", \"ease-in\", \"ease-out\", \"ease-in-out\", \"cubic-bezier(x1, y1, x2, y2)\" with x1 and x2 in 0…1, or \"steps(n)\""

    /// Parses a config's easing: `linear`, `ease`, `ease-in`, `ease-out`,
    /// `ease-in-out`, `cubic-bezier(x1, y1, x2, y2)` (x1 and x2 in 0…1, y1
    /// and y2 within ±100) or `steps(n)` (n in 1…1000), in any case,
    /// spaces allowed around the arguments; nil for anything else.
    public init?(parsing text: String) {
        guard case .easing(let e) = Easing.read(text) else { return nil }
        self = e
    }

    /// What a config's easing text says.
    enum Reading: Equatable {
        case easing(Easing)
        /// An easing whose number is out of its range: what is wrong.
        case outOfRange(String)
        /// No easing.
        case unknown
    }

    /// Reads a config's easing, as ``init(parsing:)`` does, telling a
    /// number out of range (`steps(0)`, `cubic-bezier(0, 1e308, 1, 1)`)
    /// from text that is no easing.
    static func read(_ text: String) -> Reading {
        let s = text.trimmedWhitespace().lowercased()
        if let e = Easing.named[s] { return .easing(e) }
        func arguments(_ prefix: String) -> [String]? {
            guard s.hasPrefix(prefix + "("), s.hasSuffix(")") else { return nil }
            return s.dropFirst(prefix.count + 1).dropLast().split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmedWhitespace() }
        }
        func outOfRange(_ name: String, _ given: String, _ range: String) -> Reading {
            .outOfRange("\(name) \(given.count > 40 ? given.prefix(40) + "…" : given) is out of range (\(range))")
        }
        if let a = arguments("cubic-bezier") {
            let v = a.compactMap { Double($0) }
            guard v.count == 4, a.count == 4 else { return .unknown }
            for (i, name) in ["x1", "y1", "x2", "y2"].enumerated() {
                if i % 2 == 0, !(0...1).contains(v[i]) { return outOfRange(name, a[i], "0…1") }
                if i % 2 == 1, !(v[i].magnitude <= ConfigRange.bezierY) {
                    return outOfRange(name, a[i], "-\(Int(ConfigRange.bezierY))…\(Int(ConfigRange.bezierY))")
                }
            }
            return .easing(.cubicBezier(v[0], v[1], v[2], v[3]))
        }
        if let a = arguments("steps"), a.count == 1 {
            let digits = a[0].hasPrefix("-") ? a[0].dropFirst() : Substring(a[0])
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .unknown }
            guard let n = Int(a[0]), (1...ConfigRange.maxSteps).contains(n) else {
                return outOfRange("n", a[0], "1…\(ConfigRange.maxSteps)")
            }
            return .easing(.steps(n))
        }
        return .unknown
    }

    /// The config spelling: the CSS name when there is one (`ease-out`),
    /// else `cubic-bezier(…)` or `steps(n)`.
    public var description: String {
        switch self {
        case .linear: return "linear"
        case .steps(let n): return "steps(\(n))"
        case .cubicBezier(let a, let b, let c, let d):
            if let name = Easing.named.first(where: { $0.value == self })?.key { return name }
            return "cubic-bezier(\(a), \(b), \(c), \(d))"
        }
    }

    /// The value at `p` of the curve through `count` keys (≥ 1) in time
    /// order, each segment eased by its first key's easing: held before the
    /// first key and after the last; where two keys share a time (a jump),
    /// the later one's. Shared by the renderer's keyframes and the vector
    /// export's tracks, so both read a curve the same way.
    static func curve(
        count: Int, at p: Rational, time: (Int) -> Rational, value: (Int) -> Double, ease: (Int) -> Easing
    ) -> Double {
        guard count > 0 else { return 0 }
        if !(time(0) < p) { return value(0) }
        if !(p < time(count - 1)) { return value(count - 1) }
        var i = 0
        while !(p < time(i + 1)) { i += 1 }
        let x = ((p - time(i)) / (time(i + 1) - time(i))).doubleValue
        return value(i) + (value(i + 1) - value(i)) * ease(i).apply(x)
    }

    /// The eased progress for progress `x` in 0…1.
    public func apply(_ x: Double) -> Double {
        switch self {
        case .linear: return x
        case .steps(let n): return x >= 1 ? 1 : (x * Double(n)).rounded(.down) / Double(n)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            if x <= 0 { return 0 }
            if x >= 1 { return 1 }
            let s = Easing.solve(x, x1, x2)
            return Easing.bezier(s, y1, y2)
        }
    }

    /// One coordinate of the Bézier from 0 to 1 with control values a, b.
    static func bezier(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
    }

    static func bezierSlope(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * a + 6 * u * s * (b - a) + 3 * s * s * (1 - b)
    }

    /// The parameter s with bezier_x(s) = x: Newton's method, falling back to
    /// bisection (x(s) is monotonic because x1, x2 are in 0…1).
    static func solve(_ x: Double, _ x1: Double, _ x2: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let err = bezier(s, x1, x2) - x
            if abs(err) < 1e-9 { return s }
            let d = bezierSlope(s, x1, x2)
            if abs(d) < 1e-6 { break }
            s -= err / d
            if s < 0 || s > 1 { break }
        }
        var lo = 0.0
        var hi = 1.0
        s = x
        while hi - lo > 1e-12 {
            let v = bezier(s, x1, x2)
            if abs(v - x) < 1e-9 { return s }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
