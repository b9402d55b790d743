import ThrobberCore

/// The header line of a YUV4MPEG2 stream ("YUV4MPEG2 W640 H360 F25:1 Ip
/// A1:1 C420jpeg XCOLORRANGE=LIMITED"): frame size, frame rate, chroma
/// layout and the color extensions ffmpeg writes. Interlacing and aspect
/// are ignored (frames are used as they are stored).
struct Y4MHeader {
    /// Size, chroma, matrix and range of every frame.
    var format: YUVFormat
    /// The F field: frames per second, exact; nil when unknown (F0:0 or none).
    var frameRate: Rational?

    /// The stream's first bytes.
    static let magic = Array("YUV4MPEG2 ".utf8)
    /// Fastest frame rate read from a header: a frame a millisecond, the
    /// shortest delay any output format stores.
    static let maxRate = 1000
    /// Largest denominator of a frame rate in lowest terms (ffmpeg writes
    /// 30000:1001 and the like), as for `--fps`.
    static let maxRateDenominator: Int64 = 1_000_000

    /// Parses `line` (without its newline). Throws a data error naming
    /// `name` for a stream Throbber cannot read: no size, a size over
    /// ``ImageDecoder/maxSide``, a frame rate that is no N:D or out of range
    /// (over ``maxRate``), not 8-bit, an unknown chroma layout.
    init(_ line: [UInt8], name: String) throws {
        func bad(_ why: String) -> ThrobberError { ThrobberError(.data, "\(name): YUV4MPEG2 header: \(why)") }
        let fields = line.split(separator: 0x20).dropFirst().map { String(decoding: $0, as: UTF8.self) }
        var width: Int?
        var height: Int?
        var chroma = YUVFormat.Chroma.c420
        var range: Bool?
        var matrix = YUVFormat.Matrix.bt601
        var rate: Rational?
        for field in fields {
            let value = String(field.dropFirst())
            switch field.first {
            case "W", "H":
                guard let n = Self.number(value) else {
                    throw bad("\(field.prefix(1))\(value.prefix(32)) is not a frame size in pixels")
                }
                if field.first == "W" { width = n } else { height = n }
            case "F":
                let parts = value.split(separator: ":", omittingEmptySubsequences: false).map { Int64($0) }
                guard parts.count == 2, let n = parts[0], let d = parts[1], n >= 0, d >= 0 else {
                    throw bad("frame rate F\(value.prefix(32)) is not N:D (two whole numbers)")
                }
                guard n > 0 && d > 0 else {
                    rate = nil
                    continue
                }
                let r = Rational(n, d)
                guard r <= Rational(Int64(Self.maxRate)), r.denominator <= Self.maxRateDenominator else {
                    throw ThrobberError(
                        .data,
                        "\(name): YUV4MPEG2 header F\(value): frame rate \(r) fps is out of range (at most \(Self.maxRate) fps, with a denominator of at most \(Self.maxRateDenominator)); is it really a YUV4MPEG2 stream?"
                    )
                }
                rate = r
            case "C": chroma = try Self.chroma(value, bad)
            case "X":
                let pair = value.split(separator: "=", maxSplits: 1).map { $0.uppercased() }
                guard pair.count == 2 else { continue }
                switch pair[0] {
                case "COLORRANGE" where pair[1] == "FULL" || pair[1] == "JPEG" || pair[1] == "PC": range = true
                case "COLORRANGE" where pair[1] == "LIMITED" || pair[1] == "MPEG" || pair[1] == "TV": range = false
                case "COLORSPACE", "COLORMATRIX", "MATRIX":
                    let v = pair[1].replacing(".", with: "").replacing("-", with: "")
                    if ["BT709", "709"].contains(v) { matrix = .bt709 }
                    if ["BT601", "601", "BT470BG", "SMPTE170M"].contains(v) { matrix = .bt601 }
                default: continue
                }
            default: continue
            }
        }
        let side = ImageDecoder.maxSide
        guard let w = width, let h = height, w > 0, h > 0 else { throw bad("no frame size (W and H)") }
        guard w <= side && h <= side else { throw bad("\(w)x\(h) frames are larger than \(side) pixels a side") }
        // Gray streams are full range unless they say otherwise (ffmpeg
        // marks them so); Y'CbCr streams are limited range unless they say
        // otherwise (ffmpeg's default, and what untagged video is).
        format = YUVFormat(
            width: w, height: h, chroma: chroma, matrix: matrix, fullRange: range ?? (chroma == .mono))
        frameRate = rate
    }

    /// A positive decimal of at most 9 digits (a frame side); nil for
    /// anything else, so no side can overflow the sizes computed from it.
    private static func number(_ text: String) -> Int? {
        guard (1...9).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    private static func chroma(_ value: String, _ bad: (String) -> ThrobberError) throws -> YUVFormat.Chroma {
        switch value {
        case "420jpeg", "420mpeg2", "420paldv", "420": return .c420
        case "422": return .c422
        case "444": return .c444
        case "mono": return .mono
        default:
            let parts = value.split(separator: "p")
            let deeper =
                parts.count == 2 && Int(parts[1]) != nil || value.hasPrefix("mono") && Int(value.dropFirst(4)) != nil
            if deeper {
                throw bad(
                    "C\(value) is not 8 bits per sample; only 8-bit streams are read: add -pix_fmt yuv420p (or yuv444p, gray) to ffmpeg"
                )
            }
            throw bad(
                "chroma C\(value) is not supported (only 420jpeg, 420mpeg2, 420paldv, 422, 444 and mono): add -pix_fmt yuv420p to ffmpeg"
            )
        }
    }
}
