import Foundation
import TestSupport
import Testing

/// Helpers for `throbber encode -`: streams made by ffmpeg (the program
/// users pipe from), and runs whose temporary folder is watched.
enum StreamSupport {
    static let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")

    /// Runs ffmpeg quietly; fails the harness when it fails.
    static func ffmpeg(_ args: [String]) throws {
        let r = try Command.run(ffmpeg, ["-v", "error", "-nostdin", "-y"] + args)
        guard r.status == 0 else { throw HarnessError("ffmpeg \(args.joined(separator: " ")): \(r.stderrText)") }
    }

    /// `count` frames of ffmpeg's testsrc2 (every frame differs).
    static func testsrc(_ size: String = "320x240", rate: String = "25", count: Int) -> [String] {
        ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-frames:v", "\(count)"]
    }

    /// Runs `throbber args` with `stdin` on standard input and TMPDIR set to
    /// a fresh folder, which must be empty again afterwards (the spool file
    /// is unlinked at once, whatever happens).
    static func run(_ args: [String], stdin: URL, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> CommandResult
    {
        let tmp = try TemporaryDirectory.make(prefix: "spool")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let r = try Throbber.run(args, environment: ["TMPDIR": tmp.path], stdin: stdin)
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
        #expect(left.isEmpty, "files left in TMPDIR: \(left)", sourceLocation: sourceLocation)
        return r
    }

    /// The concatenation of `files`, written to `url`.
    static func concatenate(_ files: [URL], to url: URL) throws {
        var data = Data()
        for f in files { data += try Data(contentsOf: f) }
        try data.write(to: url)
    }

    /// The largest difference of any R, G or B sample between two lists of
    /// RGBA frames of the same size (nil when sizes or counts differ).
    static func maxDifference(_ a: [[UInt8]], _ b: [[UInt8]]) -> Int? {
        guard a.count == b.count, zip(a, b).allSatisfy({ $0.count == $1.count }) else { return nil }
        var worst = 0
        for (x, y) in zip(a, b) {
            for i in x.indices where i % 4 != 3 { worst = max(worst, abs(Int(x[i]) - Int(y[i]))) }
        }
        return worst
    }
}
