import Foundation
import TestSupport
import Testing

/// Runs `throbber encode` and returns the output decoded by Pillow, plus
/// giflib's `gifbuild -d` dump of the same file.
func encodeAndDecode(_ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> (
    gif: Pillow.DecodedGIF, dump: String
) {
    try withTemporaryDirectory { dir in
        let out = dir.appendingPathComponent("out.gif")
        let r = try Throbber.run(["encode"] + args + ["-o", out.path])
        #expect(r.status == 0, "\(r.stderrText)", sourceLocation: sourceLocation)
        // Nothing but the summary line (no warning).
        #expect(
            r.stdout.isEmpty && r.stderrLines.count == 1 && r.stderrText.hasPrefix("wrote \(out.path): GIF "),
            "unexpected output: \(r.stdoutText)\(r.stderrText)", sourceLocation: sourceLocation)
        let dump = try Command.run(URL(fileURLWithPath: "/usr/bin/gifbuild"), ["-d", out.path]).stdoutText
        return (try Pillow.decode(out), dump)
    }
}

/// `n` distinct generated frames in a fresh folder, passed to `body` with their hashes.
func withDistinctFrames<T>(_ n: Int, _ body: (URL, [String]) throws -> T) throws -> T {
    try withTemporaryDirectory { dir in
        let folder = dir.appendingPathComponent("in")
        let frames = try Pillow.makeFrames(Pillow.distinctFrames((1...n).map { "f\($0).png" }), in: folder)
        return try body(folder, try Pillow.hashes(of: frames))
    }
}

@Suite("Timing and looping, read back with Pillow")
struct TimingTests {
    @Test(
        "--fps 10 --duplicate 2 on the 60 MJRefresh frames lasts 1200 cs: 55 frames, each run of identical source frames shown 20 cs per frame",
        .needsFixtures)
    func mjRefreshDuplicate() throws {
        let folder = try Fixtures.url("mjrefresh-dropdown_anim")
        let (gif, _) = try encodeAndDecode([
            folder.path, "--glob", Fixtures.mjAnimGlob, "--fps", "10", "--duplicate", "2",
        ])
        #expect(gif.width == 100 && gif.height == 100)
        #expect(gif.durations.reduce(0, +) == 12_000)
        // Pillow's hashes of the standard-PNG copies, in frame order: runs of
        // identical neighbours (frames 37–39, 40–42 and 43–44 repeat, so 55
        // runs) are merged, each shown 2 × 10 cs per source frame. (The GIF
        // thresholds their partial alpha, so its pixels are not compared here.)
        let sources = try Pillow.hashes(of: (1...60).map { try Fixtures.mjNormalized($0) })
        var runs: [(hash: String, count: Int)] = []
        for h in sources {
            if runs.last?.hash == h { runs[runs.count - 1].count += 1 } else { runs.append((h, 1)) }
        }
        #expect(runs.count == 55, "\(runs.count) runs of identical source frames")
        #expect(gif.frames.count == runs.count, "\(gif.frames.count) frames, expected one per run (\(runs.count))")
        #expect(gif.durations == runs.map { 200 * $0.count }, "\(gif.durations)")
    }

