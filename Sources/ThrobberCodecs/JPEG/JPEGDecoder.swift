internal import CJPEG
import ThrobberCore

/// JPEG through libjpeg-turbo (baseline, progressive, grayscale). A file that
/// ends before its last scan is refused rather than padded with gray.
enum JPEGDecoder {
    static func decode(_ bytes: [UInt8], name: String) throws -> RGBAImage {
        try ShimDecoder.decode(
            bytes, name: name, format: "JPEG", fallback: "decoding failed",
            begin: { throbber_jpeg_begin($0, $1, $2, $3, $4, $5, $6) },
            finish: { throbber_jpeg_finish($0, $1, $2, $3) })
    }
}
