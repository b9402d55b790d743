import ThrobberCodecs
import ThrobberCore

/// What an encode produced.
public struct EncodeReport: Sendable {
    /// The format written.
    public var format = AnimationFormat.gif
    /// Width of the animation in pixels.
    public var width = 0
    /// Height of the animation in pixels.
    public var height = 0
    /// Width of the input frames, before cropping and resizing.
    public var inputWidth = 0
    /// Height of the input frames, before cropping and resizing.
    public var inputHeight = 0
    /// Frames in the file (after identical neighbours were merged).
    public var frames = 0
    /// Length of one loop in centiseconds: the sum of the written delays,
    /// the exact duration rounded half up.
    public var durationCentiseconds: Int64 = 0
    /// How colors were stored, for the summary line: how the palettes
    /// were chosen (GIF: "lossless, one palette of 32 colors" when they
    /// hold every color, before any lossy LZW), or how frames were coded.
    public var palette = ""
    /// The GIF lossy LZW level the frames were written with (0: exact
    /// LZW, and for every other format).
    public var lossy = 0
    /// With ``EncodeSettings/maxBytes``: the settings chosen and the size
    /// reached; nil otherwise.
    public var budget: BudgetChoice?
    /// With ``FrameTransform/trim``: what the frames draw (the crop is
    /// this box grown by the margin); nil otherwise.
    public var trim: DrawnBox?
}
