/// The resampling kernel used to resize frames (libswscale's kernels on
/// premultiplied alpha, or pixman's nearest neighbour).
public enum ResizeFilter: String, Sendable, CaseIterable {
    /// Lanczos-3: the sharpest without visible ringing; the default.
    case lanczos
    /// Mitchell–Netravali cubic (B = C = 1/3): softer, no ringing at all.
    case mitchell
    /// Nearest neighbour: hard pixels, for pixel art scaled by whole numbers.
    case nearest
}

/// How frames are fitted when both an output width and height are given.
public enum ResizeFit: String, Sendable, CaseIterable {
    /// Scaled to fit inside, centered, the rest transparent; the default.
    case contain
    /// Scaled to fill, centered, the overhang cut off.
    case cover
    /// Scaled to exactly that size; the aspect ratio may change.
    case stretch
}
