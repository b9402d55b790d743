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
    /// The JSON text rlottie reads (images by path already embedded), for
    /// a writer that embeds the animation in another.
    package var jsonText: [UInt8] { json.dropLast().map { UInt8(bitPattern: $0) } }
    /// The SHA-256 of the JSON text, in hex: what names its parsed model in
    /// rlottie's model cache (`RLottieRender`).
    let modelKey: String
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
    /// Layers and shape items rlottie draws for one frame, repeater copies
    /// and precompositions multiplied out.
    public let drawnItems: Int
    /// Bytes one rlottie object holds for this file, images decoded: a
    /// run holds one per drawing thread (`LottieWork`).
    public let modelBytes: Int

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
        return startsLikeLottie(head)
    }

    /// Whether `head`, a file's first bytes, could start a Lottie file: a
    /// JSON object (after a byte-order mark and blanks), gzip (`.tgs`) or
    /// zip (`.lottie`) data.
    static func startsLikeLottie(_ head: [UInt8]) -> Bool {
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
    /// `budget`: the run's memory, which one rlottie object for the file
    /// (its layers, shapes and decoded images) must fit before rlottie
    /// reads it.
    public static func read(_ path: String, asLayer: Bool = false, budget: MemoryBudget = .machineDefault) throws
        -> LottieFile
    {
        let raw = try FileBytes.read(path, streams: !asLayer)
        // Images named by path are looked for beside a plain JSON file only.
        var folder: String?
        if !ZipArchive.isZip(raw), !GzipInflate.isGzip(raw), FileBytes.kind(path) == .file {
            folder = PathText.parent(path).isEmpty ? "." : PathText.parent(path)
        }
        let bytes = try unpacked(raw, name: path)
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
        return try LottieFile(path: path, top: top, json: bytes, folder: folder, budget: budget)
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

    private init(
        path: String, top parsed: JSONNode, json original: [UInt8], folder: String?, budget: MemoryBudget
    ) throws {
        guard case .object(let members) = parsed.value else { preconditionFailure("checked by kind(of:)") }
        let (w, h) = (try Self.side("w", in: members, path: path), try Self.side("h", in: members, path: path))
        guard w * h <= DecodedAnimation.maxPixels else {
            throw ThrobberError(
                .data,
                "\(path): w, h: \(w)x\(h) is more pixels than Throbber renders (at most \(DecodedAnimation.maxPixels))")
        }
        let fr = try Self.number("fr", in: members, path: path)
        guard fr.value > 0, fr.value <= 1000, let rate = Self.exactRate(fr.value) else {
            throw ThrobberError(
                .data, "\(path): fr: the frame rate must be above 0 and at most 1000, got \(fr.text)")
        }
        let (ip, op) = (try Self.number("ip", in: members, path: path), try Self.number("op", in: members, path: path))
        guard abs(ip.value) < 1e9, abs(op.value) < 1e9 else {
            throw ThrobberError(.data, "\(path): ip, op: frame numbers out of range (\(ip.text), \(op.text))")
        }
        let count = Int(op.value.rounded(.towardZero)) - Int(ip.value.rounded(.towardZero))
        guard count >= 1 else {
            throw ThrobberError(.data, "\(path): ip, op: the animation has no frames (ip \(ip.text), op \(op.text))")
        }
        guard count <= Self.maxFrames else {
            throw ThrobberError(
                .data, "\(path): ip, op: \(count) frames is more than Throbber renders (at most \(Self.maxFrames))")
        }
        try LottieLimits.check(parsed, path: path)
        let prepared = try LottieAssets.prepare(parsed, json: original, name: path, folder: folder)
        var work = try LottieWork.count(prepared.top, path: path)
        work.imageBytes = prepared.imageBytes
        let drawings = FrameSize.product(work.items, count)
        guard drawings <= LottieLimits.maxDrawings else {
            throw ThrobberError(
                .data,
                "\(path): \(work.items) layers and shapes a frame over \(count) frames is more drawing than Throbber does (at most \(LottieLimits.maxDrawings) in all)"
            )
        }
        self.name = path
        self.json = prepared.json.map { CChar(bitPattern: $0) } + [0]
        self.modelKey = SHA256.hex(prepared.json)
        self.width = w
        self.height = h
        self.frameRate = rate
        self.inPoint = Int(ip.value.rounded(.towardZero))
        self.frameCount = count
        self.modelBytes = work.modelBytes(jsonBytes: prepared.json.count)
        self.drawnItems = max(1, work.items)
        guard modelBytes <= budget.limit else {
            throw ThrobberError(
                .data,
                "\(path): rlottie needs about \(MemoryBudget.describe(modelBytes)) to hold this animation (its layers, shapes and decoded images), more than this run may use (\(MemoryBudget.describe(budget.limit))); raise --max-memory"
            )
        }
        // rlottie's own reading must agree, or it refuses the file.
        try RLottieRender.check(self)
    }

    /// The header number `key` of `members` (in the file `path`), with its
    /// text as written for messages.
    private static func number(_ key: String, in members: [(key: String, value: JSONNode)], path: String) throws
        -> (value: Double, text: String)
    {
        guard case .number(let text)? = members.first(where: { $0.key == key })?.value.value,
            let v = Double(text), v.isFinite
        else { throw ThrobberError(.data, "\(path): \(key): expected a number") }
        return (v, text)
    }

    /// `w` or `h` of `members` (in the file `path`): a whole number of
    /// pixels within what Throbber renders.
    private static func side(_ key: String, in members: [(key: String, value: JSONNode)], path: String) throws -> Int {
        let (v, text) = try number(key, in: members, path: path)
        guard v >= 1, v == v.rounded() else {
            throw ThrobberError(
                .data, "\(path): \(key): expected a whole number of pixels, at least 1, got \(text)")
        }
        guard v <= Double(ImageDecoder.maxSide) else {
            throw ThrobberError(
                .data,
                "\(path): \(key): \(text) pixels is larger than Throbber renders (at most \(ImageDecoder.maxSide) a side)"
            )
        }
        return Int(v)
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
