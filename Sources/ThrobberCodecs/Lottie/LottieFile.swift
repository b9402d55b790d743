import FoundationEssentials
import Glibc
import ThrobberCore

/// A Lottie (Bodymovin) animation read from a `.json` file, a gzipped
/// Telegram sticker (`.tgs`) or a dotLottie archive (`.lottie`: the
/// manifest's first animation), recognised by its content: a JSON object with
/// the keys `v`, `fr`, `ip`, `op`, `w`, `h` and `layers`. Only its header is
/// read here; rlottie draws it (``LottieFrameSource``).
public struct LottieFile: Sendable {
    /// The path, for messages.
    public let name: String
    /// The JSON text, NUL-terminated for rlottie.
    let json: [CChar]
    /// The composition's size in pixels (`w`, `h`).
    public let width: Int
    /// The composition's height in pixels.
    public let height: Int
    /// Frames per second, exact: `fr` as written, or 30000/1001 (and the
    /// like) when `fr` is the float that NTSC rate was stored as.
    public let frameRate: Rational
    /// The first frame number shown (`ip`, whole frames as rlottie counts).
    public let inPoint: Int
    /// How many frames one loop has: ⌊op⌋ − ⌊ip⌋, as rlottie 0.1 counts
    /// them (its frame n is the file's frame ⌊ip⌋ + n).
    public let frameCount: Int

    /// Most bytes a `.tgs` may inflate to.
    static let maxJSONBytes = 64 << 20
    /// Most frames in one loop: more would be hours of animation.
    public static let maxFrames = 10_000

    /// What a JSON document is, judged by its top-level keys.
    public enum Kind: Sendable {
        /// Has `v`, `fr`, `ip`, `op`, `w`, `h` and `layers`.
        case lottie
        /// Has `version` and no Lottie keys: a Throbber config.
        case throbberConfig
        /// Anything else.
        case other
    }

    /// The kind of a parsed document's top level.
    public static func kind(of top: JSONNode) -> Kind {
        guard case .object(let members) = top.value else { return .other }
        let keys = Set(members.map(\.key))
        if ["fr", "ip", "op", "w", "h", "layers"].allSatisfy(keys.contains) { return .lottie }
        if keys.contains("version") { return .throbberConfig }
        return .other
    }

    /// Whether the file at `path` should be read as a Lottie file rather
    /// than an image: it is named `.json`, `.tgs` or `.lottie`, starts with
    /// `{` (after blanks), or is gzip or zip data. Cheap: reads at most 64 bytes,
    /// and none when `sniff` is false (among many frame files, where only
    /// the name is looked at).
    public static func isCandidate(_ path: String, sniff: Bool = true) -> Bool {
        let lower = path.lowercased()
        if [".json", ".tgs", ".lottie"].contains(where: lower.hasSuffix) { return true }
        guard sniff else { return false }
        guard let head = try? FileBytes.withReader(path, { read in try read(0, 64) }) else { return false }
        if GzipInflate.isGzip(head) || ZipArchive.isZip(head) { return true }
        let body = head.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(head.dropFirst(3)) : head
        return body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }

    /// Reads and checks `path`. Throws ``ThrobberError/Kind/data`` naming
    /// the file (and the key) for JSON that is not a Lottie animation, a
    /// Throbber config, a damaged `.lottie` archive, gzip garbage, a size or frame
    /// count out of range, or a file rlottie refuses; the file's own
    /// errors (missing: ``ThrobberError/Kind/noInput``). `asLayer`: read
    /// for a config's Lottie layer, where a config is refused as a layer
    /// rather than pointed at `throbber render`.
    public static func read(_ path: String, asLayer: Bool = false) throws -> LottieFile {
        let bytes = try unpacked(try FileBytes.read(path, streams: !asLayer), name: path)
        let top: JSONNode
        do {
            top = try JSONParser.parse(bytes, file: path)
        } catch let e as ThrobberError where asLayer {
            throw ThrobberError(e.kind, "not a Lottie file: \(e.message)")
        }
        switch kind(of: top) {
        case .lottie: break
        case .throbberConfig where asLayer:
            throw ThrobberError(
                .data, "\(path) is a Throbber config, not a Lottie file (a config cannot be a layer of another)")
        case .throbberConfig:
            throw ThrobberError(
                .data, "\(path) is a Throbber config, not a Lottie file: use `throbber render \(path)`")
        case .other:
            throw ThrobberError(
                .data,
                "\(path): not a Lottie file (expected a JSON object with the keys v, fr, ip, op, w, h and layers)")
        }
        return try LottieFile(path: path, top: top, json: bytes)
    }

    /// The JSON text of a Lottie file's `bytes`: a dotLottie archive's
    /// animation, gzip data inflated, anything else as it is. Throws
    /// ``ThrobberError/Kind/data`` naming `name` for a damaged archive or
    /// gzip stream, or one that inflates past ``maxJSONBytes``.
    static func unpacked(_ bytes: [UInt8], name: String) throws -> [UInt8] {
        if ZipArchive.isZip(bytes) { return try DotLottie.animation(bytes, name: name, limit: maxJSONBytes) }
        if GzipInflate.isGzip(bytes) { return try GzipInflate.inflate(bytes, limit: maxJSONBytes, name: name) }
        return bytes
    }

