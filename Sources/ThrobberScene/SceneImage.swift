import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// An image layer's picture, decoded once.
public struct SceneImage: Sendable {
    public var path: String
    public var image: RGBAImage
    /// Pixels per point, from an `@2x` / `@3x` name.
    public var pixelScale: Int
}
