import Foundation
import TestSupport
import Testing

/// A command line that must be refused as a usage error (exit 64).
struct UsageCase: Sendable, CustomTestStringConvertible {
    /// Arguments after `throbber encode IN`; `OUT` is replaced by a .gif path in a temp folder.
    var args: [String]
    /// Words the error line must contain (case-insensitive).
    var mentions: [String]
    var testDescription: String { args.joined(separator: " ") }
}

/// Checks the exact shape of a usage error: exit 64, nothing on stdout, and on
/// stderr `throbber: error: ...`, the usage line and the pointer to --help.
func expectUsageError(
    _ r: CommandResult, command: String?, mentions: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(r.status == 64, "exit status", sourceLocation: sourceLocation)
    #expect(r.stdout.isEmpty, "stdout: \(r.stdoutText)", sourceLocation: sourceLocation)
    let lines = r.stderrLines
    #expect(lines.count == 3, "stderr: \(r.stderrText)", sourceLocation: sourceLocation)
    guard lines.count == 3 else { return }
    #expect(lines[0].hasPrefix("throbber: error: "), "\(lines[0])", sourceLocation: sourceLocation)
    for word in mentions {
        #expect(
            lines[0].lowercased().contains(word.lowercased()), "error does not mention '\(word)': \(lines[0])",
            sourceLocation: sourceLocation)
    }
    let usage = command.map { "throbber \($0) " } ?? "throbber "
    #expect(lines[1].hasPrefix("Usage: \(usage)"), "\(lines[1])", sourceLocation: sourceLocation)
    let help = command.map { "throbber \($0) --help" } ?? "throbber --help"
    #expect(
        lines[2].trimmingCharacters(in: .whitespaces) == "See '\(help)'.", "\(lines[2])", sourceLocation: sourceLocation
    )
}

@Suite("Usage errors exit 64")
struct UsageErrorTests {
    static let cases: [UsageCase] = [
        .init(args: ["-o", "OUT", "--bogus"], mentions: ["--bogus"]),
        .init(args: ["-o", "OUT", "-x"], mentions: ["-x"]),
        .init(args: [], mentions: ["-o"]),
        .init(args: ["-o", "OUT", "--fps", "0"], mentions: ["fps", "0"]),
        .init(args: ["-o", "OUT", "--fps", "-5"], mentions: ["fps"]),
        .init(args: ["-o", "OUT", "--fps", "60"], mentions: ["fps", "60", "browsers", "50"]),
        .init(args: ["-o", "OUT", "--fps", "fast"], mentions: ["fps", "fast"]),
        .init(args: ["-o", "OUT", "--fps"], mentions: ["fps"]),
        .init(args: ["-o", "OUT", "--quality", "0"], mentions: ["quality", "0"]),
        .init(args: ["-o", "OUT", "--quality", "101"], mentions: ["quality", "101"]),
        .init(args: ["-o", "OUT", "--dither", "2"], mentions: ["dither", "2"]),
        .init(args: ["-o", "OUT", "--lossy", "201"], mentions: ["lossy", "201", "200"]),
        .init(args: ["-o", "OUT", "--lossy", "-1"], mentions: ["lossy", "-1"]),
        .init(args: ["-o", "OUT", "--colors", "1"], mentions: ["colors", "1"]),
        .init(args: ["-o", "OUT", "--colors", "300"], mentions: ["colors", "300"]),
        .init(args: ["-o", "OUT", "--loop", "-1"], mentions: ["loop", "-1"]),
        .init(args: ["-o", "OUT", "--sort", "bogus"], mentions: ["sort", "bogus"]),
        .init(args: ["-o", "OUT", "--matte", "nocolor"], mentions: ["matte", "nocolor"]),
        .init(args: ["-o", "OUT", "--delay", "1"], mentions: ["delay", "1"]),
        .init(args: ["-o", "OUT", "--delay", "0"], mentions: ["delay", "0"]),
        .init(args: ["-o", "OUT", "--duplicate", "0"], mentions: ["duplicate", "0"]),
        .init(args: ["-o", "OUT", "--jobs", "0"], mentions: ["jobs", "0"]),
        .init(args: ["-o", "OUT", "--format", "avif"], mentions: ["format", "avif", "gif", "apng", "webp"]),
        .init(args: ["-o", "OUT", "--format", "webp", "--lossy", "40"], mentions: ["lossy", "WebP", "--quality"]),
        .init(args: ["-o", "OUT", "--format", "webp", "--dither", "0"], mentions: ["dither", "WebP", "--quality"]),
        .init(
            args: ["-o", "OUT", "--compression", "ultra"], mentions: ["compression", "ultra", "fast", "best", "max"]),
        .init(args: ["-o", "OUT", "--bounce=yes"], mentions: ["bounce"]),
    ]

    @Test(
        "a bad option or option value is refused with the error, the usage line and the --help pointer",
        arguments: cases)
    func refused(_ c: UsageCase) throws {
        try withTemporaryDirectory { dir in
            try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("in"))
            let out = dir.appendingPathComponent("out.gif")
            let args = ["encode", dir.appendingPathComponent("in").path] + c.args.map { $0 == "OUT" ? out.path : $0 }
            let r = try Throbber.run(args)
            expectUsageError(r, command: "encode", mentions: c.mentions)
            #expect(!FileManager.default.fileExists(atPath: out.path), "a refused command wrote its output")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["in"], "left files behind")
        }
    }

    @Test(
        "an output name whose extension is not .gif, .png, .apng or .webp is refused (exit 64) unless --format says gif",
        arguments: ["out.avif", "out", "out.jpg", "out.gif.tmp"])
    func unknownOutputExtension(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let input = try Pillow.makeFrames(Pillow.distinctFrames(["a.png"]), in: dir.appendingPathComponent("in"))
            let out = dir.appendingPathComponent(name)
            let refused = try Throbber.run(["encode", input[0].path, "-o", out.path])
            expectUsageError(refused, command: "encode", mentions: [name])
            #expect(!FileManager.default.fileExists(atPath: out.path))

            let forced = try Throbber.run(["encode", input[0].path, "-o", out.path, "--format", "gif"])
            #expect(forced.status == 0, "\(forced.stderrText)")
            #expect(try Data(contentsOf: out).prefix(6) == Data("GIF89a".utf8))
        }
    }

    @Test("no input frames is a usage error")
    func noInputs() throws {
        try withTemporaryDirectory { dir in
            let r = try Throbber.run(["encode", "-o", dir.appendingPathComponent("out.gif").path])
            expectUsageError(r, command: "encode", mentions: ["input"])
        }
    }

    @Test("an unknown subcommand is a usage error pointing at 'throbber --help'")
    func unknownSubcommand() throws {
        let r = try Throbber.run(["bogus"])
        expectUsageError(r, command: nil, mentions: ["bogus"])
    }
}
