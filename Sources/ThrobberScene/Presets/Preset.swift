import Foundation
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// A built-in loader: a config, generated for the given options.
public struct Preset: Sendable {
    public let name: String
    public let summary: String
    let build: @Sendable (PresetOptions) throws -> ConfigJSON

    /// The config as JSON text, options applied.
    public func configText(_ options: PresetOptions) throws -> String {
        try build(options).printed() + "\n"
    }

    /// The config, validated like a file given to `render`. Relative paths
    /// (none unless the user gave some) are resolved from the working folder.
    public func config(_ options: PresetOptions) throws -> SceneConfig {
        try ConfigDecoder.decode(Array(try configText(options).utf8), file: "preset \(name)", baseDirectory: ".")
    }
}
