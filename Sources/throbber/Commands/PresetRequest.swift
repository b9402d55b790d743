import FoundationEssentials
import Glibc
import ThrobberKit

/// What a preset asks for — from `throbber preset` or a manifest's preset
/// entry — with --ring and --icon resolved against the base folder.
struct PresetRequest {
    enum Action {
        /// --print-config: the config JSON on standard output.
        case printConfig
        case render(SceneOutput)
    }

    var preset: Preset
    var options: PresetOptions
    var action: Action

    /// The request `args` make; relative paths are resolved against `base`.
    init(_ args: Arguments, base: BaseFolder) throws {
        guard args.positional.count == 1, let name = args.positional.first else {
            throw ThrobberError(
                .usage,
                args.positional.isEmpty
                    ? "no preset name given; 'throbber presets' lists them"
                    : "give one preset name" + OutputHint.suggestion(args, command: "preset", vector: true)
            )
        }
        guard let preset = PresetCatalog.named(name) else {
            throw ThrobberError(
                .usage,
                "unknown preset '\(name)'; 'throbber presets' lists them"
                    + Suggestion.didYouMean(name, among: PresetCatalog.all.map(\.name)))
        }
        self.preset = preset
        let o = try Self.options(args, preset: name, base: base)
        options = o
        if args.flag("print-config") {
            // The printed config is the preset's design; encoding options would be silently lost.
            let output = OptionSpec.output().map(\.long).filter { !PresetCommand.own.contains($0) && args.flag($0) }
            if let first = output.first {
                throw ThrobberError(
                    .usage,
                    "--\(first) is an output option; --print-config prints the preset's design only (render the printed config with 'render --\(first)')"
                )
            }
            action = .printConfig
        } else {
            guard args.string("output") != nil else {
                throw ThrobberError(.usage, "no output given; add -o OUT.gif (or --print-config)")
            }
            let output = try SceneOutput(args, base: base, own: PresetCommand.own)
            try output.refuseInputs([o.ring, o.icon].compactMap { $0 })
            action = .render(output)
        }
    }

    /// The preset options `args` give for the preset `name`; --ring and
    /// --icon resolved against `base` and checked to exist.
    private static func options(_ args: Arguments, preset name: String, base: BaseFolder) throws -> PresetOptions {
        var o = PresetOptions()
        o.size = try args.int("size", in: 8...4096)
        o.scale = try args.int("scale", in: 1...16)
        for key in ["color", "dark-color", "background"] {
            guard let text = args.string(key) else { continue }
            guard let color = Color(parsing: text) else {
                throw Arguments.badColor(key, text)
            }
            switch key {
            case "color": o.color = color
            case "dark-color": o.darkColor = color
            default: o.background = color
            }
        }
        if let speed = try args.rational("speed") {
            guard Rational(0) < speed, speed <= ConfigDecoder.maxSpeed, speed.denominator <= 1000 else {
                throw ThrobberError(
                    .usage, "--speed must be greater than 0 and at most 100, with at most 3 decimals, got \(speed)")
            }
            o.speed = speed
        }
        if let fps = try args.rational("fps") {
            guard Rational(0) < fps else { throw ThrobberError(.usage, "--fps must be greater than 0, got \(fps)") }
            o.fps = fps
        }
        if args.string("ring") != nil || args.string("icon") != nil {
            guard name == "ease" else { throw ThrobberError(.usage, "--ring and --icon belong to the 'ease' preset") }
            o.ring = args.string("ring").map(base.resolve)
            o.icon = args.string("icon").map(base.resolve)
            for path in [o.ring, o.icon].compactMap({ $0 }) where !FileManager.default.fileExists(atPath: path) {
                throw ThrobberError(.noInput, "\(path): no such file")
            }
        }
        return o
    }

    /// Prints the config or renders it, as asked.
    func run() throws {
        switch action {
        case .printConfig: try StandardOutput.write(try preset.configText(options))
        case .render(let output): try output.write(try preset.config(options))
        }
    }
}
