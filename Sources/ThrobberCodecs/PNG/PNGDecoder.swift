internal import CPNG
import ThrobberCore

/// Standard PNG through libpng: every bit depth and color type, tRNS,
/// interlacing. Samples are kept as stored (no gamma correction, as browsers
/// and other GIF tools do); 16-bit samples are scaled to 8 bits with rounding.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], name: String) throws -> RGBAImage {
        try ShimDecoder.decode(
            bytes, name: name, format: "PNG", fallback: "decoding failed",
            begin: { throbber_png_begin($0, $1, $2, $3, $4, $5, $6) },
            finish: { throbber_png_finish($0, $1, $2, $3) })
    }
}
