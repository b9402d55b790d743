import FoundationEssentials
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Numbers and colors as vector files write them: the fewest digits that
/// change no pixel at 4× scale, no trailing zeros, no `-0`.
enum VectorText {
    /// Digits after the point for lengths in points (1/1000 pt is 1/250 px at 4×).
    static let lengthDigits = 3
    /// Digits for angles in degrees, scale factors and opacities.
    static let factorDigits = 4
    /// Digits for seconds and keyframe percentages: exact to the microsecond.
    static let timeDigits = 6

    /// `x` with at most `digits` decimals, trailing zeros dropped: what
    /// `printf("%.*f")` writes, rounded from the exact value, ties to even.
    /// Made without printf where x·10^digits is below 2^52, as nearly
    /// every number of a file is (printf took half of a Lottie file's time).
    static func number(_ x: Double, _ digits: Int) -> String {
        let x = x.isFinite ? x : 0
        guard digits >= 0, digits < powersOfTen.count, let q = rounded(x.magnitude, digits) else {
            return printed(x, digits)
        }
        if q == 0 { return "0" }
        var text = Array(String(q).utf8)
        if digits > 0 {
            if text.count <= digits {
                text.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits + 1 - text.count), at: 0)
            }
            text.insert(UInt8(ascii: "."), at: text.count - digits)
            while text.last == UInt8(ascii: "0") { text.removeLast() }
            if text.last == UInt8(ascii: ".") { text.removeLast() }
        }
        if x < 0 { text.insert(UInt8(ascii: "-"), at: 0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// 10⁰ … 10¹⁵, each exact as a Double.
    private static let powersOfTen: [Double] = (0..<15).reduce(into: [1]) { p, _ in p.append(p.last! * 10) }

    /// `m`·10^`digits` (m ≥ 0) rounded to the nearest integer, ties to
    /// even, as printf rounds the exact value; nil when it is 2^52 or more.
    /// The product's rounding error is under a quarter there, so the
    /// nearest integer to the computed product is off by at most one,
    /// and fused multiply-adds tell exactly on which side of each half
    /// the exact product lies.
    private static func rounded(_ m: Double, _ digits: Int) -> UInt64? {
        let p = powersOfTen[digits]
        let t = m * p
        guard t < 4_503_599_627_370_496 else { return nil }
        var q = t.rounded(.toNearestOrEven)
        let below = (-(q - 0.5)).addingProduct(m, p)  // exact m·p − (q − ½), its sign exact
        let above = (-(q + 0.5)).addingProduct(m, p)
        let odd = q.truncatingRemainder(dividingBy: 2) != 0
        if below < 0 || (below == 0 && odd) {
            q -= 1
        } else if above > 0 || (above == 0 && odd) {
            q += 1
        }
        return UInt64(q)
    }

    /// `x` with at most `digits` decimals by printf, trailing zeros dropped.
    static func printed(_ x: Double, _ digits: Int) -> String {
        var s = cFormat("%.*f", Int32(digits), x)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }

    static func length(_ x: Double) -> String { number(x, lengthDigits) }
    static func factor(_ x: Double) -> String { number(x, factorDigits) }
    static func seconds(_ r: Rational) -> String { number(r.doubleValue, timeDigits) }

    /// Seconds ≤ `r`, at ``timeDigits`` decimals.
    static func secondsRoundedDown(_ r: Rational) -> String {
        number(Double((r * Rational(1_000_000)).floor) / 1_000_000, timeDigits)
    }

    /// Seconds ≥ `r`, at ``timeDigits`` decimals.
    static func secondsRoundedUp(_ r: Rational) -> String {
        let micro = -(Rational(0) - r * Rational(1_000_000)).floor
        return number(Double(micro) / 1_000_000, timeDigits)
    }

    /// `#rrggbb`.
    static func hex(_ c: Color) -> String { cFormat("#%02x%02x%02x", c.r, c.g, c.b) }

    /// A picture as the PNG data URI vector files embed. Throws
    /// ``ThrobberError/Kind/data`` naming the layer when the PNG passes
    /// ``VectorFormat/maxEmbeddedBytes``.
    static func pngDataURI(_ picture: SceneImage, file: String, path: String) throws -> String {
        let png = try PNGStillWriter.encode(picture.image)
        guard png.count <= VectorFormat.maxEmbeddedBytes else {
            throw ThrobberError(
                .data,
                "\(file): \(path).image: \(picture.path) is \(png.count) bytes as PNG, over the \(VectorFormat.maxEmbeddedBytes >> 20) MB a vector file embeds; use a smaller picture, or render to GIF, APNG or WebP"
            )
        }
        return "data:image/png;base64," + Data(png).base64EncodedString()
    }
}
