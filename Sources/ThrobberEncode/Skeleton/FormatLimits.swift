import ThrobberCodecs
import ThrobberCore

/// What a format can express, for validating settings before any work.
public struct FormatLimits: Sendable {
    /// How the format is named in messages ("GIF").
    public var name: String
    /// Allowed fixed delays, in centiseconds.
    public var delays: ClosedRange<Int>
    /// The fastest frame rate the format shows faithfully, if it has one.
    public var maxFPS: Int?
    /// Why short delays are refused, for messages.
    public var delayReason: String?
    /// The largest loop count (plays) the format can store.
    public var maxLoop: Int
    /// The highest lossy LZW level (``EncodeSettings/lossy``); 0 where the
    /// format has no LZW.
    public var maxLossy = 0
    /// Whether frames are dithered without a palette size
    /// (``EncodeSettings/colors``): false where only a palette dithers.
    public var dithersTruecolor = true
    /// What makes files of the format smaller, for the refusal of a
    /// setting it cannot use ("--colors and --quality").
    public var smallerWith = ""
    /// The longest side a frame may have, where the format's is shorter
    /// than ``FrameTransform/maxSide``.
    public var maxSide: Int? = nil

    /// Refuses frames of `size` over ``maxSide``: exit 65, naming the limit.
    public func check(_ size: FrameSize) throws {
        guard let maxSide, size.width > maxSide || size.height > maxSide else { return }
        throw ThrobberError(
            .data,
            "frames of \(size.width)x\(size.height) are over \(name)'s limit of \(maxSide) pixels a side; make them smaller with --width or --height, or write another format"
        )
    }
}
