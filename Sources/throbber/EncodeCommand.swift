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

        var settings = EncodeSettings()
        if let fps = try args.rational("fps") { settings.timing.fps = fps }
        settings.timing.delay = try args.int("delay")
        settings.timing.duplicate = try args.int("duplicate", in: 1...1000) ?? 1
        settings.timing.bounce = args.flag("bounce")
        settings.loop = try args.int("loop") ?? 0
        settings.quality = try args.int("quality", in: 1...100)
        settings.colors = try args.int("colors", in: 2...256)
        // Frames of animated inputs keep their own delays unless retimed.
        settings.timing.retime = args.string("fps") != nil || args.string("delay") != nil
        settings.dither = try args.double("dither", in: 0...1) ?? 1
        settings.jobs = try args.int("jobs", in: 1...256) ?? settings.jobs
        settings.compression = try OutputFormat.compression(args)
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
            settings.loop = min(loop, format.limits.maxLoop)
        }
        try Output.write(to: output, label: "encoding", quiet: args.flag("quiet"), printHash: args.flag("sha256")) { out, progress in
            try AnimationEncoder(format: format, settings: settings, progress: progress).encode(source, to: out)
        }
    }
}

/// Writing one output file with a progress bar and a summary line.
enum Output {
    /// Makes `path` a folder (with its parents) unless it is one already.
    static func makeFolder(_ path: String) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw ThrobberError(.cannotCreate, "\(path): exists and is not a folder") }
            return
        }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw ThrobberError(.cannotCreate, "\(path): cannot create the folder")
        }
    }

    /// With `printHash`, prints "SHA256  PATH" when done (to stdout, or to
    /// stderr when the animation itself went to stdout).
    static func write(to path: String, label: String, quiet: Bool, printHash: Bool = false,
                      _ body: (OutputFile, @escaping (Int, Int) -> Void) throws -> EncodeReport) throws {
        let bar = ProgressBar(label: label, quiet: quiet)
        let out = try OutputFile(path: path, hashing: printHash)
        do {
            let report = try body(out, bar.update)
            try out.commit()
            bar.finish()
            if printHash, let hash = out.sha256 {
                let line = "\(hash)  \(path)\n"
                if path == "-" { FileHandle.standardError.write(Data(line.utf8)) } else { print(line, terminator: "") }
            }
            if !quiet && isatty(2) == 1 && path != "-" {
                let seconds = String(format: "%.2f", Double(report.durationCentiseconds) / 100)
                FileHandle.standardError.write(Data("wrote \(path): \(report.width)x\(report.height), \(report.frames) frames, \(seconds) s, \(out.bytesWritten) bytes (\(report.palette))\n".utf8))
            }
        } catch {
            bar.finish()
            out.discard()
            throw error
        }
    }
}

/// Output formats, chosen by --format or the file extension.
enum OutputFormat {
    /// `--format` if given, else the extension (each format names its own);
    /// standard output defaults to GIF.
    static func resolve(output: String, format: String?) throws -> AnimationFormat {
        let names = AnimationFormat.allCases.map(\.rawValue)
        if let format {
            guard let f = AnimationFormat(rawValue: format) else {
                throw ThrobberError(.usage, "--format must be \(names.map { "'\($0)'" }.joined(separator: " or ")), got '\(format)'")
            }
            return f
        }
        if output == "-" { return .gif }
        let ext = (output as NSString).pathExtension
        guard let f = AnimationFormat(fileExtension: ext) else {
            let known = AnimationFormat.allCases.flatMap(\.fileExtensions).map { "." + $0 }
            throw ThrobberError(.usage, "\(output): cannot tell the format from the extension '.\(ext.lowercased())'; name the file \(known.dropLast().joined(separator: ", ")) or \(known.last ?? ""), or pass --format \(names.joined(separator: "|"))")
        }
        return f
    }

    static func compression(_ args: Arguments) throws -> EncodeSettings.Compression {
        guard let text = args.string("compression") else { return .best }
        guard let effort = EncodeSettings.Compression(rawValue: text) else {
            throw ThrobberError(.usage, "--compression must be 'fast' or 'best', got '\(text)'")
        }
        return effort
    }
}
