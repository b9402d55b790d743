internal import CJPEG
import ThrobberCore

/// JPEG through libjpeg-turbo (baseline, progressive, grayscale). A file that
/// ends before its last scan is refused rather than padded with gray.
enum JPEGDecoder {
    static func decode(_ bytes: [UInt8], name: String) throws -> RGBAImage {
        try ShimDecoder.decode(bytes, name: name, format: "JPEG", fallback: "decoding failed") {
            throbber_jpeg_decode($0, $1, $2, $3, $4, $5, $6, $7)
        }
    }
}
