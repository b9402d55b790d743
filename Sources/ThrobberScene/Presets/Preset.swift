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
    /// ``ConfigDecoder/maxCanvasPixels`` or a `ring` image is missing; and
    /// throws ``ThrobberError/Kind/usage`` when `--speed` and `--fps` give
    /// a cycle that no frame count fits, naming those options (the config
    /// keys are not the preset's to set).
    public func config(_ options: PresetOptions) throws -> SceneConfig {
        let config = try ConfigDecoder.decode(
            Array(try configText(options).utf8), file: "preset \(name)", baseDirectory: ".")
        try checkTiming(config, options)
        return config
    }

    /// The checks of ``SceneClock/init(config:layers:)`` on the frame
    /// count, with the preset's options as the advice.
    private func checkTiming(_ config: SceneConfig, _ options: PresetOptions) throws {
        guard case .layers(let layers) = config.content else { return }
        let speed = config.timing.speed
        let cycle = try SceneClock.cycle(config: config, layers: layers) / speed
        let fps = config.timing.fps
        let frames = (cycle * fps).roundedHalfUp
        let what = "preset \(name): --speed \(options.speed) makes a cycle of \(cycle) s"
        if frames > Int64(SceneClock.maxFrames) {
            throw ThrobberError(
                .usage,
                "\(what): \(frames) frames at \(fps) fps, over the \(SceneClock.maxFrames) frame limit; raise --speed or lower --fps"
            )
        }
        if frames < 1 {
            throw ThrobberError(.usage, "\(what): less than one frame at \(fps) fps; lower --speed or raise --fps")
        }
        let step = config.timing.step / speed
        let steps = cycle / step
        if SceneClock.hasSteps(layers), Rational(frames) < steps {
            throw ThrobberError(
                .usage,
                "\(what): \(frames) frames at \(fps) fps, too few for its \(steps) steps; use --fps \(Rational(1) / step) or more, or a lower --speed"
            )
        }
    }
}
