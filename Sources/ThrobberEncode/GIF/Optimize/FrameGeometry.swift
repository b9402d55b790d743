import ThrobberCodecs
import ThrobberCore

/// The geometry of one output frame: which rectangle it redraws and how it
/// is disposed. Decided from the exact target frames alone, so it is the
/// same for lossless and quantized output and for any thread count.
public struct FrameGeometry: Equatable, Sendable {
    /// The rectangle the frame redraws; pixels outside it keep what is on
    /// screen.
    public var rect: PixelRect
    /// What happens to `rect` after the frame's delay.
    public var disposal: Disposal
}
