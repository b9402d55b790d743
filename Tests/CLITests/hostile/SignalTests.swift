import Foundation
import TestSupport
import Testing

/// SIGINT, SIGTERM and SIGHUP in the middle of a run (docs/reliability.md,
/// "Signals"): the real binary, stopped once its temporary output exists,
/// exits 130, 143 or 129 and leaves no `.NAME.throbber-*` file, no output
/// and no `check` scratch folder.
@Suite("Signals: nothing left behind, exit 128 + signal")
struct SignalTests {
    /// A folder of 300 frames of 960x540 (links to 6 distinct testsrc2
    /// frames): far more encoding than the test waits for.
    static func longFrames(in dir: URL) throws -> URL {
        let source = try Hostile.testsrcFrames("960x540", count: 6, in: dir.appendingPathComponent("src"))
        let folder = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        for i in 0..<300 {
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent(String(format: "f%03d.png", i)).path,
                withDestinationPath: source[i % source.count].path)
        }
        return folder
    }

    /// Runs throbber with `args` in `dir`; once `started` is true, sends
    /// `signal`; returns the exit status (nil: ended by a signal, or did
    /// not end within a minute).
    static func interrupt(
        _ args: [String], in dir: URL, signal: Int32, environment: [String: String] = [:],
        started: () throws -> Bool
    ) throws -> (status: Int32?, stderr: String) {
        let process = Process()
        process.executableURL = try Throbber.binary.get()
        process.arguments = args
        process.currentDirectoryURL = dir
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = dir.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errors)
        process.standardError = errorHandle
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let deadline = Date().addingTimeInterval(60)
        while try !started() {
            guard process.isRunning, Date() < deadline else {
                throw HarnessError("throbber \(args) ended or stalled before its temporary output appeared")
            }
            usleep(5_000)
        }
        kill(process.processIdentifier, signal)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        guard !process.isRunning else { return (nil, "still running a minute later") }
        try errorHandle.close()
        let text = try String(contentsOf: errors, encoding: .utf8)
        try FileManager.default.removeItem(at: errors)
        return (process.terminationReason == .exit ? process.terminationStatus : nil, text)
    }

    /// Whether `dir` holds a temporary output (`.NAME.throbber-XXXXXX`).
    static func hasTemporary(_ dir: URL) throws -> Bool {
        try listing(dir).contains { $0.hasPrefix(".") && $0.contains(".throbber-") }
    }

    @Test(
        "encode stopped by SIGINT, SIGTERM or SIGHUP exits 130, 143, 129 and leaves no temporary file",
        arguments: [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)] as [(Int32, Int32)])
    func encode(_ signal: Int32, _ status: Int32) throws {
        try withTemporaryDirectory { dir in
            _ = try Self.longFrames(in: dir)
            let r = try Self.interrupt(["encode", "frames", "-o", "out.gif", "-q"], in: dir, signal: signal) {
                try Self.hasTemporary(dir)
            }
            #expect(r.status == status, "\(r.stderr)")
            #expect(try listing(dir) == ["frames", "src"], "left behind")
        }
    }

    @Test("render (a frames config, APNG) stopped by SIGHUP exits 129 and leaves no temporary file")
    func render() throws {
        try withTemporaryDirectory { dir in
            _ = try Self.longFrames(in: dir)
            try SceneCLI.write(#"{"version": 1, "frames": {"dir": "frames"}}"#, to: dir, as: "scene.json")
            let r = try Self.interrupt(["render", "scene.json", "-o", "out.png", "-q"], in: dir, signal: SIGHUP) {
                try Self.hasTemporary(dir)
            }
            #expect(r.status == 129, "\(r.stderr)")
            #expect(try listing(dir) == ["frames", "scene.json", "src"], "left behind")
        }
    }

    @Test("check stopped by SIGTERM mid-entry exits 143 and removes its scratch folder")
    func check() throws {
        try withTemporaryDirectory { dir in
            _ = try Self.longFrames(in: dir)
            let manifest = #"{"entries": [{"encode": ["frames"], "output": "frames.gif"}]}"#
            try SceneCLI.write(manifest, to: dir, as: "pins.json")
            let tmp = dir.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: false)
            let r = try Self.interrupt(
                ["check", "pins.json"], in: dir, signal: SIGTERM, environment: ["TMPDIR": tmp.path]
            ) {
                // The scratch folder exists and the entry's encode has begun.
                try listing(tmp).contains { name in
                    name.hasPrefix("throbber-check-")
                        && (try? Self.hasTemporary(tmp.appendingPathComponent(name))) == true
                }
            }
            #expect(r.status == 143, "\(r.stderr)")
            #expect(try listing(tmp) == [], "check's scratch folder was left")
            #expect(try listing(dir) == ["frames", "pins.json", "src", "tmp"])
        }
    }
}
