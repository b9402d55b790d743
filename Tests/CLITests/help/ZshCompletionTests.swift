import Foundation
import TestSupport
import Testing

/// zsh completes only inside its line editor, so this runs a real
/// interactive zsh in a pseudo-terminal (zsh/zpty), with the script
/// autoloaded from $fpath as `make install` puts it, types each command line
/// and a TAB, and records what the completion system offers (a `compadd`
/// wrapper writes the matches to a file).
@Suite("Shell completions: zsh in a terminal")
struct ZshCompletionTests {
    static let driver = #"""
        # zsh -f driver.zsh FPATH_DIR OUT 'line' ...: for each line, what zsh's completion offers
        zmodload zsh/zpty || exit 3
        dir=$1 out=$2
        shift 2
        : > $out
        for line in "$@"; do
            part=$out.part
            : > $part
            zpty capture zsh -f -i
            zpty -w capture "fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -D"
            zpty -w capture "compadd() { if (( \${@[(I)-[OAD]]} )); then builtin compadd \"\$@\"; return; fi; local -a m; builtin compadd -O m \"\$@\"; print -rl -- \$m >> ${(q)part}; builtin compadd \"\$@\"; }"
            zpty -w capture "_capture_done() { print -r -- --done-- >> ${(q)part}; }; comppostfuncs=(_capture_done)"
            zpty -w -n capture "$line"$'\t'
            for i in {1..200}; do
                [[ -s $part && $(<$part) == *--done--* ]] && break
                sleep 0.1
            done
            zpty -d capture
            print -r -- ${(j: :)${(@)${(f)"$(<$part)"}:#(--done--|)}} >> $out
        done
        rm -f $out.part
        """#

    /// What zsh offers for each line, in order.
    static func complete(_ lines: [String], in dir: URL) throws -> [[String]] {
        let zsh = try Shells.require("zsh")
        let functions = dir.appendingPathComponent("functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        _ = try Shells.script("zsh", named: "functions/_throbber", in: dir)
        let driver = dir.appendingPathComponent("driver.zsh")
        try Data(Self.driver.utf8).write(to: driver)
        let out = dir.appendingPathComponent("offered")
        let r = try Shells.run(zsh, ["-f", driver.path, functions.path, out.path] + lines, in: dir)
        guard r.status == 0 else { throw HarnessError("zsh driver exited \(r.status): \(r.stderrText)") }
        let offered = try String(contentsOf: out, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).dropLast()
        guard offered.count == lines.count else {
            throw HarnessError("zsh offered \(offered.count) lines for \(lines.count): \(offered)")
        }
        return offered.map { $0.split(separator: " ").map(String.init) }
    }

    @Test("zsh completes subcommands, preset names, option names and fixed values", .needsShell("zsh"))
    func offers() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let got = try Self.complete(
                [
                    "throbber ", "throbber preset ", "throbber encode --format ", "throbber preset --",
                    "throbber completions ", "throbber encode --sort=",
                ], in: dir)
            #expect(got[0] == ExpectedCLI.subcommands, "\(got[0])")
            #expect(got[1] == (try ExpectedCLI.presetNames()), "\(got[1])")
            #expect(got[2] == ["gif", "apng", "webp"], "\(got[2])")
            #expect(Set(got[3]) == Set(ExpectedCLI.options["preset"]!.map { "--" + $0 }), "\(got[3])")
            #expect(got[4] == ["bash", "zsh", "fish"], "\(got[4])")
            #expect(got[5] == ["natural", "name"], "\(got[5])")
        }
    }
}
