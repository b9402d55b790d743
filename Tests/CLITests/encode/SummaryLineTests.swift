import Foundation
import TestSupport
import Testing

/// The one line on standard error that says what was written, printed
/// whether stderr is a terminal or not (the harness captures it in a file):
/// format, size, frames, duration and bytes as read back from the file,
/// with a byte budget the settings chosen; `--quiet` prints nothing.
@Suite("The summary line", .tags(.slow))
struct SummaryLineTests {
    /// 20 frames of testsrc2 at 160×120 (0.80 s at 25 fps).
    static func frames(in dir: URL) throws -> URL {
        try ffmpegSourceFrames("testsrc2=size=160x120:rate=25", count: 20, in: dir)[0].deletingLastPathComponent()
    }

    static func size(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    }

    /// "60.3 kB (60315 bytes)": the size in kB to one decimal, then exactly.
    static func bytesText(_ bytes: Int) -> String {
        String(format: "%.1f kB (%d bytes)", Double(bytes) / 1000, bytes)
    }

    @Test(
        "encode: one exact line per format, its bytes those of the file",
        arguments: [
            ("gif", "GIF", "quantized with libimagequant (quality 100, up to 256 colors)"),
            ("png", "APNG", "lossless RGB"),
            ("webp", "WebP", "lossless (libwebp method 5, effort 90)"),
        ])
    func encodeLine(_ ext: String, _ name: String, _ storage: String) throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let out = dir.appendingPathComponent("out.\(ext)")
            let r = try Throbber.run(["encode", frames.path, "-o", out.path])
            #expect(r.status == 0, "\(r.stderrText)")
            let bytes = try Self.size(out)
            #expect(
                r.stderrLines == [
                    "wrote \(out.path): \(name) 160x120, 20 frames, 0.80 s, \(Self.bytesText(bytes)), \(storage)"
                ], "\(r.stderrText)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("encode --max-bytes: the same line, then the budget as given and the settings its search chose")
    func budgetLine() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", frames.path, "-o", out.path, "--max-bytes", "40k"])
            #expect(r.status == 0, "\(r.stderrText)")
            let bytes = try Self.size(out)
            #expect(bytes <= 40000)
            let line = try #require(r.stderrLines.first, "no line")
            let match = try #require(
                line.wholeMatch(
                    of:
                        /wrote (.*): GIF 160x120, 20 frames, 0\.80 s, (.*), quantized with libimagequant \(quality (\d+), up to (\d+) colors\); --max-bytes 40k: quality (\d+), lossy (\d+), (\d+) colors/
                ), "\(line)")
            #expect(String(match.1) == out.path && String(match.2) == Self.bytesText(bytes), "\(line)")
            // What the line says was chosen is what the file's storage says.
            #expect(match.3 == match.5 && match.4 == match.7, "\(line)")
            // A heavily lossy choice (above 100) says so on a line of its own.
            let lossy = Int(match.6)!
            #expect(r.stderrLines.count == (lossy > 100 ? 2 : 1), "\(r.stderrText)")
            if lossy > 100 {
                #expect(r.stderrLines[1].hasPrefix("note: to fit, the file is heavily lossy (lossy \(lossy))"))
            }
        }
    }

    @Test("render and preset write the same line: frames and duration as Pillow reads them back")
    func renderAndPreset() throws {
        try withTemporaryDirectory { dir in
            let config = Paths.repository.appendingPathComponent("examples/dots.json")
            let cases: [(args: [String], out: URL, name: String)] = [
                (["render", config.path], dir.appendingPathComponent("dots.gif"), "GIF"),
                (["preset", "spinner"], dir.appendingPathComponent("spinner.gif"), "GIF"),
            ]
            for c in cases {
                let r = try Throbber.run(c.args + ["-o", c.out.path])
                #expect(r.status == 0, "\(r.stderrText)")
                let decoded = try APNGCLI.decode("pillow", c.out)
                let seconds = decoded.seconds.map { $0 ?? 0 }.reduce(0, +)
                let line = String(
                    format: "wrote %@: %@ %dx%d, %d frames, %.2f s, %@, ", c.out.path, c.name, decoded.width,
                    decoded.height, decoded.frames.count, seconds, Self.bytesText(try Self.size(c.out)))
                #expect(r.stderrLines.count == 1 && r.stderrText.hasPrefix(line), "\(r.stderrText) vs \(line)")
            }
        }
    }

    @Test("--quiet: nothing on stderr for encode, --max-bytes, render, preset and gallery")
    func quiet() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let runs = [
                ["encode", frames.path, "-o", dir.appendingPathComponent("a.gif").path],
                ["encode", frames.path, "-o", dir.appendingPathComponent("b.gif").path, "--max-bytes", "40k"],
                ["preset", "spinner", "-o", dir.appendingPathComponent("c.png").path],
                ["gallery", dir.appendingPathComponent("gallery").path],
            ]
            for args in runs {
                let r = try Throbber.run(args + ["--quiet"])
                #expect(r.status == 0 && r.stderr.isEmpty && r.stdout.isEmpty, "\(args): \(r.stderrText)")
            }
        }
    }

    @Test("gallery says what it wrote without a terminal too")
    func galleryLine() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("gallery")
            let r = try Throbber.run(["gallery", out.path])
            #expect(r.status == 0)
            let images = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0 != "index.html" }
            #expect(r.stderrLines == ["wrote \(images.count) images and index.html to \(out.path)"], "\(r.stderrText)")
        }
    }
}
