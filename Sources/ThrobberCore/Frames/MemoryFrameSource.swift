import Foundation

/// Frames already in memory (tests, generated scenes).
public struct MemoryFrameSource: FrameSource {
    public let frames: [RGBAImage]

    public init(_ frames: [RGBAImage]) { self.frames = frames }

    public var count: Int { frames.count }
    public func name(at index: Int) -> String { "frame \(index)" }
    public func frame(at index: Int) throws -> RGBAImage { frames[index] }
}
