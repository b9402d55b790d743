import ThrobberKit

/// What a config's scene is written as: frames in a raster format, or a
/// vector file that draws the scene itself.
enum SceneFormat: Equatable {
    case raster(AnimationFormat)
    case vector(VectorFormat)

    /// The vector format, or nil for frames.
    var vector: VectorFormat? {
        if case .vector(let v) = self { v } else { nil }
    }
}

extension VectorFormat {
    /// The format's name in messages and summaries.
    var name: String {
        switch self {
        case .lottie: "Lottie"
        case .dotLottie: "dotLottie"
        case .svg: "SVG"
        }
    }
}
