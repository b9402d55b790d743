import ThrobberCore

/// Where the pixels of a frame go: the part of the input kept, the size it
/// is resampled to and where that lands on the output canvas. A pure
/// function of the input size and the ``FrameTransform``, so every frame of
/// an animation gets the same one.
public struct ResizeLayout: Equatable, Sendable {
    /// The part of the input frame kept (the crop, and for `cover` the
    /// overhang cut off).
    public var source: PixelRect
    /// The size `source` is resampled to.
    public var scaledWidth: Int
    /// The size `source` is resampled to.
    public var scaledHeight: Int
    /// The output frame size; larger than the scaled size only for
    /// `contain`, which pads with transparent pixels.
    public var canvasWidth: Int
    /// The output frame size.
    public var canvasHeight: Int
    /// Where the scaled pixels go on the canvas (centered).
    public var offsetX: Int
    /// Where the scaled pixels go on the canvas (centered).
    public var offsetY: Int

    /// True when the output is the input unchanged.
    public func isIdentity(inputWidth: Int, inputHeight: Int) -> Bool {
        source == PixelRect(x: 0, y: 0, width: inputWidth, height: inputHeight)
            && scaledWidth == inputWidth && scaledHeight == inputHeight
            && canvasWidth == scaledWidth && canvasHeight == scaledHeight
    }
}
