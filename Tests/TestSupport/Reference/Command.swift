import Foundation

/// What a finished child process left behind.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    /// Every stderr line, without the trailing newline.
    public var stderrLines: [String] {
        stderrText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }
}

/// A failure in the test harness itself (not in the code under test), with
/// a message that says what to fix.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs programs with `Foundation.Process`: stdin from a file (or /dev/null), stdout and
/// stderr captured in files (so large outputs cannot fill a pipe and block),
/// optional environment changes and working directory, and a timeout.
public enum Command {
    public static func run(
        _ executable: URL, _ arguments: [String],
        environment changes: [String: String?] = [:],
        workingDirectory: URL? = nil,
        stdin: URL? = nil,
        timeout: TimeInterval = 300
    ) throws -> CommandResult {
        let captureDir = try TemporaryDirectory.make(prefix: "capture")
        defer { try? FileManager.default.removeItem(at: captureDir) }
        let outURL = captureDir.appendingPathComponent("stdout")
        let errURL = captureDir.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in changes { environment[key] = value }
        process.environment = environment
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let input = try stdin.map { try FileHandle(forReadingFrom: $0) }
        defer { try? input?.close() }
        process.standardInput = input ?? FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err

        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        if timedOut {
            throw HarnessError(
                "\(executable.path) \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s")
        }
        return CommandResult(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: outURL),
            stderr: try Data(contentsOf: errURL))
    }
}

/// `sha256sum FILE...`: the independent hashes, in order.
public func sha256sum(_ files: [URL]) throws -> [String] {
    let r = try Command.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), files.map(\.path))
    guard r.status == 0 else { throw HarnessError("sha256sum failed: \(r.stderrText)") }
    let hashes = r.stdoutText.split(separator: "\n").map { String($0.prefix(64)) }
    guard hashes.count == files.count else {
        throw HarnessError("sha256sum printed \(hashes.count) lines for \(files.count) files")
    }
    return hashes
}

/// `count` frames of an ffmpeg test source (`"testsrc2=size=160x120:rate=25"`,
/// `"mandelbrot=…"`) as RGB PNG files 0001.png… in a new folder `name` of
/// `dir`, in order.
public func ffmpegSourceFrames(_ source: String, count: Int, in dir: URL, name: String = "frames") throws -> [URL] {
    let folder = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let r = try Command.run(
        URL(fileURLWithPath: "/usr/bin/ffmpeg"),
        [
            "-v", "error", "-nostdin", "-f", "lavfi", "-i", source, "-frames:v", "\(count)", "-pix_fmt", "rgb24",
            folder.appendingPathComponent("%04d.png").path,
        ])
    guard r.status == 0 else { throw HarnessError("ffmpeg \(source): \(r.stderrText)") }
    return (1...count).map { folder.appendingPathComponent(String(format: "%04d.png", $0)) }
}
