import Foundation
import TestSupport
import Testing

/// The exit statuses no other suite reaches: 74 (I/O error: a write or a
/// read that fails) and 70 (internal error), of the man page's
/// sysexits list (EXIT STATUS), each with one `throbber: error:` line.
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
        // the exit statuses: errors name the file; the GIF writer passes on the output's own error.
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

    /// What `TMPDIR` is when `check` cannot make its scratch folder there.
    enum UnusableTemporaryFolder: String, CaseIterable, Sendable {
        case regularFile = "a regular file"
        case missing = "a folder that does not exist"
        case readOnly = "a read-only folder"
    }

    /// setpriv(1), which runs the binary as an unprivileged user when the
    /// tests run as root (root writes into a read-only folder).
    static let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
    static var canDropRoot: Bool { geteuid() != 0 || FileManager.default.isExecutableFile(atPath: setpriv.path) }

    @Test(
        "exit 73: `check` whose TMPDIR is a regular file, missing or read-only cannot make its scratch folder",
        .enabled(if: canDropRoot, "skipped: running as root without /usr/bin/setpriv to drop the privilege"),
        arguments: UnusableTemporaryFolder.allCases)
    func scratchFolderCannotBeMade(_ tmp: UnusableTemporaryFolder) throws {
        try withTemporaryDirectory { dir in
            let manifest = try SceneCLI.write(#"{"entries": []}"#, to: dir, as: "m.json")
            let folder = dir.appendingPathComponent("tmp")
            switch tmp {
            case .regularFile: _ = try SceneCLI.write("", to: dir, as: "tmp")
            case .missing: break
            case .readOnly:
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
            }
            // Others may enter the test folder and read the manifest (for the unprivileged run).
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
            let before = try listing(dir)
            let binary = try Throbber.binary.get().path
            let r =
                geteuid() == 0
                ? try Command.run(
                    Self.setpriv,
                    ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "check", manifest.path],
                    environment: ["TMPDIR": folder.path])
                : try Throbber.run(["check", manifest.path], environment: ["TMPDIR": folder.path])
            #expect(r.status == 73, "\(tmp.rawValue): exit \(r.status): \(r.stderrText)")
            #expect(
                r.stdout.isEmpty && r.stderrLines.count == 1
                    && r.stderrLines.first?.hasPrefix("throbber: error: \(folder.path): cannot create a scratch folder")
                        == true,
                "the error should name the folder: \(r.stdoutText)\(r.stderrText)")
            let after = try listing(dir)
            #expect(after == before, "\(after)")
            if tmp == .readOnly {
                let inside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                #expect(inside.isEmpty, "\(inside)")
            }
        }
    }
}
