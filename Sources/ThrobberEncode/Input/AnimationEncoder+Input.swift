import ThrobberCodecs
import ThrobberCore

extension AnimationEncoder {
    /// Encodes `inputs` (frame files and folders, an animated image, `-`
    /// or a named pipe, a video, or a Lottie file: whatever
    /// ``InputRegistry`` recognizes) to `sink`, as `throbber encode` does.
    /// The settings are checked against the format before any input is
    /// opened; the input's own timing, loop and size then make the
    /// ``EncodePlan``. The input's notes are dropped: open it with
    /// ``InputRegistry/open(_:format:settings:options:)`` and encode it
    /// with ``encode(_:options:to:)`` to read them.
    ///
    /// Throws what ``InputRegistry/open(_:format:settings:options:)`` and
    /// ``encode(_:to:)`` throw. The sink is not committed: call
    /// ``OutputFile/commit()`` after.
    public func encode(inputs: [String], options: InputOptions = InputOptions(), to sink: OutputFile) throws
        -> EncodeReport
    {
        try settings.validate(for: format)
        let input = try InputRegistry.open(inputs, format: format, settings: settings, options: options)
        return try encode(input, options: options, to: sink)
    }

    /// Encodes an opened input with the plan made from this encoder's
    /// settings and the input's facts.
    public func encode(_ input: OpenedInput, options: InputOptions, to sink: OutputFile) throws -> EncodeReport {
        let plan = EncodePlan(settings: settings, input: input, format: format, options: options)
        var planned = self
        planned.settings = plan.settings
        planned.fpsResamples = plan.fpsResamples
        return try planned.encode(input.source, to: sink)
    }
}
