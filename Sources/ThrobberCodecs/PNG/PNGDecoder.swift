internal import CPNG
import Foundation
import ThrobberCore

/// Standard PNG through libpng: every bit depth and color type, tRNS,
/// interlacing. Samples are kept as stored (no gamma correction, as browsers
/// and other GIF tools do); 16-bit samples are scaled to 8 bits with rounding.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], name: String) throws -> RGBAImage {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var rgba: UnsafeMutablePointer<UInt8>? = nil
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { buf in
            throbber_png_decode(
                buf.baseAddress, buf.count, UInt32(ImageDecoder.maxSide),
                &width, &height, &rgba, &message, message.count)
        }
        guard status == 0, let rgba else {
            let why = String(cString: message)
            throw ThrobberError(.data, "\(name): not a valid PNG: \(why)")
        }
        defer { free(rgba) }
        let count = Int(width) * Int(height) * 4
        guard count > 0 else { throw ThrobberError(.data, "\(name): not a valid PNG: image has no pixels") }
        return RGBAImage(
            width: Int(width), height: Int(height),
            pixels: [UInt8](UnsafeBufferPointer(start: rgba, count: count)))
    }
}
