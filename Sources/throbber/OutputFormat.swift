import Foundation
import ThrobberKit

/// Output formats, chosen by --format or the file extension.
enum OutputFormat {
    /// `--format` if given, else the extension: .gif, .png or .apng;
    /// standard output defaults to GIF.
    static func resolve(output: String, format: String?) throws -> AnimationFormat {
        if let format {
            guard let f = AnimationFormat(rawValue: format) else {
                throw ThrobberError(.usage, "--format must be 'gif' or 'apng', got '\(format)'")
            }
            return f
        }
        if output == "-" { return .gif }
        switch (output as NSString).pathExtension.lowercased() {
        case "gif": return .gif
        case "png", "apng": return .apng
        case let ext:
            throw ThrobberError(.usage, "\(output): cannot tell the format from the extension '.\(ext)'; name the file .gif, .png or .apng, or pass --format gif|apng")
        }
    }

    static func compression(_ args: Arguments) throws -> PNGCompressor.Effort {
        guard let text = args.string("compression") else { return .best }
        guard let effort = PNGCompressor.Effort(rawValue: text), effort != .trial else {
            throw ThrobberError(.usage, "--compression must be 'fast' or 'best', got '\(text)'")
        }
        return effort
    }
}
