import ThrobberCore

/// The calling convention the C shims of libpng and libjpeg-turbo share
/// (`throbber_png_begin`/`_finish`, `throbber_jpeg_begin`/`_finish`): the
/// header is read first, so the pixels are decoded straight into the
/// image's own storage (written once, not into a C buffer and copied).
/// Failures come back as a status and the library's message. One Swift side
/// for both, so they report errors the same way.
enum ShimDecoder {
    /// A shim's begin function: bytes and a side limit in; a decoding (or
    /// nil with a message), width and height out.
    typealias Begin = (
        _ data: UnsafePointer<UInt8>?, _ size: Int, _ maxSide: UInt32,
        _ width: UnsafeMutablePointer<UInt32>, _ height: UnsafeMutablePointer<UInt32>,
        _ message: UnsafeMutablePointer<CChar>, _ messageSize: Int
    ) -> UnsafeMutableRawPointer?
    /// A shim's finish function: decodes into the buffer (nil only ends the
    /// decoding), frees the decoding, returns 0 or 1 with a message.
    typealias Finish = (
        _ decoding: UnsafeMutableRawPointer?, _ rgba: UnsafeMutablePointer<UInt8>?,
        _ message: UnsafeMutablePointer<CChar>, _ messageSize: Int
    ) -> Int32

    /// Decodes `bytes`; failures say "`name`: not a valid `format`: why"
    /// (`fallback` when the library gave no reason).
    static func decode(
        _ bytes: [UInt8], name: String, format: String, fallback: String, begin: Begin, finish: Finish
    ) throws -> RGBAImage {
        var message = [CChar](repeating: 0, count: 256)
        func failure() -> ThrobberError {
            let why = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return ThrobberError(.data, "\(name): not a valid \(format): \(why.isEmpty ? fallback : why)")
        }
        return try bytes.withUnsafeBufferPointer { buf in
            var width: UInt32 = 0
            var height: UInt32 = 0
            guard
                let decoding = message.withUnsafeMutableBufferPointer({ text in
                    begin(
                        buf.baseAddress, buf.count, UInt32(ImageDecoder.maxSide), &width, &height, text.baseAddress!,
                        text.count)
                })
            else { throw failure() }
            // Checked: the shims bound the sides, but the product is the header's.
            let count = FrameSize(width: Int(width), height: Int(height)).rgbaBytes
            guard count > 0, count < Int.max else {
                _ = message.withUnsafeMutableBufferPointer { finish(decoding, nil, $0.baseAddress!, $0.count) }
                throw ThrobberError(.data, "\(name): not a valid \(format): image has no pixels")
            }
            var status: Int32 = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                status = message.withUnsafeMutableBufferPointer {
                    finish(decoding, out.baseAddress, $0.baseAddress!, $0.count)
                }
                initialized = status == 0 ? count : 0
            }
            guard status == 0 else { throw failure() }
            return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
        }
    }
}
