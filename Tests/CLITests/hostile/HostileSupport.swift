import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Helpers for the hostile-input and hostile-condition tests: shell
/// pipelines around the real binary, file types, long-running encodes.
enum Hostile {
    static let bash = URL(fileURLWithPath: "/bin/bash")

    /// Runs `script` in bash with `$THROBBER` set to the binary under test,
    /// in `dir`, giving up after `timeout` seconds (a hang fails the test).
    static func shell(_ script: String, in dir: URL, timeout: TimeInterval = 120) throws -> CommandResult {
        try Command.run(
            bash, ["-c", script], environment: ["THROBBER": try Throbber.binary.get().path],
            workingDirectory: dir, timeout: timeout)
    }

    /// The type bits of what `path` is, not following a last symbolic link.
    static func type(_ path: String) -> mode_t? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return st.st_mode & S_IFMT
    }

    /// The device number of a device node.
    static func device(_ path: String) -> UInt? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return UInt(st.st_rdev)
    }

    /// The first block device in /dev by name, or nil when there is none.
    static var blockDevice: String? {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return nodes.sorted().map { "/dev/" + $0 }.first { type($0) == S_IFBLK }
    }

    /// Makes a FIFO at `url`.
    static func mkfifo(_ url: URL) throws {
        guard Glibc.mkfifo(url.path, 0o644) == 0 else { throw HarnessError("mkfifo \(url.path): errno \(errno)") }
    }

    /// Checks that a message is ours: no Foundation error domain or code.
    static func expectOurWords(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for foreign in ["Domain", "error 256", "NSCocoa", "Error Domain"] {
            #expect(!text.contains(foreign), "a Foundation error leaked: \(text)", sourceLocation: sourceLocation)
        }
    }

    /// `count` frames of ffmpeg's testsrc2 at `size` (every frame differs),
    /// named 001.png... in `folder`.
    static func testsrcFrames(_ size: String, count: Int, in folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try StreamSupport.ffmpeg(
            StreamSupport.testsrc(size, count: count) + [folder.appendingPathComponent("%03d.png").path])
        return (1...count).map { folder.appendingPathComponent(String(format: "%03d.png", $0)) }
    }
}
