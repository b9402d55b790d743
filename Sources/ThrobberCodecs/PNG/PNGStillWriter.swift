import ThrobberCore

/// A single RGBA image as a plain PNG (for `check --diff-dir` and tests).
public enum PNGStillWriter {
    /// The bytes of a PNG file: 8-bit RGBA, not interlaced, compressed with
    /// ``PNGCompressor/Effort/fast``. Throws ``ThrobberError/Kind/software``
    /// if zlib fails.
    public static func encode(_ image: RGBAImage) throws -> [UInt8] {
        var png = PNGChunkWriter()
        png.signature()
        png.chunk("IHDR", UInt32(image.width).bigEndianBytes + UInt32(image.height).bigEndianBytes + [8, 6, 0, 0, 0])
        png.chunk(
            "IDAT",
            try PNGCompressor(effort: .fast).compress(
                image.pixels, stride: image.width * 4, height: image.height, bpp: 4))
        png.chunk("IEND", [])
        return png.take()
    }
}
