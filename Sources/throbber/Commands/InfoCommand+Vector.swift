import ThrobberKit

/// `throbber info ring.svg`, `info ring.json`, `info ring.lottie`: what a
/// vector file says of itself, whoever wrote it.
extension InfoCommand {
    /// What `info` reads, for its refusal of anything else.
    static let readsText =
        "it reads GIF, APNG (PNG), WebP, SVG, Lottie (.json, .lottie, .tgs), Throbber configs and videos (MP4, MOV, WebM, Matroska, AVI, MPEG-TS and the other containers encode takes)"

    /// Prints the SVG or Lottie file `bytes` (read from `path`) as text or,
    /// with `json`, one JSON object; false when they are neither.
    static func vector(_ bytes: [UInt8], path: String, json: Bool) throws -> Bool {
        if SVGSummary.isSVG(bytes) {
            let svg = try SVGSummary.read(bytes, name: path)
            let sha = SHA256.hex(bytes)
            try StandardOutput.write(json ? svgJSON(svg, sha: sha) + "\n" : svgText(svg, path: path, sha: sha))
            return true
        }
        guard LottieFile.isCandidate(path) else { return false }
        let file = try LottieFile.read(path)
        let header = try LottieHeader.read(bytes, name: path)
        let sha = SHA256.hex(bytes)
        try StandardOutput.write(
            json ? lottieJSON(file, header, sha: sha) + "\n" : lottieText(file, header, path: path, sha: sha))
        return true
    }

    /// A JSON string, or null.
    private static func text(_ s: String?) -> String { s.map(ConfigJSON.quote) ?? "null" }

    /// "lottie", "tgs" or "dotlottie" and its name in a sentence.
    private static func kind(_ header: LottieHeader) -> (key: String, name: String) {
        switch header.packing {
        case .json: ("lottie", "Lottie")
        case .gzip: ("tgs", "Lottie (gzip, a Telegram sticker)")
        case .dotLottie:
            ("dotlottie", "dotLottie\(header.manifestVersion.map { " \($0)" } ?? ""), its first animation: Lottie")
        }
    }

    private static func lottieText(_ file: LottieFile, _ header: LottieHeader, path: String, sha: String) -> String {
        let rate = rateText(file.frameRate)
        var out =
            "\(path): \(kind(header).name) \(file.width)x\(file.height), \(file.frameCount) frames at \(rate) fps (ip \(header.inPoint) to op \(header.outPoint)), \(milliseconds(file.loopDuration)) ms a loop\n"
        out += "  made by    \(header.generator ?? "not stated (no meta.g)")\n"
        out += "  version    \(header.version.map { "Bodymovin \($0)" } ?? "not stated (no v)")\n"
        if let name = header.name { out += "  name       \(name)\n" }
        out += "  sha256     \(sha)\n"
        return out
    }

    private static func lottieJSON(_ file: LottieFile, _ header: LottieHeader, sha: String) -> String {
        func field(_ k: String, _ v: String) -> String { "\"\(k)\": \(v)" }
        return "{"
            + [
                field("format", "\"\(kind(header).key)\""), field("width", "\(file.width)"),
                field("height", "\(file.height)"), field("frame_rate", "\"\(file.frameRate)\""),
                field("frame_count", "\(file.frameCount)"), field("in_point", header.inPoint),
                field("out_point", header.outPoint), field("duration_ms", milliseconds(file.loopDuration)),
                field("version", text(header.version)), field("name", text(header.name)),
                field("generator", text(header.generator)), field("manifest_version", text(header.manifestVersion)),
                field("sha256", "\"\(sha)\""),
            ]
            .joined(separator: ", ") + "}"
    }

    /// "64x64" for plain or px lengths, else the width and height as written.
    private static func sizeText(_ svg: SVGSummary) -> String {
        func plain(_ s: String?) -> String? {
            guard var s else { return nil }
            if s.hasSuffix("px") { s.removeLast(2) }
            return Double(s) == nil ? nil : s
        }
        if let w = plain(svg.width), let h = plain(svg.height) { return "\(w)x\(h)" }
        return "width \(svg.width ?? "not given"), height \(svg.height ?? "not given")"
    }

    /// "3 CSS animations of 1.2 s" and the like.
    private static func animationText(_ svg: SVGSummary) -> String {
        let css = svg.cssDurations.count
        let smil = svg.smilDurations.count
        guard css + smil > 0 else { return svg.hasScript ? "no CSS or SMIL animation (it has a script)" : "still" }
        let kinds = [(css, "CSS"), (smil, "SMIL")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        let durations = svg.durations.map { "\(milliseconds($0)) ms" }
        var out = kinds.joined(separator: " and ") + " animation\(css + smil == 1 ? "" : "s")"
        if !durations.isEmpty { out += " of " + durations.joined(separator: ", ") }
        if let loop = svg.loop, svg.durations.count > 1 {
            out += ", all back at the start every \(milliseconds(loop)) ms"
        }
        return out
    }

    private static func svgText(_ svg: SVGSummary, path: String, sha: String) -> String {
        var out = "\(path): SVG\(svg.compressed ? " (gzip)" : "") \(sizeText(svg))"
        if let box = svg.viewBox { out += " (viewBox \(box))" }
        out += ", \(animationText(svg)); no frames or frame rate: a browser draws it continuously\n"
        if let title = svg.title { out += "  title      \(title)\n" }
        let made =
            svg.generator == "Throbber"
            ? "Throbber (its names are the hash of its text, as Throbber writes them)"
            : svg.generator ?? "not stated"
        out += "  made by    \(made)\n"
        if svg.hasScript { out += "  script     yes: what it animates is not measured\n" }
        out += "  sha256     \(sha)\n"
        return out
    }

    private static func svgJSON(_ svg: SVGSummary, sha: String) -> String {
        func field(_ k: String, _ v: String) -> String { "\"\(k)\": \(v)" }
        return "{"
            + [
                field("format", "\"svg\""), field("width", text(svg.width)), field("height", text(svg.height)),
                field("view_box", text(svg.viewBox)), field("title", text(svg.title)),
                field("generator", text(svg.generator)), field("css_animations", "\(svg.cssDurations.count)"),
                field("smil_animations", "\(svg.smilDurations.count)"),
                field("durations_ms", "[" + svg.durations.map(milliseconds).joined(separator: ", ") + "]"),
                field("duration_ms", svg.loop.map(milliseconds) ?? "null"), field("frame_rate", "null"),
                field("frame_count", "null"), field("script", "\(svg.hasScript)"),
                field("compressed", "\(svg.compressed)"), field("sha256", "\"\(sha)\""),
            ]
            .joined(separator: ", ") + "}"
    }
}
