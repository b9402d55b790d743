import Foundation
import TestSupport
import Testing

@Suite("encode - : broken, empty and oversized streams", .tags(.slow))
struct StreamErrorTests {
    /// Runs `encode - -o out.gif` on `bytes`; the output must not exist after a failure.
    func encode(_ bytes: Data, in dir: URL, _ extra: [String] = []) throws -> CommandResult {
        let input = dir.appendingPathComponent("stdin.bin")
        try bytes.write(to: input)
        let out = dir.appendingPathComponent("out.gif")
        let r = try StreamSupport.run(["encode", "-", "-o", out.path] + extra, stdin: input)
        if r.status != 0 { #expect(!FileManager.default.fileExists(atPath: out.path), "output left behind") }
        return r
    }

    /// Five testsrc2 frames as a PNG stream, and where each file ends.
    func pngStream(in dir: URL) throws -> (Data, [Int]) {
        let folder = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try StreamSupport.ffmpeg(
            StreamSupport.testsrc("64x48", count: 5) + [folder.appendingPathComponent("%02d.png").path])
        var data = Data()
        var ends: [Int] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            data += try Data(contentsOf: folder.appendingPathComponent(name))
            ends.append(data.count)
        }
        return (data, ends)
    }

    /// Four testsrc2 frames as 4:2:0 YUV4MPEG2.
    func y4mStream(in dir: URL) throws -> Data {
        let y4m = dir.appendingPathComponent("in.y4m")
        try StreamSupport.ffmpeg(StreamSupport.testsrc("64x48", count: 4) + ["-f", "yuv4mpegpipe", y4m.path])
        return try Data(contentsOf: y4m)
    }

    @Test("a PNG stream cut inside frame 4 exits 65 naming frame 4; nothing is written")
    func truncatedPNG() throws {
        try withTemporaryDirectory { dir in
            let (data, ends) = try pngStream(in: dir)
            for cut in [ends[2] + 3, ends[2] + 40, ends[3] - 1] {
                let r = try encode(data.prefix(cut), in: dir)
                expectFailure(r, status: 65, names: ["standard input", "frame 4", "truncated"])
            }
        }
    }

    @Test("bytes after the last PNG that are not a PNG exit 65 naming the frame they would be")
    func garbageAfterPNG() throws {
        try withTemporaryDirectory { dir in
            let (data, _) = try pngStream(in: dir)
            for tail in ["x", "garbage after the frames\n"] {
                let r = try encode(data + Data(tail.utf8), in: dir)
                expectFailure(r, status: 65, names: ["standard input", "frame 6"])
            }
        }
    }

    @Test("a YUV4MPEG2 stream with a short frame 3, or garbage after its frames, exits 65 naming the frame")
    func brokenY4M() throws {
        try withTemporaryDirectory { dir in
            let data = try y4mStream(in: dir)
            let frameBytes = 64 * 48 * 3 / 2 + 6
            let header = data.count - 4 * frameBytes
            let short = try encode(data.prefix(header + 2 * frameBytes + 100), in: dir)
            expectFailure(short, status: 65, names: ["standard input", "frame 3", "truncated"])
            let cutTag = try encode(data.prefix(header + 2 * frameBytes + 3), in: dir)
            expectFailure(cutTag, status: 65, names: ["standard input", "frame 3", "truncated"])
            let garbage = try encode(data + Data("trailing junk".utf8), in: dir)
            expectFailure(garbage, status: 65, names: ["standard input", "frame 5"])
        }
    }

    @Test("YUV4MPEG2 streams Throbber cannot read are refused by their header")
    func unsupportedY4M() throws {
        try withTemporaryDirectory { dir in
            let frame = Data("FRAME\n".utf8) + Data(count: 16 * 16 * 3)
            for (header, words) in [
                ("YUV4MPEG2 W16 H16 F25:1 C420p10", ["8-bit", "-pix_fmt"]),
                ("YUV4MPEG2 W16 H16 F25:1 C411", ["C411", "-pix_fmt"]),
                ("YUV4MPEG2 W16 H16 F25:1 C444alpha", ["C444alpha"]),
                ("YUV4MPEG2 H16 F25:1 C420jpeg", ["no frame size"]),
                ("YUV4MPEG2 W20000 H16 F25:1", ["20000x16"]),
            ] {
                let r = try encode(Data((header + "\n").utf8) + frame, in: dir)
                expectFailure(r, status: 65, names: ["standard input"] + words)
            }
        }
    }

    @Test("an empty stream exits 66; bytes that are no stream exit 65; both say how to pipe frames")
    func emptyAndUnknown() throws {
        try withTemporaryDirectory { dir in
            expectFailure(try encode(Data(), in: dir), status: 66, names: ["standard input", "image2pipe"])
            let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: 64)
            expectFailure(try encode(jpeg, in: dir), status: 65, names: ["standard input", "yuv4mpegpipe"])
            let header = try encode(Data("YUV4MPEG2 W16 H16 F25:1\n".utf8), in: dir)
            expectFailure(header, status: 66, names: ["standard input", "no frames"])
        }
    }

    @Test("a stream over the frame limit is refused at frame 10001, before it is encoded")
    func frameLimit() throws {
        try withTemporaryDirectory { dir in
            let one = dir.appendingPathComponent("one")
            try Pillow.makeFrames([Pillow.Frame("dot.png", width: 1, height: 1, color: [9, 9, 9, 255])], in: one)
            let png = try Data(contentsOf: one.appendingPathComponent("dot.png"))
            var data = Data()
            for _ in 0..<10_001 { data += png }
            let r = try encode(data, in: dir)
            expectFailure(r, status: 65, names: ["standard input", "frame 10001", "10000 frames"])
        }
    }

    @Test("'-' mixed with files, and '-' on a terminal, are usage errors")
    func usage() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png"]), in: dir.appendingPathComponent("in"))
            let out = dir.appendingPathComponent("out.gif").path
            let mixed = try Throbber.run(["encode", "-", frames[0].path, "-o", out])
            #expect(mixed.status == 64)
            #expect(mixed.stderrText.contains("only input"), "\(mixed.stderrText)")
            let tty = try ProgressTests.runOnTerminal(["encode", "-", "-o", out])
            #expect(tty.status == 64)
            #expect(tty.stdoutText.contains("terminal") && tty.stdoutText.contains("image2pipe"), "\(tty.stdoutText)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
