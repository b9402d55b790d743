import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

extension LottieWriter {
    /// A Lottie layer embedded as a precomposition: the file's layers as
    /// an asset (its own assets beside ours, their ids prefixed so they
    /// cannot collide, its expressions dropped), played through a time
    /// remap (`tm`) that maps the loop onto the file's own frames, at its
    /// own frame rate.
    /// The file is embedded once, however many layers or copies show it.
    mutating func precomposition(_ lottie: SceneLottie, time: VectorTrack, path: String) throws -> [(String, JSON)] {
        let id = try compositions[lottie.path] ?? composition(lottie)
        compositions[lottie.path] = id
        // tm is in seconds of this file's frame rate: tm · fr is the file's frame number.
        let ours = Rational(Int64(scene.frames)) / scene.loop
        let scale = (lottie.file.frameRate / ours).doubleValue
        let offset = (Rational(Int64(lottie.file.inPoint)) / ours).doubleValue
        let remap = try keyframes(time.mapped(scale: scale, offset: offset), turns: false) {
            LottieWriter.array([.number(VectorText.number($0, VectorText.timeDigits))])
        }
        return [
            ("refId", .string(id)), ("w", .number("\(lottie.file.width)")), ("h", .number("\(lottie.file.height)")),
            ("tm", remap),
        ]
    }

    /// Embeds `lottie`'s layers and assets as assets; the id of its composition.
    private mutating func composition(_ lottie: SceneLottie) throws -> String {
        try meter.parsing(lottie.file.jsonText.count, at: path)
        let top = try JSONParser.parse(lottie.file.jsonText, file: lottie.path)
        guard case .object(let members) = top.value else { return "" }
        let prefix = "c\(assets.count)_"
        var layers = JSON.array([])
        for m in members {
            switch m.key {
            case "layers": layers = LottieWriter.embedded(m.value.value, prefix)
            case "assets":
                guard case .array(let list) = m.value.value else { continue }
                for asset in list {
                    guard case .object(var a) = LottieWriter.embedded(asset.value, prefix) else { continue }
                    for i in a.indices where a[i].key == "id" {
                        if case .string(let id) = a[i].value.value { a[i].value = wrap(.string(prefix + id)) }
                    }
                    try append(asset: .object(a))
                }
            default: continue
            }
        }
        let id = prefix + "comp"
        try append(asset: LottieWriter.object([("id", .string(id)), ("layers", layers)]))
        return id
    }

    /// `json` as a precomposition embeds it: every `refId` string
    /// prefixed, and every expression dropped (an `x` member holding a
    /// string: JavaScript that lottie-web with expressions would run; the
    /// frames, drawn by rlottie, never ran it). An `x` holding a number,
    /// array or object (a key's tangent, a split position) stays.
    static func embedded(_ json: JSON, _ prefix: String) -> JSON {
        switch json {
        case .object(let members):
            return .object(
                members.compactMap { m in
                    switch (m.key, m.value.value) {
                    case ("x", .string): return nil
                    case ("refId", .string(let s)): return (key: m.key, value: JSONNode(.string(prefix + s)))
                    default: return (key: m.key, value: JSONNode(embedded(m.value.value, prefix)))
                    }
                })
        case .array(let elements):
            return .array(elements.map { JSONNode(embedded($0.value, prefix)) })
        default: return json
        }
    }
}
