import Foundation
import TestSupport
import Testing

/// Headers that claim more than their data holds (docs/reliability.md,
/// "Memory" and "Streams"): a JPEG whose SOF claims 16000x16000, corrupt
/// JPEG data, a YUV4MPEG2 header for frames the budget cannot hold or a
/// frame rate out of range. Each is refused from what it claims, at once,
/// with a small peak RSS, naming the file or stream.
@Suite("Header bombs: JPEG SOF and scan data, YUV4MPEG2 and PNG stream headers", .tags(.slow))
struct HeaderBombTests {
    /// Writes a 256x256 noise JPEG with Pillow (progressive or baseline),
    /// then applies `edit` to its bytes: the offset of the SOF segment's
    /// height field and of the first SOS marker are given.
    static func jpeg(
        _ url: URL, progressive: Bool, edit: (inout [UInt8], _ sofSize: Int, _ sos: Int) -> Void
    ) throws {
        let script = """
            import sys
            from PIL import Image
            Image.effect_noise((256, 256), 60).convert('RGB').save(sys.argv[1], quality=90, progressive=\(progressive ? "True" : "False"))
            """
        let made = try Command.run(Pillow.python, ["-c", script, url.path])
        guard made.status == 0 else { throw HarnessError("Pillow: \(made.stderrText)") }
        var bytes = [UInt8](try Data(contentsOf: url))
        var p = 2
        var sof = 0
        while p + 4 <= bytes.count, bytes[p] == 0xFF, bytes[p + 1] != 0xDA {
            if bytes[p + 1] == 0xC0 || bytes[p + 1] == 0xC2 { sof = p + 5 }
            p += 2 + Int(bytes[p + 2]) << 8 + Int(bytes[p + 3])
        }
        guard sof > 0, bytes[p + 1] == 0xDA else { throw HarnessError("no SOF or SOS in Pillow's JPEG") }
        edit(&bytes, sof, p)
        try Data(bytes).write(to: url)
    }

    /// Peak RSS (KB) and the result of `script` run in bash in `dir`
    /// under `/usr/bin/time -f %M` (the script names the binary "$RUN").
    static func measuredShell(_ script: String, in dir: URL) throws -> (result: CommandResult, kilobytes: Int) {
        let report = dir.appendingPathComponent("time.txt")
        let r = try Hostile.shell(
            "RUN=\"/usr/bin/time -o \(report.path) -f %M $THROBBER\"; \(script)", in: dir, timeout: 60)
        let text = String(decoding: try Data(contentsOf: report), as: UTF8.self)
        guard let kb = text.split(separator: "\n").last.flatMap({ Int($0) }) else {
            throw HarnessError("/usr/bin/time gave \(text)")
        }
        try FileManager.default.removeItem(at: report)
        return (r, kb)
    }

    @Test(
        "a 600-byte JPEG whose SOF claims 16000x16000 exits 65 at once, small peak RSS, nothing written",
        arguments: [false, true])
    func jpegSizeBomb(progressive: Bool) throws {
        try withTemporaryDirectory { dir in
            let bomb = dir.appendingPathComponent("bomb.jpg")
            try Self.jpeg(bomb, progressive: progressive) { bytes, sof, _ in
                bytes[sof..<(sof + 4)] = [0x3E, 0x80, 0x3E, 0x80]  // 16000 high, 16000 wide
                bytes.removeLast(bytes.count - 600)
            }
            let m = try APNGCLITests.measured([
                "encode", bomb.path, "-o", dir.appendingPathComponent("o.gif").path, "-q",
            ])
            expectFailure(m.result, status: 65, names: [bomb.path, "not a valid JPEG"])
            #expect(m.seconds < 3, "took \(m.seconds) s")
            #expect(m.kilobytes < 200 * 1024, "peak RSS \(m.kilobytes) KB")
            #expect(try listing(dir) == ["bomb.jpg"])
            // Within a budget its header alone is refused, before decoding.
            let r = try Throbber.run([
                "encode", bomb.path, "-o", dir.appendingPathComponent("o.gif").path, "--max-memory", "500M",
            ])
            expectFailure(r, status: 65, names: [bomb.path, "16000x16000", "of memory", "(500 MB)"])
            #expect(try listing(dir) == ["bomb.jpg"])
        }
    }

