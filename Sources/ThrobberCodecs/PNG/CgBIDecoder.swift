import ThrobberCore

/// Apple's CgBI ("crushed") PNG, as Xcode ships iOS images: a CgBI chunk
/// first, image data as raw deflate without the zlib wrapper, BGRA byte
/// order and premultiplied alpha. libpng and most tools refuse these files.
enum CgBIDecoder {
    static func isCgBI(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 16 && bytes[12..<16].elementsEqual("CgBI".utf8)
    }

    static func decode(_ bytes: [UInt8], name: String) throws -> RGBAImage {
        let chunks = try PNGChunk.parse(bytes, name: name)
        guard let ihdr = chunks.first(where: { $0.type == "IHDR" }), ihdr.data.count == 13 else {
            throw ThrobberError(.data, "\(name): CgBI PNG has no valid IHDR chunk")
        }
        let width = Int(ihdr.uint32(at: 0))
        let height = Int(ihdr.uint32(at: 4))
        let depth = ihdr.data[ihdr.data.startIndex + 8]
        let color = ihdr.data[ihdr.data.startIndex + 9]
        let interlace = ihdr.data[ihdr.data.startIndex + 12]
        guard width > 0, height > 0, width <= ImageDecoder.maxSide, height <= ImageDecoder.maxSide else {
            throw ThrobberError(.data, "\(name): CgBI PNG has an invalid size \(width)x\(height)")
        }
        guard depth == 8, color == 6 || color == 2, interlace == 0 else {
            throw ThrobberError(
                .data,
                "\(name): unsupported CgBI PNG (bit depth \(depth), color type \(color), interlace \(interlace)); only 8-bit non-interlaced BGR(A) is known"
            )
        }
        let channels = color == 6 ? 4 : 3
        let compressed = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        guard !compressed.isEmpty else { throw ThrobberError(.data, "\(name): CgBI PNG has no image data") }
        let stride = width * channels
        let filtered = try Inflate.exact(compressed, expected: (stride + 1) * height, raw: true, name: name)
        let raw = try PNGUnfilter.apply(filtered, stride: stride, height: height, bpp: channels, name: name)

        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let s = i * channels
            let d = i * 4
            let b = Int(raw[s])
            let g = Int(raw[s + 1])
            let r = Int(raw[s + 2])
            let a = channels == 4 ? Int(raw[s + 3]) : 255
            guard a > 0 else { continue }  // fully transparent: RGB is meaningless, keep 0
            // Undo premultiplication, rounding to nearest.
            pixels[d] = UInt8(min(255, (r * 255 + a / 2) / a))
            pixels[d + 1] = UInt8(min(255, (g * 255 + a / 2) / a))
            pixels[d + 2] = UInt8(min(255, (b * 255 + a / 2) / a))
            pixels[d + 3] = UInt8(a)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
