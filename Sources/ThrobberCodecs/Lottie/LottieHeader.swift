import ThrobberCore

/// What a Lottie file says of itself beside what it draws: how it is
/// packed, the Bodymovin version it was written for, its name, what made
/// it, and its frame range as written. ``LottieFile`` reads what is drawn.
public struct LottieHeader: Sendable, Equatable {
    /// How the animation's JSON is stored.
    public enum Packing: String, Sendable {
        /// Plain JSON (`.json`).
        case json
        /// Gzip-compressed JSON: a Telegram sticker (`.tgs`).
        case gzip
        /// A dotLottie archive (`.lottie`): a zip with a manifest.
        case dotLottie = "dotlottie"
    }

    /// How the JSON is stored.
    public var packing: Packing
    /// `v`: the Bodymovin version the file was written for ("5.7.0").
    public var version: String?
    /// `nm`: the animation's name.
    public var name: String?
    /// What made the file: `meta.g` (Bodymovin's generator field), else a
    /// dotLottie manifest's `generator` ("Throbber" for the archives it writes).
    public var generator: String?
    /// A dotLottie manifest's `version` ("1", "2").
    public var manifestVersion: String?
    /// `ip`, `op` and `fr` as written ("0", "48", "29.97").
    public var inPoint: String, outPoint: String, frameRate: String

    /// Most characters of a name or generator kept.
    static let maxText = 200

    /// The header of the Lottie file `bytes` (read from `name`). Throws
    /// ``ThrobberError/Kind/data`` naming it when they are no Lottie
    /// animation (``LottieFile/read(_:asLayer:budget:)`` says why in detail).
    public static func read(_ bytes: [UInt8], name: String) throws -> LottieHeader {
        let packing: Packing =
            ZipArchive.isZip(bytes) ? .dotLottie : GzipInflate.isGzip(bytes) ? .gzip : .json
        let json = try LottieFile.unpacked(bytes, name: name)
        let top = try JSONParser.parse(json, file: name)
        guard LottieFile.kind(of: top) == .lottie, case .object(let members) = top.value else {
            throw ThrobberError(.data, "\(name): not a Lottie file")
        }
        func number(_ key: String) -> String {
            if case .number(let text)? = members.first(where: { $0.key == key })?.value.value { return text }
            return "?"
        }
        var header = LottieHeader(
            packing: packing, version: text(members, "v"), name: text(members, "nm"), generator: nil,
            manifestVersion: nil, inPoint: number("ip"), outPoint: number("op"), frameRate: number("fr"))
        if case .object(let meta)? = members.first(where: { $0.key == "meta" })?.value.value {
            header.generator = text(meta, "g")
        }
        if packing == .dotLottie, let manifest = try manifest(bytes, name: name) {
            header.manifestVersion = text(manifest, "version")
            header.generator = header.generator ?? text(manifest, "generator")
        }
        return header
    }

    /// The members of a dotLottie archive's manifest; nil without one.
    private static func manifest(_ bytes: [UInt8], name: String) throws -> [(key: String, value: JSONNode)]? {
        let zip = try ZipArchive(bytes, name: name)
        guard let data = try zip.contents(of: "manifest.json", limit: LottieFile.maxJSONBytes),
            case .object(let members) = try JSONParser.parse(data, file: "\(name): manifest.json").value
        else { return nil }
        return members
    }

    /// The string `key` of `members` (a number as written), control
    /// characters dropped and cut to ``maxText`` characters; nil when
    /// absent, empty or of another type.
    private static func text(_ members: [(key: String, value: JSONNode)], _ key: String) -> String? {
        let value: String
        switch members.first(where: { $0.key == key })?.value.value {
        case .string(let s)?: value = s
        case .number(let n)?: value = n
        default: return nil
        }
        var kept = String.UnicodeScalarView()
        for scalar in value.unicodeScalars where scalar.properties.generalCategory != .control {
            guard kept.count < maxText else { break }
            kept.append(scalar)
        }
        return kept.isEmpty ? nil : String(kept)
    }
}
