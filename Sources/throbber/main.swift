import FoundationEssentials
import Glibc
import ThrobberKit

/// The executable only parses arguments, prints, and maps errors to exit
/// codes; everything else is in ThrobberKit. Each subcommand's options are
/// declared once (`CommandTable`), and errors of all of them end here.
func fail(_ error: ThrobberError, in spec: CommandSpec?) -> Never {
    // A setting's error names the option that gave it (--fps for timing.fps).
    let option = error.field.map { "--" + ($0.rawValue.split(separator: ".").last ?? "") + ": " } ?? ""
    var text = "throbber: error: \(option)\(error.message)\n"
    if error.kind == .usage {
        let see = spec.map { "throbber \($0.name) --help" } ?? "throbber --help"
        text += "Usage: \((spec ?? RootCommand.spec).usage)\n  See '\(see)'.\n"
    }
    StandardError.write(text)
    exit(error.exitCode)
}

signal(SIGPIPE, SIG_IGN)
// Over `ulimit -f`, write() fails with EFBIG, reported (74) naming the
// output, whose temporary file is removed, instead of death by SIGXFSZ.
signal(SIGXFSZ, SIG_IGN)
Interrupts.install()
HeapPolicy.install(.streaming)
let argv = Array(CommandLine.arguments.dropFirst())
var running: CommandSpec? = nil
do {
    switch argv.first {
    case nil, "-h", "--help", "help":
        try StandardOutput.write(HelpText.root(CommandTable.visible))
    case "--version":
        try StandardOutput.write("throbber \(RootCommand.version)\n")
    case let name?:
        guard let command = CommandTable.named(name) else {
            throw ThrobberError(
                .usage,
                "unknown subcommand '\(name)'" + Suggestion.didYouMean(name, among: CommandTable.visible.map(\.name)))
        }
        running = command.spec
        let args = try Arguments(Array(argv.dropFirst()), spec: command.spec)
        if args.flag("help") {
            try StandardOutput.write(HelpText.page(command.spec))
        } else {
            exit(try command.run(args))
        }
    }
} catch let error as ThrobberError {
    fail(error, in: running)
} catch {
    fail(ForeignError.converted(error), in: nil)
}
