import Foundation
import TestSupport
import Testing

/// The exit statuses no other suite reaches: 74 (I/O error: a write or a
/// read that fails) and 70 (internal error), from ARCHITECTURE.md's
/// sysexits list, each with one `throbber: error:` line.
@Suite("Exit codes 74 and 70")
struct IOErrorTests {
    /// `throbber ARGS` with its standard output sent to /dev/full (every write fails with ENOSPC).
    static func runIntoDevFull(_ args: [String]) throws -> CommandResult {
        try Command.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec \"$0\" \"$@\" > /dev/full", try Throbber.binary.get().path] + args)
    }

    @Test("-o - into /dev/full: an APNG exits 74 naming standard output")
    func apngToFullDevice() throws {
        let r = try Self.runIntoDevFull(["preset", "spinner", "-o", "-", "--format", "apng", "-q"])
        expectFailure(r, status: 74, names: ["standard output"])
    }

    @Test("-o - into /dev/full: a GIF exits 74 naming standard output and the errno text")
    func gifToFullDevice() throws {
        let r = try Self.runIntoDevFull(["preset", "spinner", "-o", "-", "-q"])
        #expect(r.status == 74, "exit \(r.status): \(r.stderrText)")
        #expect(
            r.stderrLines.count == 1 && r.stderrLines.first?.hasPrefix("throbber: error: ") == true, "\(r.stderrText)")
        // ARCHITECTURE.md: errors name the file; the GIF writer passes on the output's own error.
        #expect(r.stderrText.contains("standard output: No space left on device"), "\(r.stderrText)")
    }

    @Test("an input that cannot be read (/proc/self/mem: read() fails with EIO) exits 74 naming it, and writes nothing")
    func unreadableInput() throws {
        try withTemporaryDirectory { dir in
            for name in ["o.gif", "o.png"] {
                let r = try Throbber.run([
                    "encode", "/proc/self/mem", "-o", dir.appendingPathComponent(name).path, "-q",
                ])
                expectFailure(r, status: 74, names: ["/proc/self/mem", "read failed"])
            }
            // The same file inside a frame folder (a symbolic link named like a frame).
            let folder = dir.appendingPathComponent("in")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("a.png").path, withDestinationPath: "/proc/self/mem")
            let r = try Throbber.run(["encode", folder.path, "-o", dir.appendingPathComponent("o.gif").path, "-q"])
            expectFailure(r, status: 74, names: ["a.png", "read failed"])
            let left = try listing(dir)
            #expect(left == ["in"], "left behind: \(left)")
        }
    }

    @Test(
        "exit 73: `check` whose TMPDIR is a regular file cannot make its scratch folder"
    )
    func scratchFolderCannotBeMade() throws {
        try withTemporaryDirectory { dir in
            let manifest = try SceneCLI.write(#"{"entries": []}"#, to: dir, as: "m.json")
            let notAFolder = try SceneCLI.write("", to: dir, as: "file")
            let r = try Throbber.run(["check", manifest.path], environment: ["TMPDIR": notAFolder.path])
            #expect(r.status == 73, "exit \(r.status): \(r.stderrText)")
            #expect(
                r.stdout.isEmpty && r.stderrLines.count == 1
                    && r.stderrLines.first?.hasPrefix("throbber: error: ") == true,
                "\(r.stdoutText)\(r.stderrText)")
            #expect(r.stderrText.contains(notAFolder.path), "the error should name the folder: \(r.stderrText)")
            let left = try listing(dir)
            #expect(left == ["file", "m.json"], "\(left)")
        }
    }
}
