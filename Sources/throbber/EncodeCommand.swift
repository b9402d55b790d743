import Foundation
import ThrobberKit

/// `throbber encode DIR|FILE... -o OUT`
enum EncodeCommand {
    static let options: [Arguments.Option] = [
        .init(name: "output", short: "o"), .init(name: "fps"), .init(name: "delay"), .init(name: "duplicate"),
        .init(name: "bounce", takesValue: false), .init(name: "loop"), .init(name: "quality"),
        .init(name: "colors"), .init(name: "dither"), .init(name: "matte"), .init(name: "sort"),
        .init(name: "glob"), .init(name: "jobs"), .init(name: "format"), .init(name: "compression"),
        .init(name: "sha256", takesValue: false),
        .init(name: "quiet", short: "q", takesValue: false), .init(name: "help", short: "h", takesValue: false),
    ]

    static let usage = "throbber encode <DIR|FILE>... -o <OUT.gif> [options]"

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: options)
        if args.flag("help") { print(Help.encode, terminator: ""); return }
        guard !args.positional.isEmpty else { throw ThrobberError(.usage, "no input frames given") }
        guard let output = args.string("output") else { throw ThrobberError(.usage, "no output given; add -o OUT.gif") }
        let format = try OutputFormat.resolve(output: output, format: args.string("format"))
        let compression = try OutputFormat.compression(args)

        var settings = EncodeSettings()
        if let fps = try args.rational("fps") { settings.timing.fps = fps }
        settings.timing.delay = try args.int("delay")
        settings.timing.duplicate = try args.int("duplicate", in: 1...1000) ?? 1
        settings.timing.bounce = args.flag("bounce")
        settings.loop = try args.int("loop", in: 0...65536) ?? 0
        settings.quality = try args.int("quality", in: 1...100)
        settings.colors = try args.int("colors", in: 2...256)
        // Frames of animated inputs keep their own delays unless retimed.
        settings.timing.retime = args.string("fps") != nil || args.string("delay") != nil
        settings.dither = try args.double("dither", in: 0...1) ?? 1
        settings.jobs = try args.int("jobs", in: 1...256) ?? settings.jobs
        if let matte = args.string("matte") {
            guard let color = Color(parsing: matte) else {
                throw ThrobberError(.usage, "--matte expects \(Color.syntaxHelp), got '\(matte)'")
            }
            settings.alpha.matte = color
        }
        try settings.validate(for: format)

        var list = FrameList()
        if let sort = args.string("sort") {
            guard let s = FrameSort(rawValue: sort) else {
                throw ThrobberError(.usage, "--sort must be 'natural' or 'name', got '\(sort)'")
            }
            list.sort = s
        }
        list.glob = args.string("glob")
        let files = try list.files(for: args.positional)

        let source = try FileFrameSource(files: files)
        if args.string("loop") == nil, let loop = source.inputLoop {
            settings.loop = format == .gif ? min(loop, 65536) : min(loop, Int(Int32.max))
        }
        try Output.write(to: output, label: "encoding", quiet: args.flag("quiet"), printHash: args.flag("sha256")) { out, progress in
            switch format {
            case .gif: return try GIFPipeline(settings: settings, progress: progress).encode(source, to: out)
            case .apng: return try APNGPipeline(settings: settings, compression: compression, progress: progress).encode(source, to: out)
            }
        }
    }
}
