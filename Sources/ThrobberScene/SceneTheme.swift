import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// `theme`: named colors that layers use by name (`"fill": "accent"`),
/// each with an optional value for dark pages. Frames are drawn with one
/// scheme's values; an SVG carries both (a CSS custom property per name,
/// the dark values under `prefers-color-scheme: dark`) and a Lottie file
/// names each as a slot, with the light value in place.
public struct SceneTheme: Equatable, Sendable {
    /// One named color.
    public struct Entry: Equatable, Sendable {
        /// A name of lowercase letters, digits and `-`, starting with a letter.
        public var name: String
        /// The value on light pages, and the one drawn by default.
        public var light: Color
        /// The value on dark pages; nil: `light`.
        public var dark: Color?
        /// SVG only: the page's text color (`currentColor`) where the page
        /// sets no `--throbber-NAME`, instead of `light`/`dark`.
        public var current = false

        /// The value drawn in `scheme`.
        public func color(_ scheme: Scheme) -> Color { scheme == .dark ? dark ?? light : light }
    }

    /// Which values frames are drawn with.
    public enum Scheme: String, CaseIterable, Sendable {
        /// The values for light pages: each name's `light`.
        case light
        /// The values for dark pages: each name's `dark`, else its `light`.
        case dark
    }

    /// The names in the config's order.
    public var entries: [Entry] = []

    /// A theme with no names.
    public init() {}

    /// The entry called `name`, if any.
    public subscript(name: String) -> Entry? { entries.first { $0.name == name } }

    /// Whether any name has a dark value.
    public var hasDark: Bool { entries.contains { $0.dark != nil } }

    /// Most names a theme has.
    public static let maxNames = 64
    /// Longest name, in characters.
    public static let maxNameLength = 40

    /// Reads `theme`: an object of names, each a color or
    /// `{"light": COLOR, "dark": COLOR, "current": BOOL}`.
    static func read(_ node: JSONNode, _ path: String, _ r: ConfigReader) throws -> SceneTheme {
        let o = try r.object(node, path)
        guard o.members.count <= maxNames else {
            throw r.error(path, "has \(o.members.count) names; a theme has at most \(maxNames)")
        }
        var theme = SceneTheme()
        for member in o.members {
            let name = member.key
            let at = path + "." + name
            try checkName(name, at, r)
            var entry: Entry
            if case .object = member.value.value {
                let e = try r.object(member.value, at)
                entry = Entry(name: name, light: try e.required("light", r.color))
                entry.dark = try e.optional("dark", r.color)
                entry.current = try e.optional("current", r.bool) ?? false
                try e.finish(allowed: ["light", "dark", "current"])
            } else {
                entry = Entry(name: name, light: try r.color(member.value, at))
            }
            if entry.current, let other = theme.entries.first(where: \.current) {
                throw r.error(
                    at + ".current", "only one theme color can be the page's currentColor; \"\(other.name)\" is already"
                )
            }
            theme.entries.append(entry)
        }
        return theme
    }

    private static func checkName(_ name: String, _ path: String, _ r: ConfigReader) throws {
        let chars = Array(name.utf8)
        let ok =
            !chars.isEmpty && chars.count <= maxNameLength && (97...122).contains(chars[0])
            && chars.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "-") }
        guard ok else {
            throw r.error(
                path,
                "a theme name is 1 to \(maxNameLength) lowercase letters, digits and \"-\", starting with a letter")
        }
        guard Color(parsing: name) == nil else {
            throw r.error(path, "\"\(name)\" is a color already; give the theme color another name")
        }
    }

    /// A color of a layer or the canvas: a color, or a name of this theme
    /// (its light value, and the name).
    func paint(_ node: JSONNode, _ path: String, _ r: ConfigReader) throws -> (Color, String?) {
        if case .string(let s) = node.value, let entry = self[s] { return (entry.light, s) }
        if case .string(let s) = node.value, Color(parsing: s) == nil, !entries.isEmpty {
            throw r.error(
                path,
                "expected \(Color.syntaxHelp), or a theme name (\(ConfigReader.list(entries.map(\.name)))), got \(ConfigReader.quoted(s))"
                    + Suggestion.didYouMean(s, among: entries.map(\.name) + Color.names, quote: "\""))
        }
        return (try r.color(node, path), nil)
    }
}
