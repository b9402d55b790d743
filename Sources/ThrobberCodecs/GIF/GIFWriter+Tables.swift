internal import CGIF

/// The GIF stream's arithmetic and tables: interlaced row order, code sizes,
/// color table sizes and giflib's color maps.
extension GIFWriter {
    /// `indices` (rows of `width`) in the GIF spec's interlaced order:
    /// every 8th row from 0, every 8th from 4, every 4th from 2, every
    /// 2nd from 1.
    package static func interlacedRows(_ indices: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(indices.count)
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            for row in stride(from: start, to: height, by: step) {
                out += indices[row * width..<(row + 1) * width]
            }
        }
        return out
    }

    static func describe(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// Bits that hold index `highest` (at least 2, the smallest LZW code
    /// size GIF allows).
    package static func codeBits(_ highest: Int) -> Int {
        var bits = 2
        while 1 << bits <= highest { bits += 1 }
        return bits
    }

    /// Entries a color table of `count` colors has in the file: a power of
    /// two, at least 2.
    static func tableSize(_ count: Int) -> Int {
        var size = 2
        while size < count { size *= 2 }
        return size
    }

    /// Bytes a color table of `count` colors takes in the file: three a
    /// color, padded as `makeMap` pads it.
    package static func colorTableBytes(_ count: Int) -> Int { 3 * tableSize(count) }

    /// A giflib color map, padded to a power of two (at least 2 entries).
    static func makeMap(_ palette: [UInt32]) -> UnsafeMutablePointer<ColorMapObject> {
        let size = tableSize(palette.count)
        var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
        for (i, c) in palette.enumerated() {
            colors[i] = GifColorType(Red: UInt8(c & 0xFF), Green: UInt8((c >> 8) & 0xFF), Blue: UInt8((c >> 16) & 0xFF))
        }
        return GifMakeMapObject(Int32(size), &colors)
    }
}
