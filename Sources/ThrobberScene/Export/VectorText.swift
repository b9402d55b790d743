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

    /// `x` with at most `digits` decimals, trailing zeros dropped.
    static func number(_ x: Double, _ digits: Int) -> String {
        var s = cFormat("%.*f", Int32(digits), x.isFinite ? x : 0)
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