    @Test("--fps 30 gives delays of floor(100·k/30 + 1/2) differences: 3,4,3 … adding up to 100 cs per 30 frames")
    func fps30() throws {
        try withDistinctFrames(60) { folder, hashes in
            let (gif, dump) = try encodeAndDecode([folder.path, "--fps", "30"])
            #expect(gif.hashes == hashes)
            let expected = Array(repeating: [30, 40, 30], count: 20).flatMap { $0 }
            #expect(gif.durations == expected)
            #expect(gif.durations.prefix(30).reduce(0, +) == 1000 && gif.durations.reduce(0, +) == 2000)
            #expect(
                dump.components(separatedBy: "\tdelay 4\n").count - 1 == 20,
                "giflib disagrees: 20 delays of 4 cs expected")
        }
    }

    @Test("--fps 30000/1001 is exact: every start is floor(100·k·1001/30000 + 1/2) cs")
    func ntscFraction() throws {
        try withDistinctFrames(45) { folder, hashes in
            let (gif, _) = try encodeAndDecode([folder.path, "--fps", "30000/1001"])
            #expect(gif.hashes == hashes)
            // floor(x + 1/2) with x = 100·k·1001/30000, in integers.
            let starts = (0...45).map { k in (2 * 100 * k * 1001 + 30000) / 60000 }
            let expected = (0..<45).map { (starts[$0 + 1] - starts[$0]) * 10 }
            #expect(gif.durations == expected)
            #expect(gif.durations.reduce(0, +) == 1500)  // 45 frames last 150.15 cs, rounded once: 150 cs
        }
    }

    @Test("the default is 25 fps: 4 cs per frame")
    func defaultRate() throws {
        try withDistinctFrames(5) { folder, hashes in
            let (gif, _) = try encodeAndDecode([folder.path])
            #expect(gif.hashes == hashes)
            #expect(gif.durations == [40, 40, 40, 40, 40])
        }
    }

    @Test("--delay 7 shows every frame 7 cs, whatever --fps says")
    func fixedDelay() throws {
        try withDistinctFrames(4) { folder, hashes in
            let (gif, dump) = try encodeAndDecode([folder.path, "--delay", "7", "--fps", "50"])
            #expect(gif.hashes == hashes)
            #expect(gif.durations == [70, 70, 70, 70])
            #expect(dump.components(separatedBy: "\tdelay 7\n").count - 1 == 4)
        }
    }

    @Test("--bounce plays forward then backward without repeating the end frames")
    func bounce() throws {
        try withDistinctFrames(4) { folder, h in
            let (gif, _) = try encodeAndDecode([folder.path, "--bounce", "--delay", "5"])
            #expect(gif.hashes == [h[0], h[1], h[2], h[3], h[2], h[1]])
            #expect(gif.durations == Array(repeating: 50, count: 6))
        }
    }

    @Test("--duplicate 3 shows each frame three steps; the repeats merge into one frame of the summed delay")
    func duplicateMerges() throws {
        try withDistinctFrames(3) { folder, hashes in
            let (gif, _) = try encodeAndDecode([folder.path, "--duplicate", "3", "--fps", "20"])
            #expect(gif.hashes == hashes)
            #expect(gif.durations == [150, 150, 150])
        }
    }

    @Test("identical neighbouring input frames merge into one GIF frame whose delay is their sum")
    func identicalNeighboursMerge() throws {
        try withTemporaryDirectory { dir in
            let f = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir)
            let (gif, _) = try encodeAndDecode([f[0].path, f[0].path, f[0].path, f[1].path, f[0].path, "--delay", "10"])
            #expect(gif.hashes == (try Pillow.hashes(of: [f[0], f[1], f[0]])))
            #expect(gif.durations == [300, 100, 100])
        }
    }

    @Test("--loop 0 (and the default) writes NETSCAPE loop count 0: forever", arguments: [["--loop", "0"], []])
    func loopForever(_ loop: [String]) throws {
        try withDistinctFrames(2) { folder, _ in
            let (gif, dump) = try encodeAndDecode([folder.path] + loop)
            #expect(gif.loop == 0)
            #expect(dump.contains("netscape loop 0\n"))
        }
    }

    @Test("--loop 1 plays once: no NETSCAPE extension, so Pillow has no 'loop'")
    func loopOnce() throws {
        try withDistinctFrames(2) { folder, _ in
            let (gif, dump) = try encodeAndDecode([folder.path, "--loop", "1"])
            #expect(gif.loop == nil)
            #expect(!dump.lowercased().contains("netscape"), "\(dump.prefix(300))")
            #expect(gif.frames.count == 2)
        }
    }
}
