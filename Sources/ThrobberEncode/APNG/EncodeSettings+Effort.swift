import ThrobberCodecs

extension EncodeSettings.Compression {
    /// The PNG compressor effort of this choice.
    var effort: PNGCompressor.Effort {
        switch self {
        case .fast: .fast
        case .best: .best
        case .max: .max
        }
    }
}
