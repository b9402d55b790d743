import FoundationEssentials
import Glibc

/// Frames already in memory (tests, generated scenes).
public struct MemoryFrameSource: FrameSource {
    /// The frames in display order; all must have the same size.
    public let frames: [RGBAImage]

    /// Serves `frames` as they are, in order.
    public init(_ frames: [RGBAImage]) { self.frames = frames }

    /// The number of frames in ``frames``.
    public var count: Int { frames.count }
    /// "frame 3": the frame's 1-based number, for messages.
    public func name(at index: Int) -> String { "frame \(index + 1)" }
    /// `frames[index]`; never throws.
    public func frame(at index: Int) throws -> RGBAImage { frames[index] }
}
