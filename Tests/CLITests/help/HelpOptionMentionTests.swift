import Foundation
import TestSupport
import Testing

/// Every `--option` that a subcommand's help text names is one of that
/// subcommand's options, so the text never sends a reader to an option the
/// command does not take. The texts are what a user reads from the real
/// binary: `throbber CMD --help` (overview, usage, option help, notes,
/// examples) and the command's subsection of OPTIONS in `throbber _man`
/// (where each option's details are). A mention belongs to another
/// command only when the word right before it names that command
/// ("encode --crop", "'throbber presets --x'"); then it must be one of that
/// command's options.
@Suite("Options named in help texts")
struct HelpOptionMentionTests {
    /// `--name` mentions in `text`, each with the word before it (quotes and
    /// punctuation stripped).
    static func mentions(in text: String) -> [(option: String, previous: String)] {
        var found: [(String, String)] = []
        for line in text.components(separatedBy: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            for (k, word) in words.enumerated() {
                let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: "'\"`([{,.;:)]}"))
                guard trimmed.hasPrefix("--"),
                    let name = trimmed.dropFirst(2).split(separator: "=").first.map(String.init),
                    name.first?.isLetter == true
                else { continue }
                let cleaned = String(name.prefix { $0.isLetter || $0.isNumber || $0 == "-" })
                let previous =
                    k > 0 ? words[k - 1].trimmingCharacters(in: CharacterSet(charactersIn: "'\"`([{,.;:)]}")) : ""
                found.append((cleaned, previous))
            }
        }
        return found
    }

    /// The text lines (not macros) of the man page's OPTIONS subsection `name`.
    static func manSubsection(_ name: String, in source: String) -> String {
        var inside = false
        var lines: [String] = []
        for line in source.components(separatedBy: "\n") {
            if line.hasPrefix(".Sh ") || line.hasPrefix(".Ss ") {
                inside = line == ".Ss \(name)" && lines.isEmpty
                continue
            }
            if inside, !line.hasPrefix(".") {
                lines.append(line.replacingOccurrences(of: "\\&", with: "").replacingOccurrences(of: "\\e", with: "\\"))
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test("every --option named in a command's --help and man page entry is an option of that command")
    func everyMentionedOptionExists() throws {
        var options: [String: Set<String>] = [:]
        var help: [String: String] = [:]
        for command in ExpectedCLI.subcommands {
            let r = try Throbber.run([command, "--help"])
            #expect(r.status == 0, "\(command) --help: \(r.stderrText)")
            help[command] = r.stdoutText
            options[command] = OptionTable(help: r.stdoutText).names
            #expect(options[command]?.contains("help") == true, "no OPTIONS read from `\(command) --help`")
        }
        let man = try Throbber.run(["_man"])
        #expect(man.status == 0)
        var wrong: [String] = []
        for command in ExpectedCLI.subcommands {
            let texts = [
                ("--help", help[command] ?? ""), ("man page", Self.manSubsection(command, in: man.stdoutText)),
            ]
            for (place, text) in texts {
                for (option, previous) in Self.mentions(in: text) {
                    let owner = ExpectedCLI.subcommands.contains(previous) ? previous : command
                    if options[owner]?.contains(option) != true {
                        wrong.append("\(command) \(place): names --\(option), which '\(owner)' does not take")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) stale mentions:\n\(wrong.joined(separator: "\n"))")
    }

    @Test("the rule reads mentions and the command they belong to")
    func mentionRule() {
        let found = Self.mentions(in: "Play backward (before --duplicate and --bounce); see 'encode --crop=1'.")
        #expect(found.map(\.option) == ["duplicate", "bounce", "crop"])
        #expect(found.map(\.previous) == ["before", "and", "encode"])
    }
}
