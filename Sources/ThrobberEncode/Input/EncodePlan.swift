import ThrobberCodecs
import ThrobberCore

/// The settings an encode runs with, made from the user's settings and the
/// facts of the opened input; neither is changed.
///
/// - An input with its own clock (``InputTiming/own``) brings its frames'
///   durations: a fixed delay and retiming do not apply, and a byte budget
///   that must drop frames advises a lower `--fps`.
/// - A stream's frame rate (``InputTiming/rate(_:)``) is the frame rate,
///   unless the settings retime the frames.
/// - A single animation's loop count is the loop count, unless the loop
///   was asked for (``InputOptions/keepsInputLoop``), within the format's
///   limit.
/// - A resize the input did on load (``OpenedInput/resizedOnLoad``) is not
///   done again.
public struct EncodePlan: Sendable {
    /// What the encoder runs with.
    public let settings: EncodeSettings
    /// Whether `--fps` picks the input's frames by time (``AnimationEncoder/fpsResamples``).
    public let fpsResamples: Bool

    /// The plan for encoding `input` to `format`, asked with `settings`
    /// and `options`.
    public init(settings: EncodeSettings, input: OpenedInput, format: AnimationFormat, options: InputOptions) {
        var planned = settings
        switch input.timing {
        case .settings: break
        case .rate(let rate):
            if !settings.timing.retime { planned.timing.fps = rate }
        case .own:
            planned.timing.delay = nil
            planned.timing.retime = false
        }
        if options.keepsInputLoop, let loop = input.loop {
            planned.loop = min(loop, format.limits.maxLoop)
        }
        if input.resizedOnLoad {
            (planned.transform.width, planned.transform.height, planned.transform.scale) = (nil, nil, nil)
        }
        self.settings = planned
        fpsResamples = input.timing == .own
    }
}
