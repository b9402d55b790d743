import FoundationEssentials
import Glibc
import ThrobberCore

/// Image formats Throbber recognises by their first bytes.
public enum ImageFormat: Sendable {
    /// PNG, APNG or Apple's CgBI PNG: the 8-byte PNG signature.
    case png
    /// JPEG: starts FF D8 FF.
    case jpeg
    /// GIF87a or GIF89a.
    case gif
    /// WebP, still or animated: a RIFF container of form type WEBP.
    case webp

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format `bytes` start with, whatever the file is called; nil when
    /// they are none of the four.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if WebPDecoder.isWebP(bytes) { return .webp }
        return nil
    }
}
