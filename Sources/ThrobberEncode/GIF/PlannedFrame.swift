import ThrobberCodecs
import ThrobberCore

/// A GIF frame whose geometry and delay are decided, waiting for its palette.
struct PlannedFrame: Sendable {
    /// The whole frame as it should look once drawn.
    var target: RGBAImage
    var geometry: FrameGeometry
    /// Centiseconds.
    var delay: Int
    /// Its position in the file (0 = the first frame).
    var index: Int
}
