import FoundationEssentials
import Glibc
import ThrobberCore

/// A Lottie file's image assets, made safe for rlottie. rlottie decodes an
/// embedded image (`"e": 1`, a `data:` URI in `p`) whole when it reads the
/// file, and opens any other `u` + `p` as a path of its own making, from
/// the working directory. So every image is embedded before rlottie sees
/// the file: one named by a path is read here, from the Lottie file's own
/// folder (links followed must stay inside it, as a regular file under the
/// input size cap) and put in as a `data:` URI; a file read from a pipe or
/// an archive has no folder, and its images must be embedded already. Each
/// image's size is read from its header and checked, and the bytes all
/// images decode to are counted for the run's memory budget.
enum LottieAssets {
    /// What was done to the file's images.
    struct Result {
        /// The JSON for rlottie: the input itself when nothing changed.
        var json: [UInt8]
        /// The document for the work count (the same change applied).
        var top: JSONNode
        /// Bytes rlottie holds for every image: decoded and converted, two
        /// RGBA copies each.
        var imageBytes: Int
    }

    /// Checks and embeds the image assets of `top` (the JSON `json` of the
    /// Lottie file `name`); `folder` is where named images are looked for
    /// (nil: nowhere). Throws ``ThrobberError/Kind/data`` naming `name` and
    /// the asset's JSON path for an image that is missing, outside the
    /// folder, not a PNG, JPEG or GIF, or larger than Throbber decodes; the
    /// errors of reading a named image.
    static func prepare(_ top: JSONNode, json: [UInt8], name: String, folder: String?) throws -> Result {
        guard case .object(var members) = top.value,
            let index = members.firstIndex(where: { $0.key == "assets" }),
            case .array(var assets) = members[index].value.value
        else { return Result(json: json, top: top, imageBytes: 0) }
        var imageBytes = 0
        var changed = false
        for (i, asset) in assets.enumerated() {
            guard case .object(var fields) = asset.value, asset.member("layers") == nil,
                case .string(let p)? = asset.member("p")
            else { continue }
            let at = "\(name): assets[\(i)]"
            var data: [UInt8]
            if p.hasPrefix("data:") {
                guard let comma = p.firstIndex(of: ","),
                    let decoded = Data(
                        base64Encoded: String(p[p.index(after: comma)...]), options: .ignoreUnknownCharacters)
                else {
                    throw ThrobberError(.data, "\(at).p: the embedded image is not base64 data")
                }
                data = [UInt8](decoded)
                // rlottie takes `p` as a path unless `e` is 1, as lottie-web
                // takes a data: URI as it is.
                if asset.member("e") != .number("1") {
                    set(&fields, "e", .number("1"), like: asset)
                    changed = true
                }
            } else {
                var u = ""
                if case .string(let folderName)? = asset.member("u") { u = folderName }
                data = try readNamed(u + p, at: at, folder: folder)
                let uri = "data:\(mimeType(data));base64," + Data(data).base64EncodedString()
                set(&fields, "u", .string(""), like: asset)
                set(&fields, "p", .string(uri), like: asset)
                set(&fields, "e", .number("1"), like: asset)
                changed = true
            }
            let held = try heldBytes(data, at: at)
            imageBytes = imageBytes.addingReportingOverflow(held).overflow ? .max : imageBytes + held
            var node = asset
            node.value = .object(fields)
            assets[i] = node
        }
        guard changed else { return Result(json: json, top: top, imageBytes: imageBytes) }
        members[index].value.value = .array(assets)
        var out = top
        out.value = .object(members)
        var text: [UInt8] = []
        text.reserveCapacity(json.count)
        JSONText.write(out.value, to: &text)
        return Result(json: text, top: out, imageBytes: imageBytes)
    }

    /// The bytes rlottie holds for the image `data` (the asset `at`, for
    /// errors): its decoded size twice. Throws for an image that is not a
    /// PNG, JPEG or GIF, or larger than Throbber decodes.
    private static func heldBytes(_ data: [UInt8], at: String) throws -> Int {
        let probe = ImageProbe.probe(bytes: data)
        guard let size = probe.size, ["image/png", "image/jpeg", "image/gif"].contains(mimeType(data)) else {
            throw ThrobberError(.data, "\(at).p: not a PNG, JPEG or GIF image (rlottie draws no other)")
        }
        guard size.width >= 1, size.height >= 1, size.width <= ImageDecoder.maxSide,
            size.height <= ImageDecoder.maxSide,
            FrameSize.product(size.width, size.height) <= DecodedAnimation.maxPixels
        else {
            throw ThrobberError(
                .data,
                "\(at).p: the image is \(size), larger than Throbber decodes (at most \(ImageDecoder.maxSide) pixels a side, \(DecodedAnimation.maxPixels) in all)"
            )
        }
        // rlottie holds the image decoded and converted: two copies.
        return FrameSize.product(size.rgbaBytes, 2)
    }

    /// The image an asset names by path, read from inside `folder`.
    private static func readNamed(_ relative: String, at: String, folder: String?) throws -> [UInt8] {
        let shown = relative.isEmpty ? "\"\"" : relative
        guard let folder else {
            throw ThrobberError(
                .data,
                "\(at).p: the image \(shown) is not embedded, and a Lottie file read from a pipe or an archive has no folder to find it in; embed it as a data: URI"
            )
        }
        let root = realPath(folder) ?? folder
        let joined = relative.hasPrefix("/") ? folder + relative : folder + "/" + relative
        guard let real = realPath(joined) else {
            throw ThrobberError(.data, "\(at).p: the image \(shown) is not in \(folder) (no such file)")
        }
        guard real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw ThrobberError(
                .data, "\(at).p: the image \(shown) leads outside the Lottie file's folder (\(root)); it is not read")
        }
        do {
            return try FileBytes.read(real, streams: false)
        } catch let e as ThrobberError {
            throw ThrobberError(.data, "\(at).p: \(e.message)")
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let r = realpath(path, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    /// Sets `fields[key]`, a node at `asset`'s place in the file.
    private static func set(
        _ fields: inout [(key: String, value: JSONNode)], _ key: String, _ value: JSON, like asset: JSONNode
    ) {
        var node = asset
        node.value = value
        if let i = fields.firstIndex(where: { $0.key == key }) {
            fields[i].value = node
        } else {
            fields.append((key, node))
        }
    }

    /// The MIME type of an image's bytes, from its signature.
    static func mimeType(_ b: [UInt8]) -> String {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: [0x47, 0x49, 0x46, 0x38]) { return "image/gif" }
        if b.count >= 12, b[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        return "application/octet-stream"
    }
}
