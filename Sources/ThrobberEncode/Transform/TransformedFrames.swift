import Synchronization
import ThrobberCore

/// The frames of `base` cropped and resized as a ``FrameTransform`` says,
/// each when it is asked for (so memory stays flat in the frame count).
public struct TransformedFrames: FrameSource {
    /// The frames before the transform.
    public let base: FrameSource
    /// The crop, size, fit and filter applied (frame picking is not its job).
    public let transform: FrameTransform

    /// Whether a plain resize takes the source's own quicker path where it
    /// has one (``FrameSource/resampledFrame(at:width:height:)``: a video's
    /// Y'CbCr planes): `--compression fast`.
    public let resamplesInSource: Bool

    /// The size of the last input frame read, for the summary line.
    private let seen = SizeNote()

    /// `base` with `transform`'s pixel changes.
    public init(_ base: FrameSource, transform: FrameTransform, resamplesInSource: Bool = false) {
        self.base = base
        self.transform = transform
        self.resamplesInSource = resamplesInSource
    }

    /// The input frame size, once a frame has been read.
    public var inputSize: (width: Int, height: Int)? { seen.size.withLock { $0 } }

    public var count: Int { base.count }
    public func name(at index: Int) -> String { base.name(at: index) }
    public func duration(at index: Int) -> Rational? { base.duration(at: index) }

    /// Frame `index` of `base`, transformed. Throws `base`'s errors, and a
    /// usage error naming the field when the crop leaves the frame.
    public func frame(at index: Int) throws -> RGBAImage {
        if resamplesInSource, transform.filter == .lanczos, let size = base.knownSize(at: index) {
            // A plain resize, by the source's quicker path where it has
            // one (a video's planes, skipping the full-size RGB picture).
            let layout = try transform.layout(inputWidth: size.width, inputHeight: size.height)
            if layout.source == PixelRect(x: 0, y: 0, width: size.width, height: size.height),
                layout.canvasWidth == layout.scaledWidth, layout.canvasHeight == layout.scaledHeight,
                let image = try base.resampledFrame(at: index, width: layout.scaledWidth, height: layout.scaledHeight)
            {
                seen.size.withLock { $0 = (size.width, size.height) }
                return image
            }
        }
        let image = try base.frame(at: index)
        seen.size.withLock { $0 = (image.width, image.height) }
        let layout = try transform.layout(inputWidth: image.width, inputHeight: image.height)
        return try Resampler.apply(layout, to: image, filter: transform.filter)
    }
}

/// A size written from worker threads.
private final class SizeNote: Sendable {
    let size = Mutex<(width: Int, height: Int)?>(nil)
}
