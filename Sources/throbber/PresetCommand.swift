import Foundation
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
        guard args.positional.count == 1, let name = args.positional.first else {
            throw ThrobberError(.usage, args.positional.isEmpty ? "no preset name given; 'throbber presets' lists them" : "give one preset name")
        }
        guard let preset = PresetCatalog.named(name) else {
            throw ThrobberError(.usage, "unknown preset '\(name)'; 'throbber presets' lists them")
        }
        var o = PresetOptions()
        o.size = try args.int("size", in: 8...4096)
        o.scale = try args.int("scale", in: 1...16)
        for key in ["color", "background"] {
            guard let text = args.string(key) else { continue }
            guard let color = Color(parsing: text) else { throw ThrobberError(.usage, "--\(key) expects \(Color.syntaxHelp), got '\(text)'") }
            if key == "color" { o.color = color } else { o.background = color }
        }
        if let speed = try args.rational("speed") {
            guard Rational(0) < speed, speed <= Rational(100) else { throw ThrobberError(.usage, "--speed must be greater than 0 and at most 100, got \(speed)") }
            o.speed = speed
        }
        if let fps = try args.rational("fps") {
            guard Rational(0) < fps else { throw ThrobberError(.usage, "--fps must be greater than 0, got \(fps)") }
            o.fps = fps
        }
        if args.string("ring") != nil || args.string("icon") != nil {
            guard name == "ease" else { throw ThrobberError(.usage, "--ring and --icon belong to the 'ease' preset") }
            o.ring = args.string("ring")
            o.icon = args.string("icon")
            for path in [o.ring, o.icon].compactMap({ $0 }) where !FileManager.default.fileExists(atPath: path) {
                throw ThrobberError(.noInput, "\(path): no such file")
            }
        }
        if args.flag("print-config") {
            print(try preset.configText(o), terminator: "")
            return
        }
        let config = try preset.config(o)
        guard args.string("output") != nil else { throw ThrobberError(.usage, "no output given; add -o OUT.gif (or --print-config)") }
        try RenderCommand.write(config, args: args)
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
