import Foundation
import TestSupport
import Testing

/// Every option of `throbber encode`, as the man page names them.
let encodeOptions: [(long: String, short: String?)] = [
    ("output", "o"), ("fps", nil), ("delay", nil), ("duplicate", nil), ("bounce", nil), ("speed", nil),
    ("frames", nil), ("reverse", nil), ("poster-frame", nil), ("width", nil), ("height", nil), ("scale", nil),
    ("fit", nil),
    ("resize-filter", nil), ("crop", nil),
    ("trim", nil), ("trim-margin", nil),
    ("loop", nil), ("quality", nil), ("colors", nil), ("palette", nil), ("dither", nil),
    ("lossy", nil), ("max-bytes", nil), ("allow-reduce", nil),
    ("background", nil), ("matte", nil),
    ("from", nil), ("to", nil), ("sort", nil), ("glob", nil), ("jobs", nil), ("max-memory", nil),
    ("format", nil), ("compression", nil), ("sha256", nil), ("quiet", "q"),
    ("help", "h"),
]

/// The lines of the section `title` (e.g. "OPTIONS:") of a help text.
func helpSection(_ title: String, in text: String) -> [String] {
    let lines = text.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: title) else { return [] }
    return Array(lines[(start + 1)...].prefix { $0.isEmpty || $0.hasPrefix(" ") })
}

/// Long option names (without dashes) that start an entry of an OPTIONS
/// section: entries are indented two spaces, continuation lines more.
func listedOptions(_ section: [String]) -> [String] {
    section.compactMap { line in
        guard line.hasPrefix("  -") else { return nil }
        let tokens = line.split(separator: " ")
        guard let long = tokens.prefix(2).first(where: { $0.hasPrefix("--") }) else { return nil }
        return String(long.dropFirst(2))
    }
}

@Suite("Help and version")
struct HelpTests {
    @Test(
        "throbber --help prints the overview, usage, subcommands and options on stdout and exits 0",
        arguments: [["--help"], ["-h"]])
    func rootHelp(_ args: [String]) throws {
        let r = try Throbber.run(args)
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "stderr: \(r.stderrText)")
        for section in ["OVERVIEW:", "USAGE:", "SUBCOMMANDS:", "OPTIONS:"] {
            #expect(r.stdoutText.contains("\n\(section)") || r.stdoutText.hasPrefix(section), "missing \(section)")
        }
        #expect(
            helpSection("SUBCOMMANDS:", in: r.stdoutText).contains {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("encode ")
            })
        #expect(r.stdoutText.contains("--version"))
    }

    @Test(
        "throbber encode --help prints OVERVIEW, USAGE, ARGUMENTS and OPTIONS on stdout and exits 0",
        arguments: [["encode", "--help"], ["encode", "-h"]])
    func encodeHelp(_ args: [String]) throws {
        let r = try Throbber.run(args)
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "stderr: \(r.stderrText)")
        for section in ["OVERVIEW:", "USAGE:", "ARGUMENTS:", "OPTIONS:"] {
            #expect(r.stdoutText.hasPrefix(section) || r.stdoutText.contains("\n\(section)"), "missing \(section)")
        }
        // "USAGE: throbber encode <DIR|FILE>... -o <OUT.gif> [options]", possibly wrapped.
        let lines = r.stdoutText.components(separatedBy: "\n")
        let start = lines.firstIndex { $0.hasPrefix("USAGE:") }
        #expect(start != nil)
        guard let start else { return }
        let usage = ([lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix(" ") }).joined(separator: " ")
        #expect(usage.contains("throbber encode") && usage.contains(" -o "), "\(usage)")
    }

    @Test("throbber encode --help documents every encode option, each with a description")
    func encodeHelpListsEveryOption() throws {
        let r = try Throbber.run(["encode", "--help"])
        let section = helpSection("OPTIONS:", in: r.stdoutText)
        #expect(Set(listedOptions(section)) == Set(encodeOptions.map(\.long)))
        for option in encodeOptions {
            let index = section.firstIndex {
                $0.contains("--\(option.long)") && $0.trimmingCharacters(in: .whitespaces).hasPrefix("-")
            }
            #expect(index != nil, "--\(option.long) is not listed")
            guard let index else { continue }
            let line = section[index]
            if let short = option.short { #expect(line.contains("-\(short), --\(option.long)"), "\(line)") }
            // Option column, then at least two spaces, then words; an option
            // wider than the column has its words on the next line, indented.
            let next = index + 1 < section.endIndex ? section[index + 1] : ""
            let description =
                line.range(of: #"\S\s{2,}\S+"#, options: .regularExpression)
                ?? next.range(of: #"^\s{6,}[A-Za-z]\S*"#, options: .regularExpression)
            #expect(description != nil, "--\(option.long) has no description: \(line)")
        }
    }

    @Test("throbber --version prints 'throbber X.Y.Z' on stdout and exits 0")
    func version() throws {
        let r = try Throbber.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(
            r.stdoutText.range(of: #"^throbber [0-9]+\.[0-9]+\.[0-9]+\n$"#, options: .regularExpression) != nil,
            "got \(r.stdoutText.debugDescription)")
    }
}

@Suite("Manual page")
struct ManPageTests {
    static let mandoc = URL(fileURLWithPath: "/usr/bin/mandoc")

    static func manPage() throws -> URL {
        guard FileManager.default.fileExists(atPath: Paths.manPage.path) else {
            throw HarnessError("\(Paths.manPage.path) does not exist yet")
        }
        return Paths.manPage
    }

    /// The man page as plain text (overstrike bold/underline removed).
    static func rendered() throws -> String {
        let r = try Command.run(mandoc, ["-Tascii", try manPage().path])
        var text = ""
        for ch in r.stdoutText {
            if ch == "\u{8}" { if !text.isEmpty { text.removeLast() } } else { text.append(ch) }
        }
        return text
    }

    @Test("mandoc -Tlint reports nothing for man/throbber.1")
    func lintClean() throws {
        let r = try Command.run(Self.mandoc, ["-Tlint", try Self.manPage().path])
        #expect(r.status == 0)
        #expect(r.stdoutText + r.stderrText == "", "mandoc -Tlint:\n\(r.stdoutText)\(r.stderrText)")
    }

    @Test("the man page mentions every option that 'throbber encode --help' lists")
    func mentionsEveryHelpOption() throws {
        let help = try Throbber.run(["encode", "--help"]).stdoutText
        let listed = listedOptions(helpSection("OPTIONS:", in: help))
        #expect(listed.count >= encodeOptions.count, "could not read the options from --help")
        let page = try Self.rendered()
        for option in listed {
            #expect(page.contains("--\(option)"), "man page does not mention --\(option)")
        }
    }

    @Test("the man page has the usual sections and lists every exit status")
    func sectionsAndExitStatus() throws {
        let page = try Self.rendered()
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(page.contains("\n\(section)\n"), "no \(section) section")
        }
        for code in ["64", "65", "66", "70", "73", "74"] {
            #expect(
                page.range(of: "\\b\(code)\\b", options: .regularExpression) != nil, "exit status \(code) not mentioned"
            )
        }
    }
}
