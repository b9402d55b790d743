import ThrobberKit

/// `throbber presets`: the built-in loaders, name and description.
enum PresetsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "presets",
        summary: "List the built-in loaders.",
        overview: "List the built-in loaders, one per line: name, then description.",
        usage: "throbber presets",
        options: [.help])

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.isEmpty else { throw ThrobberError(.usage, "'presets' takes no arguments") }
        let width = PresetCatalog.all.map(\.name.count).max() ?? 0
        for p in PresetCatalog.all {
            try StandardOutput.write(
                p.name + String(repeating: " ", count: width - p.name.count + 2) + p.summary + "\n")
        }
        return 0
    }
}
