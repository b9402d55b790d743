import Foundation

/// A sequence of still frames, decoded on demand (so a long animation is
/// never held in memory whole). `frame(at:)` may be called from any thread.
public protocol FrameSource: Sendable {
    var count: Int { get }
    /// A name for messages: the file name, or "frame 3".
    func name(at index: Int) -> String
    func frame(at index: Int) throws -> RGBAImage
    /// How long the frame is shown when its file says so (animations).
    func duration(at index: Int) -> Rational?
}

extension FrameSource {
    public func duration(at index: Int) -> Rational? { nil }
}
