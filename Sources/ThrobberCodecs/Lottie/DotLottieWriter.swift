import ThrobberCore

/// Writes a dotLottie (`.lottie`) archive in the layout of dotLottie 2.0
/// (dotlottie.io/spec/2.0): a zip holding `manifest.json`, the themes as
/// `t/ID.json` and one animation as `a/ID.json`, its bytes as given.
///
/// The manifest is compact JSON with the members the specification names:
/// `{"version":"2","generator":"Throbber","animations":[{"id":…}]}`, and
/// when there are themes, the animation's `"themes"` (their ids) and a
/// top-level `"themes"` list (`[{"id":…}]`). The entries are written in
/// that order, the animation last: a reader that ignores the manifest and
/// takes the last `.json` entry (lottie-android) still finds the animation,
/// not a theme. Deterministic: the same arguments give the same bytes.
public enum DotLottieWriter {
    /// A theme for the animation: its id (the file `t/ID.json`) and its
    /// JSON text, written as given.
    public struct Theme: Equatable, Sendable {
        /// The theme's id, as the manifest lists it and its file is named.
        public var id: String
        /// The theme file's JSON text.
        public var json: [UInt8]

        /// A theme `id` whose file holds `json`.
        public init(id: String, json: [UInt8]) {
            self.id = id
            self.json = json
        }
    }

    /// The id of the animation Throbber writes: `a/loader.json`.
    public static let animationID = "loader"

    /// The `generator` the manifest names.
    public static let generator = "Throbber"

    /// The dotLottie version written.
    public static let version = "2"

    /// The archive of `animation` (Lottie JSON text, written as given) with
    /// `themes`, in their order.
    ///
    /// Throws ``ThrobberError/Kind/data`` for an id that is empty, not
    /// made of ASCII letters, digits, `-` and `_`, or given to two themes;
    /// for a theme that is not JSON; and for an archive that would need
    /// ZIP64. Throws ``ThrobberError/Kind/software`` when zlib fails.
    public static func archive(animation: [UInt8], id: String = animationID, themes: [Theme] = []) throws
        -> [UInt8]
    {
        try check(id: id, what: "animation")
        var seen: Set<String> = []
        for theme in themes {
            try check(id: theme.id, what: "theme")
            guard seen.insert(theme.id).inserted else {
                throw ThrobberError(.data, "dotLottie theme \"\(theme.id)\": given twice")
            }
            _ = try JSONParser.parse(theme.json, file: "dotLottie theme \"\(theme.id)\"")
        }
        var zip = ZipWriter()
        try zip.add("manifest.json", manifest(id: id, themes: themes.map(\.id)))
        for theme in themes { try zip.add("t/\(theme.id).json", theme.json) }
        try zip.add("a/\(id).json", animation)
        return try zip.bytes()
    }

    /// The manifest's JSON text, compact, members in the specification's order.
    static func manifest(id: String, themes: [String]) -> [UInt8] {
        func node(_ v: JSON) -> JSONNode { JSONNode(v) }
        func object(_ members: [(String, JSON)]) -> JSON { .object(members.map { (key: $0.0, value: node($0.1)) }) }
        let names = JSON.array(themes.map { node(.string($0)) })
        var animation: [(String, JSON)] = [("id", .string(id))]
        if !themes.isEmpty { animation.append(("themes", names)) }
        var top: [(String, JSON)] = [
            ("version", .string(version)), ("generator", .string(generator)),
            ("animations", .array([node(object(animation))])),
        ]
        if !themes.isEmpty { top.append(("themes", .array(themes.map { node(object([("id", .string($0))])) }))) }
        var out: [UInt8] = []
        JSONText.write(object(top), to: &out)
        return out
    }

    /// Refuses an id that cannot name a file in the archive as it is.
    private static func check(id: String, what: String) throws {
        let allowed = id.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
        }
        guard !id.isEmpty, id.utf8.count <= 200, allowed else {
            throw ThrobberError(
                .data,
                "dotLottie \(what) id \"\(id)\": use 1 to 200 ASCII letters, digits, '-' and '_' (it names the file in the archive)"
            )
        }
    }
}
