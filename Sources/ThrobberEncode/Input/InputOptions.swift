import ThrobberCodecs
import ThrobberCore

/// What an encode asks of its input, beside the ``EncodeSettings``: how a
/// folder is listed, what is composited under the frames, and how inputs
/// that bring their own clock (a video, a Lottie file) are sampled.
public struct InputOptions: Sendable {
    /// How folders among the inputs are listed (order, glob).
    public var list = FrameList()
    /// Composited under every frame; transparent by default.
    public var background = Color.transparent
    /// The rate a video or a Lottie file is resampled to; nil: the input's
    /// own times (a video's timestamps, a Lottie file's frame rate, thinned
    /// to what the format can show).
    public var fps: Rational?
    /// Where a video is cut, in seconds from its first frame; nil: its start.
    public var from: Rational?
    /// Where a video ends; nil: its end.
    public var to: Rational?
    /// Dither (0…1) for a 10- or 12-bit video's reduction to 8 bits; 0 rounds.
    public var videoDither = 0.0
    /// Whether a single animated input's own loop count replaces
    /// ``EncodeSettings/loop`` (true unless the loop was asked for).
    public var keepsInputLoop = true
    /// Whether a still stored as layers (a GIF built up in 0 ms frames
    /// that plays once) is encoded as its frames; false writes its final
    /// picture as one frame, with a note.
    public var keepsLayers = false
    /// Whether to look for what the user should be told about the input
    /// (``OpenedInput/notes``), where looking costs work of its own (a
    /// Lottie file drawn small to see whether it hides the background).
    public var looksForNotes = true

    /// The defaults: natural order, transparent background, the input's
    /// own times and loop.
    public init() {}
}
