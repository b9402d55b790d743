import FoundationEssentials
import Glibc

/// A sequence of still frames, decoded on demand (so a long animation is
/// never held in memory whole). `frame(at:)` may be called from any thread.
public protocol FrameSource: Sendable {
    /// How many frames there are; indices run from 0 to `count - 1`.
    var count: Int { get }
    /// A name for messages: the file name, or "frame 3" (frame numbers in
    /// messages are 1-based, `index + 1`, as `--frames` counts).
    func name(at index: Int) -> String
    /// Decodes or draws frame `index`. Called from worker threads, possibly
    /// more than once for the same frame; every frame must have the size of
    /// the first. Throws a ``ThrobberError`` naming the frame when it
    /// cannot be made.
    func frame(at index: Int) throws -> RGBAImage
    /// How long the frame is shown when its file says so (animations).
    func duration(at index: Int) -> Rational?
    /// The size frame `index` will have, when it is known without decoding
    /// pixels (from a file's header, a config's canvas); nil when only
    /// decoding tells. Lets a run check sizes and its memory before any
    /// frame is decoded.
    func knownSize(at index: Int) -> FrameSize?
    /// Bytes the source holds already, whatever frames are asked for
    /// (animations decoded whole), counted in the run's memory budget.
    var residentBytes: Int { get }
    /// Frame `index` resized to `width`×`height` with Lanczos-3 by a
    /// quicker path of the source's own, from its native samples (a
    /// video's Y'CbCr planes), which may differ slightly from resizing
    /// ``frame(at:)``; nil when the source has none for this frame and
    /// size. Used under `--compression fast`.
    func resampledFrame(at index: Int, width: Int, height: Int) throws -> RGBAImage?
}

extension FrameSource {
    public func duration(at index: Int) -> Rational? { nil }
    public func knownSize(at index: Int) -> FrameSize? { nil }
    public var residentBytes: Int { 0 }
    public func resampledFrame(at index: Int, width: Int, height: Int) throws -> RGBAImage? { nil }
}
