import Foundation
import ThrobberCore

/// The calling convention the C shims of libpng and libjpeg-turbo share
/// (`throbber_png_decode`, `throbber_jpeg_decode`): bytes and a side limit
/// in; width, height, a malloc'ed RGBA buffer and a status out, with a
/// message on failure. One Swift side for both, so they report errors and
/// free the buffer the same way.
enum ShimDecoder {
    /// A shim's decode function.
    typealias Function = (
        _ data: UnsafePointer<UInt8>?, _ size: Int, _ maxSide: UInt32,
        _ width: UnsafeMutablePointer<UInt32>, _ height: UnsafeMutablePointer<UInt32>,
        _ rgba: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        _ message: UnsafeMutablePointer<CChar>, _ messageSize: Int
    ) -> Int32

    /// Decodes `bytes` with `function`; failures say "`name`: not a valid
    /// `format`: why" (`fallback` when the library gave no reason).
    static func decode(
        _ bytes: [UInt8], name: String, format: String, fallback: String,
        _ function: Function
    ) throws -> RGBAImage {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var rgba: UnsafeMutablePointer<UInt8>? = nil
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { buf in
            message.withUnsafeMutableBufferPointer { text in
                function(
                    buf.baseAddress, buf.count, UInt32(ImageDecoder.maxSide), &width, &height, &rgba,
                    text.baseAddress!, text.count)
            }
        }
        guard status == 0, let rgba else {
            let why = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ThrobberError(.data, "\(name): not a valid \(format): \(why.isEmpty ? fallback : why)")
        }
        defer { free(rgba) }
        let count = Int(width) * Int(height) * 4
        guard count > 0 else { throw ThrobberError(.data, "\(name): not a valid \(format): image has no pixels") }
        return RGBAImage(
            width: Int(width), height: Int(height),
            pixels: [UInt8](UnsafeBufferPointer(start: rgba, count: count)))
    }
}
