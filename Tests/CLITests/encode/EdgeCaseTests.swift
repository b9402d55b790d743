import Foundation
import TestSupport
import Testing

/// Merges runs of equal frame hashes, adding their durations: what a viewer
/// sees, however the encoder split or merged frames.
func shownRuns(_ gif: Pillow.DecodedGIF) -> [(hash: String, ms: Int)] {
    var runs: [(hash: String, ms: Int)] = []
    for f in gif.frames {
        if runs.last?.hash == f.sha256 {
            runs[runs.count - 1].ms += f.duration ?? 0
        } else {
            runs.append((f.sha256, f.duration ?? 0))
        }
    }
    return runs
}

@Suite("Edge cases of timing, alpha and extreme values")
struct EdgeCaseTests {
    @Test(
        "--loop N writes NETSCAPE repeat count N-1 (Pillow's 'loop'), up to the 16-bit maximum",
        arguments: [(2, 1), (3, 2), (65535, 65534), (65536, 65535)])
    func loopCounts(_ loop: Int, _ repeats: Int) throws {
        try withDistinctFrames(2) { folder, _ in
            let (gif, dump) = try encodeAndDecode([folder.path, "--loop", String(loop)])
            #expect(gif.loop == repeats)
            #expect(dump.contains("netscape loop \(repeats)\n"))
        }
    }

    @Test(
        "identical neighbours whose summed delay exceeds 65535 cs still encode, showing each image as long as asked",
        arguments: [["a", "a", "b", "--delay", "40000"], ["a", "--delay", "65535", "--duplicate", "2"]])
    func longMergedFrames(_ spec: [String]) throws {
        try withTemporaryDirectory { dir in
            let f = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir)
            let args = spec.map { $0 == "a" ? f[0].path : $0 == "b" ? f[1].path : $0 }
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode"] + args + ["-o", out.path])
            #expect(r.status == 0, "valid options were refused: \(r.stderrText)")
            guard r.status == 0 else { return }
            let gif = try Pillow.decode(out)
            let h = try Pillow.hashes(of: f)
            let expected = spec.contains("b") ? [(h[0], 800_000), (h[1], 400_000)] : [(h[0], 1_310_700)]
            #expect(shownRuns(gif).map(\.hash) == expected.map(\.0))
            #expect(shownRuns(gif).map(\.ms) == expected.map(\.1))
            #expect(gif.durations.allSatisfy { $0 <= 655_350 })
        }
    }

    @Test(
        "an --fps fraction with huge terms is encoded or refused (64), never a crash that leaves a temporary file",
        arguments: ["9223372036854775807/9223372036854775806", "1/4611686018427387904", "1/92233720368547758"])
    func hugeFraction(_ fps: String) throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("in"))
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", out.path, "--fps", fps])
            #expect(r.status == 0 || r.status == 64, "exit \(r.status): \(r.stderrText.prefix(300))")
            if r.status == 64 {
                #expect(r.stderrLines.first?.hasPrefix("throbber: error: ") == true)
                #expect(try listing(dir) == ["in"], "files left behind")
            } else if r.status == 0 {
                #expect(try Pillow.decode(out).frames.count == 2)
                #expect(try listing(dir) == ["in", "out.gif"])
            } else {
                #expect(try listing(dir) == ["in"], "files left behind")
            }
        }
    }

    /// One row: opaque red at alpha 200, red at alpha 100, opaque green, fully transparent.
    static let alphaRow: [Int] = [255, 0, 0, 200, 255, 0, 0, 100, 0, 255, 0, 255, 0, 0, 0, 0]

    static func encodeAlphaRow(_ extra: [String]) throws -> [[Int]] {
        try withTemporaryDirectory { dir in
            let frame = Pillow.Frame(
                "a.png", width: 4, height: 1, color: [0, 0, 0, 0],
                marks: (0..<4).map { [$0, 0, 1, 1] + Array(alphaRow[($0 * 4)..<($0 * 4 + 4)]) })
            let input = try Pillow.makeFrames([frame], in: dir)[0]
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", input.path, "-o", out.path] + extra)
            #expect(r.status == 0, "\(r.stderrText)")
            let dumpDir = dir.appendingPathComponent("dump")
            try FileManager.default.createDirectory(at: dumpDir, withIntermediateDirectories: false)
            _ = try Pillow.script("decode_gif.py", [out.path, "--dump", dumpDir.path])
            let bytes = [UInt8](try Data(contentsOf: dumpDir.appendingPathComponent("frame_0000.rgba")))
            return stride(from: 0, to: bytes.count, by: 4).map { bytes[$0..<($0 + 4)].map(Int.init) }
        }
    }

    @Test("without --matte, alpha ≥ 50% becomes opaque and the rest transparent")
    func alphaCut() throws {
        let px = try Self.encodeAlphaRow([])
        #expect(px == [[255, 0, 0, 255], [0, 0, 0, 0], [0, 255, 0, 255], [0, 0, 0, 0]])
    }

    @Test(
        "--matte composites partly transparent pixels onto the color; fully transparent pixels stay transparent",
        arguments: ["#0000ff", "blue"])
    func matte(_ color: String) throws {
        let px = try Self.encodeAlphaRow(["--matte", color])
        #expect(px.count == 4)
        guard px.count == 4 else { return }
        // red·a + blue·(1-a): a = 200/255 → (200, 0, 55); a = 100/255 → (100, 0, 155).
        for (got, want) in zip([px[0], px[1]], [[200, 0, 55, 255], [100, 0, 155, 255]]) {
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1 }, "got \(got), want \(want)")
        }
        #expect(px[2] == [0, 255, 0, 255])
        #expect(px[3] == [0, 0, 0, 0])
    }
}
