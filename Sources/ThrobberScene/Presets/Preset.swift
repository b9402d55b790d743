import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// A built-in loader: a config, generated for the given options.
public struct Preset: Sendable {
    /// The name `throbber preset` takes, such as `dots`.
    public let name: String
    /// One line on what it looks like, as `throbber presets` prints it.
    public let summary: String
    let build: @Sendable (PresetOptions) throws -> ConfigJSON

    /// The config as JSON text, options applied: what
    /// `throbber preset NAME --print-config` prints.
    public func configText(_ options: PresetOptions) throws -> String {
        try build(options).printed() + "\n"
    }

    /// The config, validated like a file given to `render`. Relative paths
    /// (none unless the user gave some) are resolved from the working folder.
    /// Throws as ``ConfigDecoder/load(file:)`` does, for example when the
    /// size asked for makes a canvas larger than
    /// ``ConfigDecoder/maxCanvasPixels`` or a `ring` image is missing.
    public func config(_ options: PresetOptions) throws -> SceneConfig {
        try ConfigDecoder.decode(Array(try configText(options).utf8), file: "preset \(name)", baseDirectory: ".")
    }
}
