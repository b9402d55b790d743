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
    /// The timeline entry where the next frame starts: the entries shown
    /// once it is written (for a byte-budget trial's estimate).
    var endEntry = 0
}
