import Foundation
import TestSupport
import Testing

/// `throbber completions bash|zsh|fish`: each script loads in its shell and
/// offers the subcommands, options, fixed values and preset names.
@Suite("Shell completions")
struct CompletionTests {
    /// Completions bash offers for a command line (`words`, the last one
    /// being completed), by calling the script's function as bash would.
    static func bashCompletions(_ script: URL, _ lines: [[String]], in dir: URL) throws -> [[String]] {
        var program = "source \"$1\" || exit 9\n"
        for words in lines {
            let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
                separator: " ")
            program += """
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                COMPREPLY=(); _throbber throbber "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                echo "${COMPREPLY[*]}"

                """
        }
        let r = try Shells.run(
            try Shells.require("bash"), ["--norc", "--noprofile", "-c", program, "bash", script.path], in: dir)
        guard r.status == 0, r.stderr.isEmpty else { throw HarnessError("bash exited \(r.status): \(r.stderrText)") }
        let out = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard out.count == lines.count else {
            throw HarnessError("bash printed \(out.count) lines for \(lines.count): \(r.stdoutText)")
        }
        return out.map { $0.split(separator: " ").map(String.init) }
    }

    @Test(
        "bash: the script parses, and completes subcommands, preset names, option names and values",
        .needsShell("bash"))
    func bash() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let script = try Shells.script("bash", named: "throbber.bash", in: dir)
            let syntax = try Shells.run(try Shells.require("bash"), ["-n", script.path], in: dir)
            #expect(syntax.status == 0 && syntax.stderr.isEmpty, "bash -n: \(syntax.stderrText)")
            let presets = try ExpectedCLI.presetNames()
            let got = try Self.bashCompletions(
                script,
                [
                    ["throbber", ""], ["throbber", "pre"], ["throbber", "preset", ""],
                    ["throbber", "preset", "dots", "--"],
                    ["throbber", "encode", "--format", ""], ["throbber", "encode", "--compression", ""],
                    ["throbber", "encode", "--sort", ""], ["throbber", "encode", "--format", "=", "a"],
                    ["throbber", "encode", "--"], ["throbber", "completions", ""], ["throbber", "encode", "--fps", ""],
                ], in: dir)
            #expect(Set(got[0]) == Set(ExpectedCLI.subcommands + ["-h", "--help", "--version"]), "\(got[0])")
            #expect(got[1] == ["preset", "presets"], "\(got[1])")
            #expect(got[2] == presets, "\(got[2])")
            #expect(Set(got[3]) == Set(ExpectedCLI.options["preset"]!.map { "--" + $0 }), "\(got[3])")
            #expect(
                got[4] == ["gif", "apng", "webp"] && got[5] == ["fast", "best", "max"]
                    && got[6] == ["natural", "name"],
                "\(got[4...6])")
            #expect(got[7] == ["apng"], "--format=a: \(got[7])")
            #expect(Set(got[8]) == Set(ExpectedCLI.options["encode"]!.map { "--" + $0 }), "\(got[8])")
            #expect(got[9] == ["bash", "zsh", "fish"], "\(got[9])")
            #expect(got[10].isEmpty, "--fps takes a number, nothing to offer: \(got[10])")
        }
    }

    @Test("bash: file arguments complete file names, folder arguments folders", .needsShell("bash"))
    func bashFiles() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let script = try Shells.script("bash", named: "throbber.bash", in: dir)
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("frames"), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: dir.appendingPathComponent("fancy.json"))
            let got = try Self.bashCompletions(
                script,
                [
                    ["throbber", "render", "fa"], ["throbber", "encode", "fr"], ["throbber", "gallery", "f"],
                    ["throbber", "encode", "frames", "-o", "fa"],
                ], in: dir)
            #expect(
                got[0] == ["fancy.json"] && got[1] == ["frames"] && got[2] == ["frames"] && got[3] == ["fancy.json"],
                "\(got)")
        }
    }

    @Test(
        "fish: the script parses, and 'complete -C' offers subcommands, preset names and option values",
        .needsShell("fish"))
    func fish() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let fish = try Shells.require("fish")
            let script = try Shells.script("fish", named: "throbber.fish", in: dir)
            let syntax = try Shells.run(fish, ["--no-config", "-n", script.path], in: dir)
            #expect(syntax.status == 0 && syntax.stderr.isEmpty, "fish -n: \(syntax.stderrText)")
            func complete(_ line: String) throws -> [String] {
                let r = try Shells.run(
                    fish, ["--no-config", "-c", "source \(script.path); and complete -C '\(line)'"], in: dir)
                #expect(r.status == 0 && r.stderr.isEmpty, "fish: \(r.stderrText)")
                return r.stdoutText.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
            }
            #expect(Set(try complete("throbber ")) == Set(ExpectedCLI.subcommands))
            #expect(Set(try complete("throbber preset ")) == Set(try ExpectedCLI.presetNames()))
            #expect(Set(try complete("throbber encode --format ")) == ["gif", "apng", "webp"])
            #expect(
                Set(try complete("throbber preset --compression=")) == [
                    "--compression=fast", "--compression=best", "--compression=max",
                ])
            let encode = try complete("throbber encode --")
            #expect(Set(encode) == Set(ExpectedCLI.options["encode"]!.map { "--" + $0 }), "\(encode)")
        }
    }

    @Test(
        "zsh: the script parses, loads after compinit, registers for throbber and names every subcommand and preset",
        .needsShell("zsh"))
    func zshLoads() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let zsh = try Shells.require("zsh")
            let script = try Shells.script("zsh", named: "_throbber", in: dir)
            let syntax = try Shells.run(zsh, ["-n", script.path], in: dir)
            #expect(syntax.status == 0 && syntax.stderr.isEmpty, "zsh -n: \(syntax.stderrText)")
            let load = try Shells.run(
                zsh,
                [
                    "-f", "-c",
                    "autoload -U compinit && compinit -u -D && source \(script.path) && print -r -- $_comps[throbber]",
                ], in: dir)
            #expect(load.status == 0 && load.stderr.isEmpty, "zsh: \(load.stderrText)")
            #expect(load.stdoutText == "_throbber\n", "throbber completes with '\(load.stdoutText)'")
            let text = try String(contentsOf: script, encoding: .utf8)
            for name in ExpectedCLI.subcommands + (try ExpectedCLI.presetNames()) {
                #expect(text.contains("'\(name):"), "the script does not list \(name)")
            }
        }
    }

    @Test(
        "installed where 'make install' puts them, bash-completion and fish find the scripts by themselves",
        .needsShell("bash"), .needsShell("fish"))
    func installedPlaces() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let share = dir.appendingPathComponent("prefix/share")
            for folder in ["bash-completion/completions", "fish/vendor_completions.d"] {
                try FileManager.default.createDirectory(
                    at: share.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            _ = try Shells.script("bash", named: "prefix/share/bash-completion/completions/throbber", in: dir)
            _ = try Shells.script("fish", named: "prefix/share/fish/vendor_completions.d/throbber.fish", in: dir)
            let loader = "/usr/share/bash-completion/bash_completion"
            guard FileManager.default.fileExists(atPath: loader) else {
                throw HarnessError("\(loader) is missing; scripts/install-deps installs bash-completion")
            }
            let bash = try Shells.run(
                try Shells.require("bash"),
                [
                    "--norc", "--noprofile", "-c",
                    "source \(loader); __load_completion throbber; complete -p throbber",
                ],
                in: dir, environment: ["XDG_DATA_DIRS": share.path])
            #expect(bash.stdoutText == "complete -F _throbber throbber\n", "bash: \(bash.stdoutText)\(bash.stderrText)")
            // fish loads a command's completions when the command is on PATH.
            let folder = try Throbber.binary.get().deletingLastPathComponent().path
            let fish = try Shells.run(
                try Shells.require("fish"), ["-c", "complete -C 'throbber pre'"], in: dir,
                environment: [
                    "XDG_DATA_DIRS": share.path,
                    "PATH": folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                ])
            #expect(
                fish.stdoutText.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) } == [
                    "preset", "presets",
                ],
                "fish: \(fish.stdoutText)\(fish.stderrText)")
        }
    }
}
