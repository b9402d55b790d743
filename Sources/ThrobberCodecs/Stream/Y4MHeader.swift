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

    /// Parses `line` (without its newline). Throws a data error naming
    /// `name` for a stream Throbber cannot read: no size, not 8-bit,
    /// an unknown chroma layout.
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
            case "W": width = Int(value)
            case "H": height = Int(value)
            case "F":
                let parts = value.split(separator: ":").compactMap { Int64($0) }
                guard parts.count == 2, parts[0] >= 0, parts[1] >= 0 else {
                    throw bad("frame rate F\(value) is not N:D")
                }
                rate = parts[0] > 0 && parts[1] > 0 ? Rational(parts[0], parts[1]) : nil
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
