import ThrobberCodecs
import ThrobberCore

/// What an encode produced.
public struct EncodeReport: Sendable {
    public var width = 0, height = 0
    /// Frames in the file (after identical neighbours were merged).
    public var frames = 0
    public var durationCentiseconds: Int64 = 0
    /// How colors were stored, for the summary line.
    public var palette = ""
}
