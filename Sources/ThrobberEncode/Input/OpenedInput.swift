import ThrobberCodecs
import ThrobberCore

/// An input opened for an encode: its frames and the facts it brings,
/// from which ``EncodePlan`` makes the settings the encoder runs with.
public struct OpenedInput: Sendable {
    /// The frames, decoded or drawn on demand.
    public var source: any FrameSource
    /// The kind that read the input.
    public var kind: any InputKind.Type
    /// Where the frames' times come from.
    public var timing: InputTiming
    /// The input's own play count (0 = forever), for a single animated
    /// file; nil when it has none.
    public var loop: Int?
    /// The frames come at the size ``EncodeSettings/transform`` asks for
    /// (a Lottie file drawn there), so its resize is done already.
    public var resizedOnLoad = false
    /// What the user should be told about the input, one line each,
    /// without "note: " (a Lottie file that hides the background).
    public var notes: [String] = []

    /// An opened input of `kind` whose frames are `source`.
    public init(
        source: any FrameSource, kind: any InputKind.Type, timing: InputTiming = .settings, loop: Int? = nil
    ) {
        self.source = source
        self.kind = kind
        self.timing = timing
        self.loop = loop
    }
}

/// Where the times of an input's frames come from.
public enum InputTiming: Equatable, Sendable {
    /// From ``EncodeSettings/timing``; an animated file's frames keep their
    /// own durations unless retimed (``Timeline``).
    case settings
    /// From the input's frame rate (a YUV4MPEG2 stream's header), unless
    /// the settings retime the frames.
    case rate(Rational)
    /// From the input's own clock (a video, a Lottie file): its frames carry
    /// their durations, and a requested rate resamples them by time
    /// (``InputOptions/fps``), so a fixed delay and retiming do not apply.
    case own
}
