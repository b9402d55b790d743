import Foundation
import TestSupport
import Testing

extension APNGCLITests {
    // MARK: Refusing bad input

    @Test(
        "invalid APNG and GIF fixtures: exit 65, the message names the file, nothing is written",
        .needsFixtures, arguments: invalidAPNG + invalidGIF)
    func refusesInvalid(_ fixture: String) throws {
        try withTemporaryDirectory { dir in
            let input = try Self.fixture(fixture)
            for name in ["o.png", "o.gif"] {
                let r = try Throbber.run(["encode", input.path, "-o", dir.appendingPathComponent(name).path, "-q"])
                #expect(r.status == 65, "\(fixture) → \(name): exit \(r.status), \(r.stderrText)")
                #expect(r.stderrText.contains(input.path), "\(fixture): \(r.stderrText)")
                #expect(r.stderrLines.count == 1, "one line: \(r.stderrText)")
            }
            let left = try listing(dir)
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }

    /// Wall time (s) and peak RSS (KB) of `throbber args` under /usr/bin/time.
    static func measured(_ args: [String]) throws -> (result: CommandResult, seconds: Double, kilobytes: Int) {
        try withTemporaryDirectory { dir in
            let report = dir.appendingPathComponent("time.txt")
            let r = try Command.run(
                URL(fileURLWithPath: "/usr/bin/time"),
                ["-o", report.path, "-f", "%e %M", try Throbber.binary.get().path] + args)
            let fields =
                String(decoding: try Data(contentsOf: report), as: UTF8.self)
                .split(separator: "\n").last.map { $0.split(separator: " ") } ?? []
            guard fields.count == 2, let s = Double(fields[0]), let kb = Int(fields[1]) else {
                throw HarnessError("/usr/bin/time gave \(fields)")
            }
            return (r, s, kb)
        }
    }

    /// Peak RSS of a run that reads a small valid file, for comparison.
    static func baselineKB() throws -> Int {
        try withTemporaryDirectory { dir in
            try measured([
                "encode", try fixture("apng-apngkit/spec/001.png").path, "-o", dir.appendingPathComponent("b.png").path,
                "-q",
            ]).kilobytes
        }
    }

    @Test(
        "decompression bombs are refused in well under a second, with a small peak RSS", .needsFixtures,
        arguments: ["gif-pillow/decompression_bomb.gif", "gif-pillow/decompression_bomb_extents.gif"])
    func bombs(_ fixture: String) throws {
        try withTemporaryDirectory { dir in
            let m = try Self.measured([
                "encode", try Self.fixture(fixture).path, "-o", dir.appendingPathComponent("o.png").path, "-q",
            ])
            #expect(m.result.status == 65, "\(fixture): exit \(m.result.status) \(m.result.stderrText)")
            #expect(m.seconds < 0.5, "\(fixture): \(m.seconds) s")
            let base = try Self.baselineKB()
            #expect(
                m.kilobytes < base + 32 * 1024, "\(fixture): peak RSS \(m.kilobytes) KB (a small file needs \(base) KB)"
            )
        }
    }

    @Test("an APNG canvas bomb (IHDR 65535x65535, a few bytes of data) is refused at once with a small peak RSS")
    func apngCanvasBomb() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("bomb.png")
            _ = try Pillow.script("apng_make_bombs.py", ["apng-canvas", path.path])
            let m = try Self.measured(["encode", path.path, "-o", dir.appendingPathComponent("o.gif").path, "-q"])
            #expect(m.result.status == 65, "exit \(m.result.status): \(m.result.stderrText)")
            #expect(m.result.stderrText.contains(path.path))
            #expect(m.seconds < 0.5, "\(m.seconds) s")
            #expect(m.kilobytes < (try Self.baselineKB()) + 32 * 1024, "peak RSS \(m.kilobytes) KB")
        }
    }

    @Test(
        "a frame-count bomb (4096x4096 canvas, 60 frames: 3.75 GiB composited from a small file) is refused before the frames are composited",
        arguments: ["apng-frames", "gif-frames"])
    func frameCountBomb(_ kind: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent(kind == "apng-frames" ? "bomb.png" : "bomb.gif")
            _ = try Pillow.script("apng_make_bombs.py", [kind, path.path])
            let size = try Data(contentsOf: path).count
            let m = try Self.measured(["encode", path.path, "-o", dir.appendingPathComponent("o.png").path, "-q"])
            #expect(m.result.status == 65, "exit \(m.result.status): \(m.result.stderrText)")
            #expect(m.result.stderrText.contains(path.path))
            #expect(m.seconds < 1, "refused after \(m.seconds) s")
            #expect(m.kilobytes < 512 * 1024, "peak RSS \(m.kilobytes / 1024) MB for a \(size)-byte file")
        }
    }
}
