import Foundation
import TestSupport
import Testing

/// `frames` configs go through the same pipeline as `encode`, and the
/// timeline options (`duplicate`, `bounce`, `delays`, `duration`) apply to
/// scenes and frame folders alike. Checked on the decoded GIF with Pillow.
@Suite("render: frame folders and timeline options", .tags(.slow))
struct RenderFramesTests {
    /// Checks that `gif` shows source j (of `refs`, in order) during 10 cs
    /// slots 2j and 2j+1: 60 sources → 120 slots of 10 cs, whether the encoder
    /// wrote 120 frames of 10 cs or merged the pairs into 60 of 20 cs.
    static func expectEachShownTwice(_ gif: URL, refs: [URL], sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let decoded = try Pillow.decode(gif)
        #expect(
            decoded.durations.reduce(0, +) == refs.count * 200, "total \(decoded.durations.reduce(0, +)) ms",
            sourceLocation: sourceLocation)
        let slots = try #require(
            decoded.framesPerSlot(100), "delays are not whole 10 cs slots: \(decoded.durations)",
            sourceLocation: sourceLocation)
        #expect(slots.count == 2 * refs.count, sourceLocation: sourceLocation)
        for j in 0..<min(refs.count, slots.count / 2) {
            #expect(
                slots[2 * j] == slots[2 * j + 1], "source \(j) is not shown twice in a row",
                sourceLocation: sourceLocation)
        }
        // Which source each GIF frame shows: the best PSNR match must be the
        // expected source (or one identical to it).
        let match = try Pillow.match(gif, against: refs)
        var slot = 0
        for (i, frame) in match.frames.enumerated() {
            let n = (frame.duration ?? 0) / 100
            let expected = slot / 2
            guard expected < refs.count else { break }
            let best = frame.psnr.max() ?? 0
            #expect(
                frame.psnr[expected] >= 35 && frame.psnr[expected] >= best - 0.01,
                "GIF frame \(i) (slot \(slot)) should show source \(expected + 1): PSNR \(frame.psnr[expected]), best \(best) at \(frame.psnr.firstIndex(of: best)! + 1)",
                sourceLocation: sourceLocation)
            slot += max(n, 1)
        }
    }

    @Test(
        "examples/dropdown.json: 60 files, each shown twice at 10 fps → 120 frames of 10 cs (or 60 of 20 cs), in natural order"
    )
    func dropdownExample() throws {
        let folder = SceneCLI.examples.appendingPathComponent("dropdown_anim")
        let refs = (1...60).map { folder.appendingPathComponent("dropdown_anim__000\($0)@2x.png") }
        try withTemporaryDirectory { dir in
            let gif = dir.appendingPathComponent("dropdown.gif")
            try SceneCLI.render(SceneCLI.examples.appendingPathComponent("dropdown.json"), to: gif)
            let decoded = try Pillow.decode(gif)
            #expect(decoded.width == 100 && decoded.height == 100)
            #expect(
                (decoded.frames.count == 120 && decoded.durations.allSatisfy { $0 == 100 })
                    || (decoded.frames.count == 60 && decoded.durations.allSatisfy { $0 == 200 }),
                "\(decoded.durations)")
            try Self.expectEachShownTwice(gif, refs: refs)
        }
    }

    @Test(
        "the same frames config on the real MJRefresh CgBI frames (glob 'dropdown_anim__*'): 1200 cs, each frame twice, natural order",
        .needsFixtures)
    func mjRefreshCgBI() throws {
        let folder = try Fixtures.url("mjrefresh-dropdown_anim")
        let refs = try (1...60).map { try Fixtures.mjNormalized($0) }
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                """
                {"version": 1, "frames": {"dir": "\(folder.path)", "glob": "\(Fixtures.mjAnimGlob)", "sort": "natural"},
                 "timing": {"fps": 10}, "duplicate": 2}
                """, to: dir, as: "dropdown.json")
            let gif = dir.appendingPathComponent("mj.gif")
            try SceneCLI.render(config, to: gif)
            #expect(try Pillow.decode(gif).width == 100)
            try Self.expectEachShownTwice(gif, refs: refs)
            // The same bytes as encode with the same settings.
            let encoded = dir.appendingPathComponent("encoded.gif")
            let r = try Throbber.run([
                "encode", folder.path, "--glob", Fixtures.mjAnimGlob, "--fps", "10", "--duplicate", "2", "-o",
                encoded.path, "-q",
            ])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try Data(contentsOf: gif) == (try Data(contentsOf: encoded)))
        }
    }

    @Test(
        "a frames config goes through the same pipeline as encode: the same bytes as `encode DIR --fps 10 --duplicate 2`"
    )
    func sameAsEncode() throws {
        try withTemporaryDirectory { dir in
            let viaRender = dir.appendingPathComponent("render.gif")
            let viaEncode = dir.appendingPathComponent("encode.gif")
            try SceneCLI.render(SceneCLI.examples.appendingPathComponent("dropdown.json"), to: viaRender)
            let r = try Throbber.run([
                "encode", SceneCLI.examples.appendingPathComponent("dropdown_anim").path, "--glob", "*.png",
                "--fps", "10", "--duplicate", "2", "-o", viaEncode.path, "-q",
            ])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try Data(contentsOf: viaRender) == (try Data(contentsOf: viaEncode)))
        }
    }

    @Test("\"sort\": \"name\" is plain byte order (__00010 … __00019 before __0001@2x, since '0' < '@')")
    func nameSort() throws {
        let folder = SceneCLI.examples.appendingPathComponent("dropdown_anim")
        // Byte order, computed here: compare the UTF-8 bytes.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(names.prefix(2) == ["dropdown_anim__00010@2x.png", "dropdown_anim__00011@2x.png"])
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                """
                {"version": 1, "frames": {"dir": "\(folder.path)", "glob": "*.png", "sort": "name"}, "timing": {"fps": 10}}
                """, to: dir, as: "byname.json")
            let gif = dir.appendingPathComponent("byname.gif")
            try SceneCLI.render(config, to: gif)
            let match = try Pillow.match(gif, against: names.map { folder.appendingPathComponent($0) }, sameIndex: true)
            #expect(match.frames.count == 60)
            for (i, f) in match.frames.enumerated() {
                #expect((f.psnr.first ?? 0) >= 35, "frame \(i) should show \(names[i]): \(f.psnr)")
            }
        }
    }

    /// Four distinct lossless frames f1…f4 (Pillow) in `dir/in`, with their hashes.
    static func fourFrames(in dir: URL) throws -> (folder: URL, hashes: [String]) {
        let folder = dir.appendingPathComponent("in")
        let files = try Pillow.makeFrames(Pillow.distinctFrames((1...4).map { "f\($0).png" }), in: folder)
        return (folder, try Pillow.hashes(of: files))
    }

    @Test("frames config: \"bounce\" plays 1 2 3 4 3 2 and an array \"duplicate\" repeats per source frame")
    func framesBounceAndDuplicateArray() throws {
        try withTemporaryDirectory { dir in
            let (_, h) = try Self.fourFrames(in: dir)
            let config = try SceneCLI.write(
                """
                {"version": 1, "frames": {"dir": "in"}, "timing": {"fps": 10}, "bounce": true, "duplicate": [1, 2, 1, 3]}
                """, to: dir, as: "frames.json")
            let gif = dir.appendingPathComponent("out.gif")
            try SceneCLI.render(config, to: gif)
            let slots = try #require(try Pillow.decode(gif).framesPerSlot(100))
            // Order 0 1 2 3 2 1, source i shown duplicate[i] times.
            let order = [0, 1, 2, 3, 2, 1]
            let dup = [1, 2, 1, 3]
            #expect(slots == order.flatMap { Array(repeating: h[$0], count: dup[$0]) })
        }
    }

    @Test("frames config: \"delays\" gives each frame its own centiseconds, overriding fps")
    func framesDelays() throws {
        try withTemporaryDirectory { dir in
            let (_, h) = try Self.fourFrames(in: dir)
            let config = try SceneCLI.write(
                """
                {"version": 1, "frames": {"dir": "in", "delays": [7, 30, 2, 50]}, "timing": {"fps": 25}}
                """, to: dir, as: "frames.json")
            let gif = dir.appendingPathComponent("out.gif")
            try SceneCLI.render(config, to: gif)
            let decoded = try Pillow.decode(gif)
            #expect(decoded.hashes == h)
            #expect(decoded.durations == [70, 300, 20, 500])
        }
    }

    /// Merges consecutive entries showing the same source: what a GIF shows
    /// when identical neighbours are merged. Entries last 2.5 cs each (40 fps):
    /// entry j starts at floor(2.5·j + 1/2) cs.
    static func mergedDelaysMs(sources: [Int]) -> [Int] {
        func start(_ j: Int) -> Int { (5 * j + 1) / 2 }
        var out: [Int] = []
        var j = 0
        while j < sources.count {
            var e = j
            while e < sources.count && sources[e] == sources[j] { e += 1 }
            out.append((start(e) - start(j)) * 10)
            j = e
        }
        return out
    }

    /// The decoded frames with identical neighbours joined: (hash, ms) runs.
    static func collapsed(_ d: Pillow.DecodedGIF) -> (hashes: [String], durations: [Int]) {
        var hashes: [String] = []
        var durations: [Int] = []
        for f in d.frames {
            if hashes.last == f.sha256 {
                durations[durations.count - 1] += f.duration ?? 0
                continue
            }
            hashes.append(f.sha256)
            durations.append(f.duration ?? 0)
        }
        return (hashes, durations)
    }

    static func dots(_ extra: String) -> String {
        RenderSeedTests.gqConfig.replacingOccurrences(
            of: #""timing": {"fps": 40},"#, with: #""timing": {"fps": 40}, \#(extra),"#)
    }

    /// Renders the plain dots scene and the dots scene with `extra` timing
    /// members; returns the plain frames' hashes and the variant collapsed.
    static func plainAndVariant(_ extra: String, in dir: URL) throws
        -> (forward: [String], variant: (hashes: [String], durations: [Int]))
    {
        let plain = try SceneCLI.write(RenderSeedTests.gqConfig, to: dir, as: "dots.json")
        let variant = try SceneCLI.write(dots(extra), to: dir, as: "variant.json")
        try SceneCLI.render(plain, to: dir.appendingPathComponent("plain.gif"))
        try SceneCLI.render(variant, to: dir.appendingPathComponent("variant.gif"))
        let forward = try Pillow.decode(dir.appendingPathComponent("plain.gif")).hashes
        return (forward, collapsed(try Pillow.decode(dir.appendingPathComponent("variant.gif"))))
    }

    @Test("a scene with \"bounce\": 30 frames forward then 28 back, no repeated end frames")
    func sceneBounce() throws {
        try withTemporaryDirectory { dir in
            let (forward, b) = try Self.plainAndVariant(#""bounce": true"#, in: dir)
            #expect(forward.count == 30 && Set(forward).count == 30)
            #expect(b.hashes == forward + forward[1..<29].reversed())
            let order = Array(0..<30) + Array((1..<29).reversed())
            #expect(b.durations == Self.mergedDelaysMs(sources: order))
        }
    }

    @Test("a scene with \"duplicate\": 2 shows every frame twice (merged: 5 cs each, 150 cs in all)")
    func sceneDuplicate() throws {
        try withTemporaryDirectory { dir in
            let (forward, d) = try Self.plainAndVariant(#""duplicate": 2"#, in: dir)
            #expect(d.hashes == forward)
            #expect(d.durations == Array(repeating: 50, count: 30))
            #expect(d.durations == Self.mergedDelaysMs(sources: (0..<30).flatMap { [$0, $0] }))
        }
    }

    @Test("a scene with an array \"duplicate\" repeats each frame its own number of times")
    func sceneDuplicateArray() throws {
        try withTemporaryDirectory { dir in
            let counts = (0..<30).map { $0 % 3 + 1 }
            let (forward, d) = try Self.plainAndVariant(#""duplicate": \#(counts)"#, in: dir)
            #expect(d.hashes == forward)
            let sources = counts.enumerated().flatMap { Array(repeating: $0.offset, count: $0.element) }
            #expect(d.durations == Self.mergedDelaysMs(sources: sources))
            #expect(d.durations.reduce(0, +) == 1500)  // 60 entries of 2.5 cs
        }
    }

    @Test(
        "\"timing.duration\" overrides the cycle: 1.5 s of the 0.75 s dots is 60 frames whose second half repeats the first"
    )
    func durationOverride() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                RenderSeedTests.gqConfig.replacingOccurrences(
                    of: #""timing": {"fps": 40}"#,
                    with: #""timing": {"fps": 40, "duration": 1.5}"#),
                to: dir, as: "long.json")
            let gif = dir.appendingPathComponent("long.gif")
            try SceneCLI.render(config, to: gif)
            let d = try Pillow.decode(gif)
            #expect(d.frames.count == 60)
            #expect(d.durations == SceneCLI.expectedDelaysMs(frames: 60, durationNumerator: 3, denominator: 2))
            #expect(Array(d.hashes[30...]) == Array(d.hashes[..<30]))
            #expect(Set(d.hashes[..<30]).count == 30)
        }
    }
}
