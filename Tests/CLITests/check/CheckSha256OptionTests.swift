import Foundation
import TestSupport
import Testing

/// `--sha256` on encode, render and preset: "HASH  PATH" as sha256sum
/// prints it, for the bytes written; on stderr when the output is stdout.
@Suite("--sha256 on encode, render and preset")
struct CheckSha256OptionTests {
    /// The three commands, writing `out`.
    static func commands(_ dir: URL, _ out: String) throws -> [[String]] {
        let frames = dir.appendingPathComponent("frames")
        if !FileManager.default.fileExists(atPath: frames.path) {
            try Pillow.makeFrames(Pillow.distinctFrames(["1.png", "2.png", "3.png"]), in: frames)
        }
        return [
            ["encode", frames.path, "-o", out, "--fps", "5"],
            ["render", CheckKit.examples.appendingPathComponent("dots.json").path, "-o", out],
            ["preset", "chase", "--size", "32", "-o", out],
        ]
    }

    @Test(
        "prints exactly “HASH  PATH” on stdout, the file's SHA-256 per sha256sum, and sha256sum -c accepts it",
        arguments: ["gif", "png"])
    func printsHash(_ ext: String) throws {
        try withTemporaryDirectory { (dir: URL) throws in
            for (i, command) in try Self.commands(dir, "out.\(ext)").enumerated() {
                let r = try Throbber.run(command + ["--sha256", "-q"], in: dir)
                #expect(r.status == 0, "\(command[0]): \(r.stderrText)")
                #expect(r.stderr.isEmpty)
                let out = dir.appendingPathComponent("out.\(ext)")
                let hash = try CheckKit.sha256sum(out)
                #expect(r.stdoutText == "\(hash)  out.\(ext)\n", "\(command[0]): \(r.stdoutText)")
                // The line is sha256sum's own format.
                let list = dir.appendingPathComponent("sums-\(i).txt")
                try r.stdout.write(to: list)
                let verify = try Command.run(
                    URL(fileURLWithPath: "/usr/bin/sha256sum"), ["-c", list.path], workingDirectory: dir)
                #expect(
                    verify.status == 0 && verify.stdoutText == "out.\(ext): OK\n",
                    "\(verify.stdoutText)\(verify.stderrText)")
                // info agrees.
                #expect(try CheckKit.info(out).info.sha256 == hash)
                // Without -q too (the summary goes to stderr only on a terminal).
                let loud = try Throbber.run(command + ["--sha256"], in: dir)
                #expect(loud.stdoutText == "\(hash)  out.\(ext)\n")
            }
        }
    }

    @Test("with -o - the animation goes to stdout and “HASH  -” to stderr, the hash of exactly those bytes")
    func standardOutput() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            for command in try Self.commands(dir, "-") {
                let r = try Throbber.run(command + ["--sha256", "-q"], in: dir)
                #expect(r.status == 0, "\(r.stderrText)")
                #expect(r.stdout.prefix(6) == Data("GIF89a".utf8))
                let hash = try CheckKit.sha256sum(r.stdout)
                #expect(r.stderrText == "\(hash)  -\n", "\(command[0]): \(r.stderrText)")
            }
        }
    }

    @Test("without --sha256 nothing is printed")
    func silentByDefault() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            for command in try Self.commands(dir, "out.gif") {
                let r = try Throbber.run(command + ["-q"], in: dir)
                #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty)
            }
        }
    }

    @Test("a failed command prints no hash")
    func noHashOnFailure() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let r = try Throbber.run(
                ["encode", dir.appendingPathComponent("none").path, "-o", "out.gif", "--sha256"], in: dir)
            #expect(r.status == 66)
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("the hash --sha256 prints is the one check --update records for the same command")
    func sameAsCheck() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let entries: [[String: Any]] = [["preset": "chase", "args": ["--size", "32"], "output": "chase.png"]]
            let p = try CheckProject(in: dir, entries: entries)
            #expect(try p.check(["--update"]).status == 0)
            let r = try Throbber.run(["preset", "chase", "--size", "32", "-o", "x.png", "--sha256", "-q"], in: dir)
            #expect(r.stdoutText == "\(try p.recordedHash("chase.png") ?? "none")  x.png\n")
        }
    }
}
