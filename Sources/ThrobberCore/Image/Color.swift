/// A straight-alpha sRGB color as written in configs and on the command line.
public struct Color: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Red, 0–255 (sRGB, not multiplied by alpha).
    public var r: UInt8
    /// Green, 0–255 (sRGB, not multiplied by alpha).
    public var g: UInt8
    /// Blue, 0–255 (sRGB, not multiplied by alpha).
    public var b: UInt8
    /// Alpha, 0 (transparent) to 255 (opaque).
    public var a: UInt8

    /// A color from its channels; opaque unless `a` is given.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Fully transparent black, 0,0,0,0: the default background.
    public static let transparent = Color(r: 0, g: 0, b: 0, a: 0)

    /// The CSS basic color keywords (CSS Color Level 3, section 4.1), plus
    /// `grey` and `orange`.
    static let named: [String: Color] = [
        "black": Color(r: 0, g: 0, b: 0), "silver": Color(r: 192, g: 192, b: 192),
        "gray": Color(r: 128, g: 128, b: 128), "grey": Color(r: 128, g: 128, b: 128),
        "white": Color(r: 255, g: 255, b: 255), "maroon": Color(r: 128, g: 0, b: 0),
        "red": Color(r: 255, g: 0, b: 0), "purple": Color(r: 128, g: 0, b: 128),
        "fuchsia": Color(r: 255, g: 0, b: 255), "green": Color(r: 0, g: 128, b: 0),
        "lime": Color(r: 0, g: 255, b: 0), "olive": Color(r: 128, g: 128, b: 0),
        "yellow": Color(r: 255, g: 255, b: 0), "navy": Color(r: 0, g: 0, b: 128),
        "blue": Color(r: 0, g: 0, b: 255), "teal": Color(r: 0, g: 128, b: 128),
        "aqua": Color(r: 0, g: 255, b: 255), "orange": Color(r: 255, g: 165, b: 0),
        "transparent": .transparent,
    ]

    /// The color names ``init(parsing:)`` knows, in alphabetical order.
    package static let names = named.keys.sorted()

    /// Parses `#RGB`, `#RRGGBB`, `#RRGGBBAA` or a color name; nil if it is none.
    public init?(parsing text: String) {
        let lower = text.lowercased()
        if let c = Color.named[lower] {
            self = c
            return
        }
        guard lower.hasPrefix("#") else { return nil }
        let hex = Array(lower.dropFirst())
        guard hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        func byte(_ s: ArraySlice<Character>) -> UInt8 { UInt8(String(s), radix: 16)! }
        switch hex.count {
        case 3:
            let v = hex.map { byte([$0, $0][...]) }
            self.init(r: v[0], g: v[1], b: v[2])
        case 6, 8:
            self.init(
                r: byte(hex[0..<2]), g: byte(hex[2..<4]), b: byte(hex[4..<6]),
                a: hex.count == 8 ? byte(hex[6..<8]) : 255)
        default:
            return nil
        }
    }

    /// What `init(parsing:)` accepts, for error messages.
    public static let syntaxHelp =
        "a color like \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\", \"transparent\" or a CSS name such as \"gray\""

    /// `#rrggbb` in lowercase hex, or `#rrggbbaa` when not opaque; what
    /// ``init(parsing:)`` reads back.
    public var description: String {
        func hex(_ v: UInt8) -> String {
            let s = String(v, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(r) + hex(g) + hex(b) + (a == 255 ? "" : hex(a))
    }
}
