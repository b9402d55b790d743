import ThrobberCodecs
import ThrobberCore

/// Each format is one `FormatEncoder` type, in a folder of its own,
/// registered here: adding a format means adding its folder, a case in
/// `AnimationFormat` and a line in `encoder`.
extension AnimationFormat {
    /// The type that writes this format.
    var encoder: any FormatEncoder.Type {
        switch self {
        case .gif: GIFEncoder.self
        case .apng: APNGEncoder.self
        case .webp: WebPEncoder.self
        }
    }

    /// What the format can express.
    public var limits: FormatLimits { encoder.limits }

    /// File name extensions (lowercase, without the dot) that mean this format.
    public var fileExtensions: [String] { encoder.fileExtensions }

    /// The format a file name extension means (any case, without the dot).
    public init?(fileExtension: String) {
        let ext = fileExtension.lowercased()
        guard let format = AnimationFormat.allCases.first(where: { $0.fileExtensions.contains(ext) }) else {
            return nil
        }
        self = format
    }
}
