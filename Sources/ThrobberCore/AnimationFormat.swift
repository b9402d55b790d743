/// The animated formats Throbber reads and writes. What each can express
/// and the type that writes it are registered in ThrobberEncode
/// (`AnimationFormat+Encoder.swift`).
public enum AnimationFormat: String, Sendable, CaseIterable {
    /// GIF89a: a palette of at most 256 colors per frame, one transparent
    /// index (no partial alpha), delays in whole centiseconds.
    case gif
    /// Animated PNG: lossless RGBA (RGB when every pixel is opaque) or a
    /// palette, with delays as exact fractions of a second.
    case apng
    /// Animated WebP: lossless (exact pixels) by default or lossy with
    /// `--quality`, full alpha, delays in milliseconds.
    case webp
}
