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
    /// RGB: an opaque color no frame uses, which tRNS makes transparent,
    /// so that blend OVER can leave pixels as they were.
    let key: UInt32?

    /// 8-bit RGBA.
    static let rgba = APNGPixelLayout(colorType: .rgba)

    init(colorType: APNGWriter.ColorType, depth: Int = 8, palette: [UInt32] = [], key: UInt32? = nil) {
        self.colorType = colorType
        self.key = key
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
        case .rgb: key != nil
        case .gray: false
        }
    }

    /// The tRNS chunk's contents for an RGB key: three 16-bit samples.
    var keyChunk: [UInt8]? {
        guard let key, colorType == .rgb else { return nil }
        return [0, UInt8(key & 0xFF), 0, UInt8(key >> 8 & 0xFF), 0, UInt8(key >> 16 & 0xFF)]
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

    /// `over` (a rectangle in this layout, unchanged pixels transparent)
    /// with every run of fewer than `shortRun` unchanged pixels in a row
    /// drawn again from `rows` (the same rectangle as it is), where that
    /// pixel is opaque, so OVER leaves the same pixel. A key or clear
    /// pixel between changed ones costs two jumps in the filtered row,
    /// where the pixel itself often continues its neighbours. Nil when no
    /// run is that short, or below 8 bits a sample.
    func keepingShortRuns(_ over: [UInt8], rows: [UInt8], width: Int, shortRun: Int) -> [UInt8]? {
        guard depth == 8, canBlendOver, over.count == rows.count, width > 0 else { return nil }
        let n = channels
        let height = rows.count / (n * width)
        let keyBytes: [UInt8] = key.map { [UInt8($0 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 >> 16 & 0xFF)] } ?? []
        var out = over
        var changed = false
        over.withUnsafeBufferPointer { o in
            rows.withUnsafeBufferPointer { r in
                out.withUnsafeMutableBufferPointer { d in
                    /// Whether pixel `i` is left as it was under OVER.
                    func clear(_ i: Int) -> Bool {
                        switch colorType {
                        case .rgb: o[3 * i] == keyBytes[0] && o[3 * i + 1] == keyBytes[1] && o[3 * i + 2] == keyBytes[2]
                        case .rgba: o[4 * i + 3] == 0
                        case .grayAlpha: o[2 * i + 1] == 0
                        case .palette: Int(o[i]) == self.clear
                        case .gray: false
                        }
                    }
                    func opaque(_ i: Int) -> Bool {
                        switch colorType {
                        case .rgb, .gray: true
                        case .rgba: r[4 * i + 3] == 255
                        case .grayAlpha: r[2 * i + 1] == 255
                        case .palette: palette[Int(r[i])] >> 24 == 255
                        }
                    }
                    for y in 0..<height {
                        var x = 0
                        while x < width {
                            guard clear(y * width + x) else {
                                x += 1
                                continue
                            }
                            var end = x + 1
                            while end < width && clear(y * width + end) { end += 1 }
                            if end - x < shortRun {
                                for i in (y * width + x)..<(y * width + end) where opaque(i) {
                                    for c in 0..<n { d[n * i + c] = r[n * i + c] }
                                    changed = true
                                }
                            }
                            x = end
                        }
                    }
                }
            }
        }
        return changed ? out : nil
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
        let key = key ?? 0
        for i in 0..<px.count {
            var c = UInt32(littleEndian: px[i])
            if c >> 24 == 0 { c = key }
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
