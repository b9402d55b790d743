import ThrobberKit

/// `throbber preset NAME [...]` and `throbber presets`.
enum PresetCommand {
    static let options: [Arguments.Option] = [
        .init(name: "output", short: "o"), .init(name: "size"), .init(name: "color"), .init(name: "background"),
        .init(name: "speed"), .init(name: "fps"), .init(name: "scale"), .init(name: "format"), .init(name: "compression"),
        .init(name: "ring"), .init(name: "icon"), .init(name: "print-config", takesValue: false),
        .init(name: "jobs"), .init(name: "sha256", takesValue: false), .init(name: "quiet", short: "q", takesValue: false),
        .init(name: "help", short: "h", takesValue: false),
    ]
    static let usage = "throbber preset <NAME> [-o <OUT.gif>] [--size PX] [--color C] [options]"

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: options)
        if args.flag("help") { print(Help.preset, terminator: ""); return }
        try PresetRequest(args, base: .working).run()
    }

    static func list(_ argv: [String]) throws {
        let args = try Arguments(argv, options: [.init(name: "help", short: "h", takesValue: false)])
        if args.flag("help") { print(Help.presets, terminator: ""); return }
        guard args.positional.isEmpty else { throw ThrobberError(.usage, "'presets' takes no arguments") }
        let width = PresetCatalog.all.map(\.name.count).max() ?? 0
        for p in PresetCatalog.all {
            print(p.name + String(repeating: " ", count: width - p.name.count + 2) + p.summary)
        }
    }
}
