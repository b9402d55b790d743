import FoundationEssentials
import Glibc
import ThrobberCore

/// A dotLottie (`.lottie`) archive: a zip holding `manifest.json`, the
/// animations (`animations/ID.json` in version 1, `a/ID.json` in version 2)
/// and their images (`images/`, `i/`). The animation drawn is the one the
/// manifest starts with: `initial.animation` (v2), `activeAnimationId` (v1),
/// or else the first of `animations`. Images the animation names are put
/// into it as `data:` URIs, so rlottie draws them without touching the disk.
enum DotLottie {
    /// The Lottie JSON of the archive's first animation, its images inlined.
    /// Throws ``ThrobberError/Kind/data`` naming the archive (and the entry
    /// or manifest key) when it is damaged or has no animation.
    static func animation(_ bytes: [UInt8], name: String, limit: Int) throws -> [UInt8] {
        let zip = try ZipArchive(bytes, name: name)
        let id = try startID(zip, limit: limit)
        let candidates = ["animations/\(id).json", "a/\(id).json"]
        guard let path = candidates.first(where: { p in zip.entries.contains { $0.name == p } }),
            let json = try zip.contents(of: path, limit: limit)
        else {
            throw ThrobberError(
                .data,
                "\(name): the animation \"\(id)\" is not in the archive (looked for \(candidates.joined(separator: ", ")))"
            )
        }
        let top = try JSONParser.parse(json, file: "\(name): \(path)")
        guard case .object(let members) = top.value,
            let index = members.firstIndex(where: { $0.key == "assets" }),
            case .array(let assets) = members[index].value.value
        else { return json }
        var budget = limit - json.count
        let inlined = try assets.map { try inline($0, from: zip, budget: &budget) }
        guard inlined != assets else { return json }
        var changed = members
        changed[index].value.value = .array(inlined)
        var out: [UInt8] = []
        out.reserveCapacity(limit - budget)
        JSONText.write(.object(changed), to: &out)
        return out
    }

    /// The id of the animation the manifest starts with; without a
    /// manifest, the archive's only animation.
    private static func startID(_ zip: ZipArchive, limit: Int) throws -> String {
        let label = "\(zip.name): manifest.json"
        guard let bytes = try zip.contents(of: "manifest.json", limit: limit) else {
            let found = zip.entries.map(\.name).filter {
                ($0.hasPrefix("animations/") || $0.hasPrefix("a/")) && $0.hasSuffix(".json")
            }
            guard found.count == 1, let only = found.first else {
                throw ThrobberError(
                    .data, "\(zip.name): no manifest.json, and \(found.count) animations: not a dotLottie archive?")
            }
            return String(only.split(separator: "/", maxSplits: 1)[1].dropLast(5))
        }
        guard case .object(let manifest) = try JSONParser.parse(bytes, file: label).value else {
            throw ThrobberError(.data, "\(label): expected an object")
        }
        func member(_ key: String, of m: [(key: String, value: JSONNode)]) -> JSON? {
            m.first(where: { $0.key == key })?.value.value
        }
        if case .object(let initial)? = member("initial", of: manifest),
            case .string(let id)? = member("animation", of: initial)
        {
            return id
        }
        if case .string(let id)? = member("activeAnimationId", of: manifest), !id.isEmpty { return id }
        guard case .array(let animations)? = member("animations", of: manifest), let first = animations.first,
            case .object(let animation) = first.value, case .string(let id)? = member("id", of: animation)
        else { throw ThrobberError(.data, "\(label): animations: expected a list of objects with an \"id\"") }
        return id
    }

    /// `asset` with its image file (named by `u` and `p`) put in as a
    /// `data:` URI when the archive holds it; anything else as it is.
    private static func inline(_ asset: JSONNode, from zip: ZipArchive, budget: inout Int) throws -> JSONNode {
        guard case .object(var members) = asset.value else { return asset }
        func string(_ key: String) -> String? {
            guard case .string(let s)? = members.first(where: { $0.key == key })?.value.value else { return nil }
            return s
        }
        guard let file = string("p"), !file.hasPrefix("data:") else { return asset }
        let folder = (string("u") ?? "").drop(while: { $0 == "/" })
        let names = [String(folder) + file, "images/" + file, "i/" + file]
        guard let entry = names.first(where: { n in zip.entries.contains { $0.name == n } }),
            let image = try zip.contents(of: entry, limit: max(0, budget))
        else { return asset }
        let uri = "data:\(LottieAssets.mimeType(image));base64," + Data(image).base64EncodedString()
        budget -= uri.utf8.count
        guard budget >= 0 else {
            throw ThrobberError(.data, "\(zip.name): \(entry): the animation and its images are too large")
        }
        func set(_ key: String, _ value: JSON) {
            var node = asset  // a node at the asset's place in the file
            node.value = value
            if let i = members.firstIndex(where: { $0.key == key }) {
                members[i].value = node
            } else {
                members.append((key, node))
            }
        }
        set("u", .string(""))
        set("p", .string(uri))
        set("e", .number("1"))
        var changed = asset
        changed.value = .object(members)
        return changed
    }
}
