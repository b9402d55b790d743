import Foundation
import ThrobberKit

/// The executable only parses arguments, prints, and maps errors to exit
/// codes; everything else is in ThrobberKit.
func fail(_ error: ThrobberError, usage: String?, command: String?) -> Never {
    // A setting's error names the flag that gave it (its last path part).
    let flag = error.field.map { "--" + ($0.rawValue.split(separator: ".").last ?? "") + ": " } ?? ""
    var text = "throbber: error: \(flag)\(error.message)\n"
    if error.kind == .usage, let usage {
        text += "Usage: \(usage)\n  See 'throbber\(command.map { " " + $0 } ?? "") --help'.\n"
    }
    FileHandle.standardError.write(Data(text.utf8))
    exit(error.exitCode)
}

signal(SIGPIPE, SIG_IGN)
keepLargeBlocksOutOfTheHeap()
var argv = Array(CommandLine.arguments.dropFirst())
guard let command = argv.first else {
    print(Help.root, terminator: "")
    exit(0)
}
argv.removeFirst()
do {
    switch command {
    case "-h", "--help", "help":
        print(Help.root, terminator: "")
    case "--version":
        print("throbber \(Help.version)")
    case "encode":
        do { try EncodeCommand.run(argv) } catch let e as ThrobberError { fail(e, usage: EncodeCommand.usage, command: "encode") }
    case "render":
        do { try RenderCommand.run(argv) } catch let e as ThrobberError { fail(e, usage: RenderCommand.usage, command: "render") }
    case "preset":
        do { try PresetCommand.run(argv) } catch let e as ThrobberError { fail(e, usage: PresetCommand.usage, command: "preset") }
    case "presets":
        do { try PresetCommand.list(argv) } catch let e as ThrobberError { fail(e, usage: "throbber presets", command: "presets") }
    case "gallery":
        do { try GalleryCommand.run(argv) } catch let e as ThrobberError { fail(e, usage: GalleryCommand.usage, command: "gallery") }
    case "info":
        do { try InfoCommand.run(argv) } catch let e as ThrobberError { fail(e, usage: InfoCommand.usage, command: "info") }
    case "check":
        do { exit(try CheckCommand.run(argv)) } catch let e as ThrobberError { fail(e, usage: CheckCommand.usage, command: "check") }
    default:
        throw ThrobberError(.usage, "unknown subcommand '\(command)'")
    }
} catch let error as ThrobberError {
    fail(error, usage: "throbber <subcommand> [options]", command: nil)
} catch {
    fail(ThrobberError(.software, "\(error)"), usage: nil, command: nil)
}

/// Frames stream through the encoder in blocks of the same few sizes, from
/// several threads. glibc serves blocks that large from its heaps once the
/// first has been freed (its mmap threshold adapts upwards), and those heaps
/// then fragment: peak memory crept up with the number of frames (150 frames
/// of 640x360: 48–55 MB, 600: 59–68 MB). A fixed threshold of 512 KiB maps
/// and unmaps each such block instead, so memory stays flat (47–52 MB for
/// both) for 5–20 % more time (docs/benchmarks.md). `mallopt` is called
/// through dlsym because Swift's Glibc module leaves out <malloc.h>.
func keepLargeBlocksOutOfTheHeap() {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    let M_MMAP_THRESHOLD: Int32 = -3
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
    _ = unsafeBitCast(symbol, to: Mallopt.self)(M_MMAP_THRESHOLD, 512 << 10)
}
