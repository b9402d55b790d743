import Foundation
import TestSupport
import Testing

@Suite("Progress and quiet output")
struct ProgressTests {
    @Test(
        "without a terminal a successful encode prints nothing, with or without --quiet",
        arguments: [[String](), ["--quiet"], ["-q"]])
    func silentWithoutTerminal(_ quiet: [String]) throws {
        try withDistinctFrames(20) { folder, hashes in
            let out = folder.deletingLastPathComponent().appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", folder.path, "-o", out.path] + quiet)
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty, "stderr: \(r.stderrText.debugDescription)")
            #expect(r.stdout.isEmpty, "stdout: \(r.stdoutText.debugDescription)")
            #expect(try Pillow.decode(out).hashes == hashes)
        }
    }

    @Test(
        "without a terminal a failing encode prints only the error line, --quiet or not",
        arguments: [[String](), ["--quiet"]])
    func onlyErrorsWithoutTerminal(_ quiet: [String]) throws {
        try withDistinctFrames(20) { folder, _ in
            try Data("broken".utf8).write(to: folder.appendingPathComponent("f21.png"))
            // Beside the folder: inside it, the output would be one of its frames.
            let r = try Throbber.run(
                ["encode", folder.path, "-o", folder.deletingLastPathComponent().appendingPathComponent("x.gif").path]
                    + quiet)
            expectFailure(r, status: 65, names: ["f21.png"])
        }
    }

    /// Runs throbber under `script` (util-linux), so stdout and stderr are a
    /// terminal; returns what the terminal received.
    static func runOnTerminal(_ args: [String]) throws -> CommandResult {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw HarnessError("util-linux 'script' is missing")
        }
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let line = ([try Throbber.binary.get().path] + args).map(quote).joined(separator: " ")
        return try Command.run(script, ["-q", "-e", "-c", line, "/dev/null"], environment: ["TERM": "xterm"])
    }

    @Test("on a terminal the progress bar is drawn up to 100% and erased, then a summary line is printed")
    func barOnTerminal() throws {
        try withDistinctFrames(20) { folder, hashes in
            let out = folder.deletingLastPathComponent().appendingPathComponent("out.gif")
            let r = try Self.runOnTerminal(["encode", folder.path, "-o", out.path])
            #expect(r.status == 0)
            let text = r.stdoutText
            #expect(text.contains("\rencoding "), "no bar drawn: \(text.debugDescription)")
            #expect(text.contains("100% (20/20 frames)"), "\(text.debugDescription)")
            #expect(text.contains("\r\u{1B}[2K"), "bar not erased: \(text.debugDescription)")
            #expect(text.contains("wrote \(out.path): 8x8, 20 frames"), "\(text.debugDescription)")
            #expect(try Pillow.decode(out).hashes == hashes)
        }
    }

    @Test("on a terminal the summary line gives the size the frames were resized from, and only then")
    func resizedSummary() throws {
        try withDistinctFrames(3) { folder, _ in
            let out = folder.deletingLastPathComponent().appendingPathComponent("out.gif")
            var r = try Self.runOnTerminal(["encode", folder.path, "-o", out.path, "--scale", "2"])
            #expect(r.status == 0)
            #expect(
                r.stdoutText.contains("wrote \(out.path): 16x16 (from 8x8), 3 frames"),
                "\(r.stdoutText.debugDescription)")
            r = try Self.runOnTerminal(["encode", folder.path, "-o", out.path, "--frames", "1-2"])
            #expect(r.stdoutText.contains("wrote \(out.path): 8x8, 2 frames"), "\(r.stdoutText.debugDescription)")
        }
    }

    @Test("on a terminal --quiet prints nothing at all", arguments: ["--quiet", "-q"])
    func quietOnTerminal(_ flag: String) throws {
        try withDistinctFrames(20) { folder, hashes in
            let out = folder.deletingLastPathComponent().appendingPathComponent("out.gif")
            let r = try Self.runOnTerminal(["encode", folder.path, "-o", out.path, flag])
            #expect(r.status == 0)
            #expect(r.stdout.isEmpty, "terminal got: \(r.stdoutText.debugDescription)")
            #expect(try Pillow.decode(out).hashes == hashes)
        }
    }
}
