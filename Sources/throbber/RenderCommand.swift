import Foundation
import ThrobberKit

/// `throbber render CONFIG.json [-o OUT]`
enum RenderCommand {
    static let options: [Arguments.Option] = [
        .init(name: "output", short: "o"), .init(name: "format"), .init(name: "compression"), .init(name: "jobs"),
        .init(name: "sha256", takesValue: false),
        .init(name: "quiet", short: "q", takesValue: false), .init(name: "help", short: "h", takesValue: false),
    ]
    static let usage = "throbber render <CONFIG.json> [-o <OUT.gif>] [options]"

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: options)
        if args.flag("help") { print(Help.render, terminator: ""); return }
        guard args.positional.count == 1, let file = args.positional.first else {
            throw ThrobberError(.usage, args.positional.isEmpty ? "no config file given" : "give one config file, got \(args.positional.count)")
        }
        let config = try ConfigDecoder.load(file: file)
        try write(config, args: args)
    }

    /// Encodes a config to `-o` or to every entry of its `output` list.
    static func write(_ config: SceneConfig, args: Arguments) throws {
        var targets: [(path: String, format: String?)] = config.outputs.map { ($0.path, $0.format) }
        if let o = args.string("output") { targets = [(o, args.string("format"))] }
        guard !targets.isEmpty else {
            throw ThrobberError(.usage, "no output: give -o OUT.gif or an \"output\" list in \(config.file)")
        }
        let formats = try targets.map { try OutputFormat.resolve(output: $0.path, format: $0.format) }
        let compression = try OutputFormat.compression(args)
        let job = try SceneJob(config: config, jobs: try args.int("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount)
        for (t, format) in zip(targets, formats) {
            try Output.write(to: t.path, label: "rendering", quiet: args.flag("quiet"), printHash: args.flag("sha256")) { out, progress in
                try job.encode(to: out, format: format, compression: compression, progress: progress)
            }
        }
    }
}
