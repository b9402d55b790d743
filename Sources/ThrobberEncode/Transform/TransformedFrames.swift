import Synchronization
import ThrobberCore

/// The frames of `base` cropped and resized as a ``FrameTransform`` says,
/// each when it is asked for (so memory stays flat in the frame count).
public struct TransformedFrames: FrameSource {
    /// The frames before the transform.
    public let base: FrameSource
    /// The crop, size, fit and filter applied (frame picking is not its job).
    public let transform: FrameTransform

    /// The size of the last input frame read, for the summary line.
    private let seen = SizeNote()

    /// `base` with `transform`'s pixel changes.
    public init(_ base: FrameSource, transform: FrameTransform) {
        self.base = base
        self.transform = transform
    }

    /// The input frame size, once a frame has been read.
    public var inputSize: (width: Int, height: Int)? { seen.size.withLock { $0 } }

    public var count: Int { base.count }
    public func name(at index: Int) -> String { base.name(at: index) }
    public func duration(at index: Int) -> Rational? { base.duration(at: index) }

    /// Frame `index` of `base`, transformed. Throws `base`'s errors, and a
    /// usage error naming the field when the crop leaves the frame.
    public func frame(at index: Int) throws -> RGBAImage {
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
