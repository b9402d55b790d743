import ThrobberCore

extension DecodedAnimation {
    /// The number of layers when the animation is a still built up in
    /// layers; nil when it is an animation to watch.
    ///
    /// It is a layered still when it plays once and every frame but the
    /// last has a delay of 0: a "true-color GIF" that paints more than 256
    /// colors over several frames. GIF89a (and gifsicle, ImageMagick) take
    /// a delay of 0 as no wait, so the picture meant is the last composited
    /// frame; browsers show delays under 2 centiseconds as 10, so they
    /// reveal the layers over a tenth of a second each instead. Two frames
    /// at least; the last frame's own delay does not matter, as nothing
    /// follows it.
    public static func layers(durations: [Rational], loop: Int) -> Int? {
        guard loop == 1, durations.count >= 2, durations.dropLast().allSatisfy({ $0 == Rational(0) }) else {
            return nil
        }
        return durations.count
    }

    /// ``layers(durations:loop:)`` of this animation.
    public var layeredStill: Int? { Self.layers(durations: durations, loop: loop) }
}

extension FileFrameSource {
    /// The number of layers when the input is a single animation that is a
    /// still built up in layers (``DecodedAnimation/layers(durations:loop:)``);
    /// nil otherwise.
    public var inputLayers: Int? {
        guard files.count == 1, count >= 2, let loop = inputLoop else { return nil }
        return DecodedAnimation.layers(durations: (0..<count).map { duration(at: $0) ?? Rational(1) }, loop: loop)
    }
}
