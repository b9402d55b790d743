import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// An image layer's picture, decoded once.
public struct SceneImage: Sendable {
    /// The image file, resolved against the config's folder.
    public var path: String
    /// Its pixels, decoded when the config was read.
    public var image: RGBAImage
    /// Pixels per point, from an `@2x` / `@3x` name.
    public var pixelScale: Int
}
