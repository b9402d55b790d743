internal import CJPEG
import Foundation
import ThrobberCore

/// JPEG through libjpeg-turbo (baseline, progressive, grayscale). A file that
/// ends before its last scan is refused rather than padded with gray.
enum JPEGDecoder {
    static func decode(_ bytes: [UInt8], name: String) throws -> RGBAImage {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var rgba: UnsafeMutablePointer<UInt8>? = nil
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { buf in
            throbber_jpeg_decode(
                buf.baseAddress, buf.count, UInt32(ImageDecoder.maxSide),
                &width, &height, &rgba, &message, message.count)
        }
        guard status == 0, let rgba else {
            let why = String(cString: message)
            throw ThrobberError(.data, "\(name): not a valid JPEG: \(why.isEmpty ? "decoding failed" : why)")
        }
        defer { free(rgba) }
        return RGBAImage(
            width: Int(width), height: Int(height),
            pixels: [UInt8](UnsafeBufferPointer(start: rgba, count: Int(width) * Int(height) * 4)))
    }
}
