import ThrobberCore

/// What a vector file of a config shows, for a line that reports it: the
/// canvas in points and the loop, as ``VectorFormat/file(for:memory:)`` writes
/// them (the same for Lottie and SVG).
public struct VectorSummary: Equatable, Sendable {
    /// The canvas in points.
    public let width: Rational
    /// The canvas in points.
    public let height: Rational
    /// The frames of one loop, as a GIF, APNG or WebP of the config has
    /// them (`bounce` played forward and back, the ends not repeated).
    public let frames: Int
    /// One loop in seconds played.
    public let loop: Rational

    init(_ scene: VectorScene) {
        width = scene.width
        height = scene.height
        frames = scene.frames
        loop = scene.loop
    }
}
