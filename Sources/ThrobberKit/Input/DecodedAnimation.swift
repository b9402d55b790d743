/// An animated GIF or APNG, decoded and composited as a viewer shows it:
/// every frame is the whole canvas after that frame was drawn.
public struct DecodedAnimation: Sendable {
    public var width: Int, height: Int
    public var frames: [RGBAImage]
    /// How long each frame is shown, in seconds.
    public var durations: [Rational]
    /// As in configs: 0 = forever, N = play N times.
    public var loop: Int

    /// Largest canvas accepted, in pixels, and most decoded bytes in all:
    /// files that claim more are refused before anything is allocated.
    public static let maxPixels = 1 << 26
    public static let maxTotalBytes = 1 << 31

    /// Refuses a canvas too large to decode, naming the claimed size.
    static func checkCanvas(_ width: Int, _ height: Int, name: String) throws {
        guard width > 0, height > 0 else {
            throw ThrobberError(.data, "\(name): invalid canvas size \(width)x\(height)")
        }
        guard width <= ImageDecoder.maxSide, height <= ImageDecoder.maxSide, width * height <= maxPixels else {
            throw ThrobberError(.data, "\(name): canvas of \(width)x\(height) pixels is larger than Throbber decodes (decompression bomb?)")
        }
    }

    /// Decodes `bytes` if they are an animated GIF or APNG; nil for other images.
    public static func decode(_ bytes: [UInt8], name: String) throws -> DecodedAnimation? {
        switch ImageFormat.sniff(bytes) {
        case .gif: return try GIFDecoder.decode(bytes, name: name)
        case .png where APNGDecoder.isAnimated(bytes): return try APNGDecoder.decode(bytes, name: name)
        default: return nil
        }
    }
}
