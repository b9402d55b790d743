import Foundation
import TestSupport
import Testing

/// The man page is generated from the same option declarations as `--help`
/// (`throbber _man`, `make man`); these tests read both as a user sees them.
@Suite("Man page and help agree")
struct ManPageSyncTests {
    static let commands = [""] + ExpectedCLI.subcommands

    static func committedPage() throws -> String {
        try String(contentsOf: Paths.manPage, encoding: .utf8)
    }

    static func help(_ command: String) throws -> String {
        let r = try Throbber.run(command.isEmpty ? ["--help"] : [command, "--help"])
        guard r.status == 0 else {
            throw HarnessError("throbber \(command) --help exited \(r.status): \(r.stderrText)")
        }
        return r.stdoutText
    }

    @Test("the committed man/throbber.1 is exactly what 'throbber _man' prints (else run 'make man')")
    func committedPageIsGenerated() throws {
        let r = try Throbber.run(["_man"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderrText)")
        let committed = try Self.committedPage()
        guard r.stdoutText != committed else { return }
        let generated = r.stdoutText.components(separatedBy: "\n")
        let old = committed.components(separatedBy: "\n")
        let first =
            zip(generated, old).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(generated.count, old.count)
        Issue.record(
            """
            man/throbber.1 differs from 'throbber _man' from line \(first + 1) on; run 'make man'.
            committed: \(first < old.count ? old[first] : "(end of file)")
            generated: \(first < generated.count ? generated[first] : "(end of file)")
            """)
    }

    @Test(
        "--help and the man page list the same options, with the same short aliases and defaults",
        arguments: commands)
    func sameOptions(_ command: String) throws {
        let help = OptionTable(help: try Self.help(command))
        let man = try #require(
            OptionTable(mdoc: try Self.committedPage(), subsection: command.isEmpty ? nil : command),
            "the man page's OPTIONS has no subsection '\(command)'")
        let expected = try #require(ExpectedCLI.options[command])
        #expect(help.names == expected, "throbber \(command) --help lists\n\(help)")
        #expect(man.names == expected, "the man page's \(command.isEmpty ? "throbber" : command) options are\n\(man)")
        #expect(help == man, "--help:\n\(help)\nman page:\n\(man)")
    }

    @Test("defaults that README.md states are the ones help and the man page state")
    func knownDefaults() throws {
        let page = try Self.committedPage()
        for d in ExpectedCLI.defaults {
            let help = OptionTable(help: try Self.help(d.command))
            let man = try #require(OptionTable(mdoc: page, subsection: d.command))
            for (place, table) in [("--help", help), ("man page", man)] {
                let stated = table.defaults[d.option].flatMap { $0 }
                #expect(
                    stated?.split(separator: ",").first.map(String.init) == d.text,
                    "\(place): \(d.command) --\(d.option) default is \(stated ?? "not stated"), expected \(d.text)")
            }
        }
    }

    @Test("the man page documents every subcommand, the hidden _man is in neither help nor the man page")
    func subcommandsDocumented() throws {
        let page = try Self.committedPage()
        let root = try Self.help("")
        for name in ExpectedCLI.subcommands {
            #expect(page.contains("\n.Cm \(name)\n"), "SYNOPSIS does not name \(name)")
            #expect(page.contains("\n.Ss \(name)\n"), "OPTIONS has no subsection for \(name)")
        }
        #expect(!page.contains("_man"))
        #expect(!root.contains("_man"))
    }
}
