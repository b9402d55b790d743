import ThrobberCodecs
import ThrobberCore

/// How an APNG stores its pixels: the PNG color type and bit depth chosen
/// for the whole animation (frames share IHDR, PLTE and tRNS), and the
/// conversion of RGBA rows into that layout. Every layout is exact: the
/// decoded frames are the RGBA pixels put in.
struct APNGPixelLayout: Sendable {
    /// The PNG color type.
    let colorType: APNGWriter.ColorType
    /// Bits per sample: 1, 2, 4 or 8.
    let depth: Int
    /// PLTE entries as packed RGBA (palette only).
    let palette: [UInt32]
    private let table: ColorTable?
    /// For each of `table`'s colors, the first palette entry that has it.
    private let entries: [Int]
    /// The palette entry unchanged pixels take under blend OVER.
    private let clear: Int?

    /// 8-bit RGBA.
    static let rgba = APNGPixelLayout(colorType: .rgba)

    init(colorType: APNGWriter.ColorType, depth: Int = 8, palette: [UInt32] = []) {
        self.colorType = colorType
        self.depth = depth
        self.palette = palette
        let table = colorType == .palette ? ColorTable(colors: palette) : nil
        self.table = table
        // ColorTable numbers distinct colors: a repeated entry would shift
        // every later one.
        entries = table?.colors.map { c in palette.firstIndex(of: c)! } ?? []
        clear = palette.firstIndex { $0 >> 24 == 0 }
    }

    /// Whether blend OVER can leave a pixel as it was (a transparent
    /// pixel value exists).
    var canBlendOver: Bool {
        switch colorType {
        case .rgba, .grayAlpha: true
        case .palette: clear != nil
        case .rgb, .gray: false
        }
    }

    /// Samples per pixel.
    private var channels: Int {
        switch colorType {
        case .rgba: 4
        case .rgb: 3
        case .grayAlpha: 2
        case .gray, .palette: 1
        }
    }

    /// PNG's filter distance: bytes per pixel, at least 1.
    var filterDistance: Int { max(1, channels * depth / 8) }

    /// Bytes in a row of `width` pixels.
    func stride(_ width: Int) -> Int { (width * channels * depth + 7) / 8 }

    /// What `info` and the encode report call it.
    var description: String {
        let bits = "\(depth)-bit"
        switch colorType {
        case .rgba: return "lossless RGBA"
        case .rgb: return "lossless RGB"
        case .grayAlpha: return "lossless gray+alpha"
        case .gray: return "lossless gray \(bits)"
        case .palette: return "palette of \(palette.count) colors, \(bits)"
        }
    }

    /// `rgba` (rows of `width` pixels) in this layout. In a palette, colors
    /// not in it that are fully transparent (blend OVER's unchanged pixels)
    /// take the clear entry.
    func encode(_ rgba: [UInt8], width: Int) -> [UInt8] {
        let height = width == 0 ? 0 : rgba.count / 4 / width
        let stride = stride(width)
        var out = [UInt8](repeating: 0, count: stride * height)
        if colorType == .rgba {
            return rgba
        }
        rgba.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            out.withUnsafeMutableBufferPointer { o in
                switch colorType {
                case .rgb: encodeRGB(px, o)
                case .grayAlpha:
                    for i in 0..<(width * height) {
                        let c = UInt32(littleEndian: px[i])
                        o[2 * i] = UInt8(c & 0xFF)
                        o[2 * i + 1] = UInt8(c >> 24)
                    }
                default: encodeSamples(px, o, width: width, height: height, stride: stride)
                }
            }
        }
        return out
    }

    private func encodeRGB(_ px: UnsafeBufferPointer<UInt32>, _ o: UnsafeMutableBufferPointer<UInt8>) {
        for i in 0..<px.count {
            let c = UInt32(littleEndian: px[i])
            o[3 * i] = UInt8(c & 0xFF)
            o[3 * i + 1] = UInt8(c >> 8 & 0xFF)
            o[3 * i + 2] = UInt8(c >> 16 & 0xFF)
        }
    }

    /// Gray levels or palette indices, packed `depth` bits per pixel, most
    /// significant first.
    private func encodeSamples(
        _ px: UnsafeBufferPointer<UInt32>, _ o: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
        stride: Int
    ) {
        let maxValue = UInt32(1 << depth - 1)
        let perByte = 8 / depth
        var lastColor: UInt32? = nil
        var lastValue: UInt32 = 0
        for y in 0..<height {
            for x in 0..<width {
                let c = UInt32(littleEndian: px[y * width + x])
                if c != lastColor {
                    lastColor = c
                    if colorType == .gray {
                        lastValue = (c & 0xFF) * maxValue / 255
                    } else {
                        lastValue = UInt32(table?.index(of: c).map { entries[$0] } ?? (c >> 24 == 0 ? clear : nil) ?? 0)
                    }
                }
                let shift = (perByte - 1 - x % perByte) * depth
                o[y * stride + x / perByte] |= UInt8(lastValue << shift)
            }
        }
    }
}