    @Test("a JPEG with 200 bytes of its scan data zeroed exits 65 naming the file (corrupt data is no warning)")
    func jpegZeroedScan() throws {
        try withTemporaryDirectory { dir in
            let broken = dir.appendingPathComponent("zeroed.jpg")
            try Self.jpeg(broken, progressive: false) { bytes, _, sos in
                bytes.replaceSubrange((sos + 200)..<(sos + 400), with: [UInt8](repeating: 0, count: 200))
            }
            let r = try Throbber.run(["encode", broken.path, "-o", dir.appendingPathComponent("o.gif").path])
            expectFailure(r, status: 65, names: [broken.path, "Corrupt JPEG data"])
            #expect(try listing(dir) == ["zeroed.jpg"])
        }
    }

    @Test("a YUV4MPEG2 header for 4096x4096 frames over --max-memory 64M is refused before any frame is read")
    func y4mHeaderOverBudget() throws {
        try withTemporaryDirectory { dir in
            let tmp = dir.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
            // Endless frame data: only the header can decide.
            let m = try Self.measuredShell(
                """
                (printf 'YUV4MPEG2 W4096 H4096 F25:1 C420jpeg\\nFRAME\\n'; cat /dev/zero) | \
                TMPDIR=tmp $RUN encode - -o o.gif --max-memory 64M
                """, in: dir)
            expectFailure(
                m.result, status: 65, names: ["standard input", "YUV4MPEG2", "4096x4096", "header", "(64 MB)"])
            #expect(m.kilobytes < 200 * 1024, "peak RSS \(m.kilobytes) KB")
            #expect(try listing(dir) == ["tmp"])
            #expect(try listing(tmp) == [])
        }
    }

    @Test("a PNG stream whose first IHDR is over --max-memory 64M is refused before the rest is read")
    func pngStreamHeaderOverBudget() throws {
        try withTemporaryDirectory { dir in
            try MemoryBudgetTests.makePNGs([("big.png", 4096, 4096, "flat")], in: dir.appendingPathComponent("in"))
            let m = try Self.measuredShell(
                "(cat in/big.png; cat /dev/zero) | $RUN encode - -o o.gif --max-memory 64M", in: dir)
            expectFailure(m.result, status: 65, names: ["standard input", "4096x4096", "IHDR", "(64 MB)"])
            #expect(m.kilobytes < 200 * 1024, "peak RSS \(m.kilobytes) KB")
            #expect(try listing(dir) == ["in"])
        }
    }

    @Test(
        "a YUV4MPEG2 frame rate out of range is bad data naming the header field, not a usage error",
        arguments: ["F1000000000:1", "F1001:1", "F1:10000000"])
    func y4mRateOutOfRange(_ field: String) throws {
        try withTemporaryDirectory { dir in
            let stream = dir.appendingPathComponent("in.y4m")
            try (Data("YUV4MPEG2 W16 H16 \(field) C420jpeg\nFRAME\n".utf8) + Data(count: 16 * 16 * 3 / 2))
                .write(to: stream)
            for format in ["gif", "webp"] {
                let r = try StreamSupport.run(
                    ["encode", "-", "-o", dir.appendingPathComponent("o.\(format)").path], stdin: stream)
                expectFailure(
                    r, status: 65, names: ["standard input: YUV4MPEG2 header \(field): frame rate", "out of range"])
                #expect(!r.stderrText.contains("--fps"), "\(r.stderrText)")
            }
            #expect(try listing(dir) == ["in.y4m"])
        }
    }

    @Test("a YUV4MPEG2 FRAME line, or header line, over 4096 bytes is too long, not truncated")
    func y4mLongLines() throws {
        try withTemporaryDirectory { dir in
            let stream = dir.appendingPathComponent("in.y4m")
            let long = Data(repeating: 0x20, count: 5000)
            let frame = Data(count: 16 * 16 * 3 / 2)
            let cases: [(Data, [String])] = [
                (
                    Data("YUV4MPEG2 W16 H16 F25:1\nFRAME\n".utf8) + frame + Data("FRAME".utf8) + long + Data("\n".utf8)
                        + frame, ["frame 2", "FRAME header is too long", "at most 4096 bytes"]
                ),
                (Data("YUV4MPEG2 W16 H16 F25:1".utf8) + long, ["header line is too long", "at most 4096 bytes"]),
            ]
            for (bytes, words) in cases {
                try bytes.write(to: stream)
                let r = try StreamSupport.run(
                    ["encode", "-", "-o", dir.appendingPathComponent("o.gif").path], stdin: stream)
                expectFailure(r, status: 65, names: ["standard input"] + words)
                #expect(!r.stderrText.contains("truncated"), "\(r.stderrText)")
            }
            #expect(try listing(dir) == ["in.y4m"])
        }
    }
}
