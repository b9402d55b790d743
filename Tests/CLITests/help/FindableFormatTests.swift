import Foundation
import TestSupport
import Testing

/// Every output format can be found from `throbber --help`, the `--fps`
/// default says what each input keeps, and an output named without `-o`
/// is suggested back.
@Suite("Formats and outputs are findable")
struct FindableFormatTests {
    /// What Throbber writes, and the extensions that choose each.
    static let outputs = [
        "GIF", "APNG", "WebP", "SVG", "Lottie", "dotLottie", ".gif", ".png", ".apng", ".webp", ".svg", ".json",
        ".lottie",
    ]

    @Test("throbber --help names every output format and its extension")
    func rootHelpFormats() throws {
        let r = try Throbber.run(["--help"])
        #expect(r.status == 0)
        for word in Self.outputs { #expect(r.stdoutText.contains(word), "--help does not mention \(word)") }
        #expect(r.stdoutText.contains("FORMATS:"), "\(r.stdoutText)")
    }

    @Test("encode --help: --fps keeps a video's, a Lottie file's and a stream's own rate; 25 for images")
    func fpsDefault() throws {
        let help = try Throbber.run(["encode", "--help"]).stdoutText
        let fps = helpSection("OPTIONS:", in: help).drop { !$0.contains("--fps") }.prefix { !$0.contains("--delay") }
            .joined(separator: " ").split(separator: " ").joined(separator: " ")
        for part in ["Videos", "Lottie files", "YUV4MPEG2 streams", "(default: the input's own rate; 25 for still"] {
            #expect(fps.contains(part), "\(part) missing from: \(fps)")
        }
        #expect(!fps.contains("(default: 25)"), "\(fps)")
    }

    @Test(
        "a last argument that names an output, without -o, is suggested as -o",
        arguments: [
            ["encode", "IN", "out.gif"], ["encode", "IN", "out.webp"], ["render", "CONFIG", "out.svg"],
            ["preset", "ring", "ring.lottie"],
        ])
    func missingOutput(_ args: [String]) throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png"]), in: dir)
            let config = dir.appendingPathComponent("ring.json")
            let printed = try Throbber.run(["preset", "ring", "--print-config"])
            #expect(printed.status == 0, "\(printed.stderrText)")
            try printed.stdout.write(to: config)
            let line = args.map { $0 == "IN" ? frames[0].path : $0 == "CONFIG" ? config.path : $0 }
            let r = try Throbber.run(line, in: dir)
            let out = line[line.count - 1]
            let command = line.dropLast().joined(separator: " ")
            expectUsageError(
                r, command: args[0], mentions: ["did you mean `-o \(out)`", "(throbber \(command) -o \(out))"])
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(out).path))
        }
    }

    @Test("an existing file as the last argument is not suggested as the output (it may be an input)")
    func existingLast() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir)
            let r = try Throbber.run(["encode", frames[0].path, frames[1].path])
            expectUsageError(r, command: "encode", mentions: ["no output given", "-o OUT.gif"])
            #expect(!r.stderrText.contains("did you mean"))
        }
    }
}
