/// A sequence of still frames, decoded on demand (so a long animation is
/// never held in memory whole). `frame(at:)` may be called from any thread.
public protocol FrameSource: Sendable {
    var count: Int { get }
    /// A name for messages: the file name, or "frame 3".
    func name(at index: Int) -> String
    func frame(at index: Int) throws -> RGBAImage
}

/// Frames read from image files.
public struct FileFrameSource: FrameSource {
    public let files: [String]
    /// Composited under every frame (a frames config's canvas background).
    public let background: Color

    public init(files: [String], background: Color = .transparent) {
        self.files = files
        self.background = background
    }

    public var count: Int { files.count }
    public func name(at index: Int) -> String { files[index] }
    public func frame(at index: Int) throws -> RGBAImage {
        var image = try ImageDecoder.decode(fileAt: files[index])
        if background.a > 0 {
            var canvas = RGBAImage(width: image.width, height: image.height, fill: background)
            canvas.draw(image, at: 0, 0, over: true)
            image = canvas
        }
        return image
    }
}

/// Frames already in memory (tests, generated scenes).
public struct MemoryFrameSource: FrameSource {
    public let frames: [RGBAImage]

    public init(_ frames: [RGBAImage]) { self.frames = frames }

    public var count: Int { frames.count }
    public func name(at index: Int) -> String { "frame \(index)" }
    public func frame(at index: Int) throws -> RGBAImage { frames[index] }
}