    /// How `bytes` are packed, for a reader of plain JSON: `"a zip archive"`
    /// or `"gzip data"`, and whether what they hold is a Lottie animation
    /// (a `.lottie` or `.tgs` file); nil when they are not packed.
    public static func packing(of bytes: [UInt8], name: String) -> (form: String, isLottie: Bool)? {
        let form: String
        if ZipArchive.isZip(bytes) {
            form = "a zip archive"
        } else if GzipInflate.isGzip(bytes) {
            form = "gzip data"
        } else {
            return nil
        }
        guard let json = try? unpacked(bytes, name: name), let top = try? JSONParser.parse(json, file: name) else {
            return (form, false)
        }
        return (form, kind(of: top) == .lottie)
    }

    private init(path: String, top: JSONNode, json: [UInt8]) throws {
        guard case .object(let members) = top.value else { preconditionFailure("checked by kind(of:)") }
        func number(_ key: String) throws -> Double {
            guard case .number(let text)? = members.first(where: { $0.key == key })?.value.value,
                let v = Double(text), v.isFinite
            else { throw ThrobberError(.data, "\(path): \(key): expected a number") }
            return v
        }
        let (w, h) = (try number("w"), try number("h"))
        guard w >= 1, h >= 1, w == w.rounded(), h == h.rounded() else {
            throw ThrobberError(.data, "\(path): w, h: expected a size of at least 1x1 pixels, got \(w)x\(h)")
        }
        guard w <= Double(ImageDecoder.maxSide), h <= Double(ImageDecoder.maxSide),
            w * h <= Double(DecodedAnimation.maxPixels)
        else {
            throw ThrobberError(
                .data,
                "\(path): w, h: \(Int(w))x\(Int(h)) is larger than Throbber renders (at most \(ImageDecoder.maxSide) a side)"
            )
        }
        let fr = try number("fr")
        guard fr > 0, fr <= 1000, let rate = Self.exactRate(fr) else {
            throw ThrobberError(.data, "\(path): fr: the frame rate must be above 0 and at most 1000, got \(fr)")
        }
        let (ip, op) = (try number("ip"), try number("op"))
        guard abs(ip) < 1e9, abs(op) < 1e9 else {
            throw ThrobberError(.data, "\(path): ip, op: frame numbers out of range (\(ip), \(op))")
        }
        let count = Int(op.rounded(.towardZero)) - Int(ip.rounded(.towardZero))
        guard count >= 1 else {
            throw ThrobberError(.data, "\(path): ip, op: the animation has no frames (ip \(ip), op \(op))")
        }
        guard count <= Self.maxFrames else {
            throw ThrobberError(
                .data, "\(path): ip, op: \(count) frames is more than Throbber renders (at most \(Self.maxFrames))")
        }
        try LottieLimits.check(top, path: path)
        self.name = path
        self.json = json.map { CChar(bitPattern: $0) } + [0]
        self.width = Int(w)
        self.height = Int(h)
        self.frameRate = rate
        self.inPoint = Int(ip.rounded(.towardZero))
        self.frameCount = count
        // rlottie's own reading must agree, or it refuses the file.
        try RLottieRender.check(self)
    }

    /// The length of one loop in seconds, exactly: frameCount / frameRate.
    public var loopDuration: Rational { Rational(Int64(frameCount)) / frameRate }

    /// Frame `frame` (0 is the file's `ip`) drawn by a fresh rlottie object
    /// to fit `width`×`height` pixels (aspect ratio kept, centered), exactly
    /// as rlottie draws it: premultiplied ARGB, one native-endian UInt32 per
    /// pixel, rows of `width` pixels. That is cairo's `CAIRO_FORMAT_ARGB32`
    /// with a stride of width·4, so it can be painted without conversion.
    /// Throws ``ThrobberError/Kind/data`` when rlottie cannot read the file.
    public func premultipliedARGB(frame: Int, width: Int, height: Int) throws -> [UInt32] {
        precondition(width >= 1 && height >= 1 && (0..<frameCount).contains(frame))
        return try RLottieRender.premultipliedARGB(self, frame: frame, width: width, height: height)
    }

    /// `fr` as an exact rate: a whole number, or N·1000/1001 (29.97 →
    /// 30000/1001) when within 1e-4 of one (exporters store these as
    /// floats), else rounded to thousandths. Nil when that rounds to 0.
    public static func exactRate(_ fr: Double) -> Rational? {
        let whole = fr.rounded()
        if abs(fr - whole) < 1e-4, whole >= 1 { return Rational(Int64(whole)) }
        let ntsc = (fr * 1.001).rounded()
        if abs(fr - ntsc / 1.001) < 1e-4, ntsc >= 1 { return Rational(Int64(ntsc) * 1000, 1001) }
        let thousandths = Int64((fr * 1000).rounded())
        return thousandths > 0 ? Rational(thousandths, 1000) : nil
    }
}
