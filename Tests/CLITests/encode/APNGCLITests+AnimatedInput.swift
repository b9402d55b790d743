import Foundation
import TestSupport
import Testing

extension APNGCLITests {
    // MARK: Animated input

    static func fixtureFiles(_ folder: String, _ suffixes: [String]) -> [String] {
        let dir = Fixtures.root.appendingPathComponent(folder).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { n in suffixes.contains { n.hasSuffix($0) } }.sorted().map { "\(folder)/\($0)" }
    }

    static let invalidAPNG = AnimationFixtures.invalidAPNG
    static let invalidGIF = AnimationFixtures.invalidGIF

    static let validAPNG = AnimationFixtures.apngFolders
        .flatMap { fixtureFiles($0, [".png", ".apng"]) }.filter { !invalidAPNG.contains($0) }
    /// All valid GIFs but the two largest (several minutes of debug-build
    /// encoding; the library tests decode them).
    static let validGIF = ["gif-giflib", "gif-image-gif", "gif-pillow"].flatMap { fixtureFiles($0, [".gif"]) }
        .filter {
            !invalidGIF.contains($0) && !$0.hasSuffix("sample_big.gif") && !$0.hasSuffix("gifplayer-muybridge.gif")
        }

    @Test(
        "the fixture lists are complete: 99 valid APNG files and 55 valid GIF files (all 57 but the two largest)",
        .needsFixtures)
    func fixtureListsAreComplete() throws {
        // A missing folder would leave the argument lists empty and the
        // sweeps below would run no case; here it fails (on CI) or skips.
        for folder in AnimationFixtures.apngFolders + ["gif-giflib", "gif-image-gif", "gif-pillow"] {
            _ = try Self.fixture(folder)
        }
        // 54 + 61 + 8 + 1 APNG files less the 25 invalid ones; 9 + 12 + 39 GIFs less 3 invalid and 2 left out.
        #expect(Self.validAPNG.count == 99, "\(Self.validAPNG.count) valid APNG files")
        #expect(Self.validGIF.count == 55, "\(Self.validGIF.count) valid GIF files")
        let absent = (Self.invalidAPNG + Self.invalidGIF).filter { (try? Self.fixture($0)) == nil }
        #expect(absent.isEmpty, "invalid fixtures named in AnimationFixtures but not found: \(absent)")
    }

    @Test(
        "GIF → APNG: the APNG shows what browsers show for the GIF (own GIF decoder), for the same exact times",
        .needsFixtures, arguments: validGIF)
    func gifToAPNG(_ fixture: String) throws {
        try Self.expectReencodedShow(
            fixture, sourceDecoder: "gifspec", durations: { $0.fractions.map { $0! } },
            plays: { AnimationFixtures.plays(netscape: $0.loop) }, checkFrameCount: true)
    }

    @Test(
        "APNG → APNG: re-encoding shows what the APNG spec says the input shows, for the same exact times",
        .needsFixtures, arguments: validAPNG)
    func apngToAPNG(_ fixture: String) throws {
        // A still (or a file the spec shows as its default image) lasts 1/25 s (encode's default fps).
        try Self.expectReencodedShow(
            fixture, sourceDecoder: "spec",
            durations: { $0.fractions.map { $0 ?? APNGCLI.Fraction(1, 25) } },
            plays: { $0.loop ?? 0 })
    }

    /// Encodes `fixture` to APNG and expects ffmpeg to show what
    /// `sourceDecoder` (a Tests/tools reference decoder) shows for the input,
    /// for the same exact times, with the input's play count.
    static func expectReencodedShow(
        _ fixture: String, sourceDecoder: String,
        durations: (APNGCLI.Decoded) -> [APNGCLI.Fraction],
        plays: (APNGCLI.Decoded) -> Int, checkFrameCount: Bool = false
    ) throws {
        try withTemporaryDirectory { dir in
            let input = try Self.fixture(fixture)
            let out = dir.appendingPathComponent("o.png")
            let source = try APNGCLI.decode(sourceDecoder, input)
            // A still built up in layers (plays once, every frame but the
            // last 0 s) is written as its final picture unless its frames
            // are asked for; here they are, to compare them with the source's.
            let shown = durations(source)
            let layered =
                shown.count >= 2 && plays(source) == 1 && shown.dropLast().allSatisfy { $0.num == 0 }
            try APNGCLI.run(["encode", input.path, "-o", out.path] + (layered ? ["--frames", "1-"] : []))
            try #require(
                FileManager.default.fileExists(atPath: out.path), "\(fixture): encode wrote no \(out.lastPathComponent)"
            )
            let s = try APNGCLI.expectAPNG(out)
            let written = try APNGCLI.decode("ffmpeg", out)
            if checkFrameCount { #expect(written.frames.count == s.fctl.count) }
            APNGCLI.expectSameShow(
                APNGCLI.shown(written.frames, s.fctl.map(\.delay)),
                APNGCLI.shown(source.frames, shown), width: source.width, fixture)
            #expect(s.actl?.numPlays == plays(source), "\(fixture): num_plays")
        }
    }

    @Test(
        "APNG → GIF: the GIF shows the APNG's pictures, its delays rounded to centiseconds on cumulative time",
        .needsFixtures,
        arguments: [
            "apng-apngkit/animations/tRNS_alpha.apng", "apng-apngkit/animations/minimal.apng",
            "apng-pillow/dispose_op_background_region.png", "apng-pillow/dispose_op_none_region.png",
            "apng-pillow/delay.png", "apng-pillow/delay_round.png", "apng-pillow/delay_short_max.png",
            "apng-pillow/mode_palette.png",
        ])
    func apngToGIF(_ fixture: String) throws {
        try Self.withReencodedGIF(fixture, decoder: "spec") { source, shown in
            let expected = APNGCLI.shown(source.frames, source.fractions.map { $0! })
            // Cumulative starts in whole centiseconds, rounded half up.
            var t = APNGCLI.Fraction(0, 1)
            var starts = [0]
            for e in expected {
                t = t + e.duration
                starts.append((200 * t.num + t.den) / (2 * t.den))
            }
            let expectedCs = zip(starts.dropFirst(), starts).map { $0 - $1 }
            APNGCLI.expectSameShow(
                shown,
                zip(expected, expectedCs).map { APNGCLI.Shown(pixels: $0.pixels, duration: APNGCLI.Fraction($1, 100)) },
                width: source.width, fixture)
        }
    }

    @Test(
        "GIF → GIF: re-encoding keeps the pictures and the delays of the input",
        .needsFixtures,
        arguments: [
            "gif-giflib/welcome2.gif", "gif-pillow/dispose_prev.gif", "gif-image-gif/moon_impact.gif",
            "gif-pillow/iss634.gif",
        ])
    func gifToGIF(_ fixture: String) throws {
        // iss634.gif: frame 8's changed rectangle holds more than 256
        // colors, but its changed pixels do not: it stays exact too.
        try Self.withReencodedGIF(fixture, decoder: "gifspec") { source, shown in
            let expected = APNGCLI.shown(source.frames, source.fractions.map { $0! })
            APNGCLI.expectSameShow(shown, expected, width: source.width, fixture)
        }
    }

    @Test(
        "GIF → GIF: gifplayer-muybridge (a terminal recording, already optimized) comes out exact and no larger than the input, which gifsicle -O3 cannot shrink",
        .needsFixtures)
    func muybridgeNoLarger() throws {
        // Its frames leave a stretch of unchanged pixels drawn when it is
        // one run of one color, transparent when it is several (gifsicle's
        // rule): the writer's other choices came out 1.7 % larger.
        let fixture = "gif-image-gif/gifplayer-muybridge.gif"
        try withTemporaryDirectory { dir in
            let input = try Self.fixture(fixture)
            let out = dir.appendingPathComponent("o.gif")
            try APNGCLI.run(["encode", input.path, "-o", out.path])
            let size = { (url: URL) in (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int }
            let (inBytes, outBytes) = (try #require(size(input)), try #require(size(out)))
            #expect(outBytes <= inBytes, "\(outBytes) bytes written for a \(inBytes)-byte input")
            // Every frame as Pillow composites it, by hash (380 frames of
            // 472x298 would be 200 MB of pixels).
            let source = try Pillow.decode(input).frames
            let written = try Pillow.decode(out).frames
            #expect(written.count == source.count)
            #expect(written.map(\.duration) == source.map(\.duration))
            let differing = zip(written, source).enumerated().filter { $0.element.0.sha256 != $0.element.1.sha256 }
            #expect(differing.isEmpty, "frames unlike the input: \(differing.map(\.offset))")
        }
    }

    @Test(
        "GIF → GIF: fixture GIFs come out exact and no larger than gifsicle -O3 makes them (no transparent entry or control extension that says nothing)",
        .needsFixtures,
        arguments: [
            // gifsicle 1.93 `-O3 in.gif -o out.gif`: out's size in bytes.
            ("gif-image-gif/2x2.gif", 36), ("gif-image-gif/beacon.gif", 83), ("gif-image-gif/sample_1.gif", 61),
            ("gif-giflib/porsche.gif", 5405), ("gif-giflib/treescap.gif", 407), ("gif-giflib/gifgrid.gif", 918),
            ("gif-pillow/text_mono.gif", 203), ("gif-image-gif/anim-gr.gif", 235),
            ("gif-pillow/duplicate_frame.gif", 97), ("gif-pillow/dispose_prev.gif", 1888),
            ("gif-pillow/hopper_resized.gif", 5155),
            // 42 frames whose rectangles show over 256 colors, though the
            // pixels they change need fewer: the shared table serves them.
            ("gif-pillow/iss634.gif", 210_436),
        ])
    func smallGIFsNoLargerThanGifsicle(_ fixture: String, gifsicle: Int) throws {
        try Self.withReencodedGIF(fixture, decoder: "gifspec") { source, shown in
            let expected = APNGCLI.shown(source.frames, source.fractions.map { $0! })
            APNGCLI.expectSameShow(shown, expected, width: source.width, fixture)
        }
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("o.gif")
            try APNGCLI.run(["encode", try Self.fixture(fixture).path, "-o", out.path])
            let bytes = try #require(try FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int)
            #expect(bytes <= gifsicle, "\(fixture): \(bytes) bytes, gifsicle -O3 \(gifsicle)")
        }
    }

    @Test(
        "a still whose rows code smaller interlaced is written so, and Pillow, ffmpeg and the spec decoder read it exactly",
        .needsFixtures)
    func interlacedStill() throws {
        // Pillow's hopper_resized.gif, interlaced: 4,343 B of LZW data
        // with its rows interlaced, 4,346 B without.
        let input = try Self.fixture("gif-pillow/hopper_resized.gif")
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("o.gif")
            try APNGCLI.run(["encode", input.path, "-o", out.path])
            let bytes = [UInt8](try Data(contentsOf: out))
            // The image descriptor: after the header, the global table and
            // any extensions; its flags byte is the descriptor's tenth.
            var i = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
            while bytes[i] == 0x21 {
                i += 2
                while bytes[i] != 0 { i += Int(bytes[i]) + 1 }
                i += 1
            }
            try #require(bytes[i] == 0x2C)
            #expect(bytes[i + 9] & 0x40 != 0, "not interlaced")
            let source = try APNGCLI.decode("gifspec", input)
            for decoder in ["pillow", "ffmpeg", "gifspec"] {
                let read = try APNGCLI.decode(decoder, out)
                #expect(read.frames == source.frames, "\(decoder) reads other pixels")
            }
        }
    }

    /// Encodes a fixture to GIF with the defaults; gives its frames as
    /// `decoder` reads them and the GIF as Pillow shows it (delays in ms).
    static func withReencodedGIF(
        _ fixture: String, decoder: String,
        _ body: (APNGCLI.Decoded, [APNGCLI.Shown]) throws -> Void
    ) throws {
        try withTemporaryDirectory { dir in
            let input = try Self.fixture(fixture)
            let out = dir.appendingPathComponent("o.gif")
            try APNGCLI.run(["encode", input.path, "-o", out.path])
            let gif = try APNGCLI.decode("pillow", out)
            let shown = APNGCLI.shown(
                gif.frames, gif.seconds.map { APNGCLI.Fraction(Int((($0 ?? 0) * 1000).rounded()), 1000) })
            try body(try APNGCLI.decode(decoder, input), shown)
        }
    }

    @Test(
        "render: a frames config whose folder holds an APNG keeps its delays, in APNG exactly and in GIF on cumulative centiseconds",
        .needsFixtures)
    func renderFramesConfigWithAPNG() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ball = try Self.fixture("apng-apngkit/animations/ball.apng")
            try FileManager.default.copyItem(at: ball, to: folder.appendingPathComponent("ball.apng"))
            let config = try SceneCLI.write(
                """
                {"version": 1, "frames": {"dir": "frames"}}
                """, to: dir, as: "frames.json")
            let source = try APNGCLI.decode("spec", ball)
            let expected = APNGCLI.shown(source.frames, source.fractions.map { $0! })
            let png = dir.appendingPathComponent("o.png")
            try APNGCLI.run(["render", config.path, "-o", png.path])
            let s = try APNGCLI.expectAPNG(png)
            #expect(s.fctl.allSatisfy { $0.delay == APNGCLI.Fraction(3, 40) }, "\(s.fctl.map(\.delay))")
            APNGCLI.expectSameShow(
                APNGCLI.shown(try APNGCLI.decode("ffmpeg", png).frames, s.fctl.map(\.delay)), expected,
                width: 100, "render → APNG")
            let gif = dir.appendingPathComponent("o.gif")
            try APNGCLI.run(["render", config.path, "-o", gif.path])
            let ms = try Pillow.decode(gif).durations
            // 75 ms frames: starts at 0, 7.5, 15, 22.5 ... cs, rounded half up: 8, 7, 8, 7 ... cs.
            let starts = (0...ms.count).map { (2 * 75 * $0 + 10) / 20 }
            #expect(ms == zip(starts.dropFirst(), starts).map { ($0 - $1) * 10 }, "\(ms)")
        }
    }

    @Test(
        "a frame folder holding a still PNG, an APNG and an animated GIF: every frame in order, animations keep their delays unless --fps retimes them",
        .needsFixtures)
    func folderWithAnimations() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("in")
            // All 100x100: a Pillow-made still, ball.apng, test_extents.gif.
            let still = try Pillow.makeFrames(
                [
                    Pillow.Frame(
                        "01.png", width: 100, height: 100, color: [30, 60, 200, 255],
                        marks: [[10, 10, 20, 20, 255, 255, 0, 255]])
                ], in: folder)[0]
            let apng = folder.appendingPathComponent("02.apng")
            let gif = folder.appendingPathComponent("03.gif")
            try FileManager.default.copyItem(at: try Self.fixture("apng-apngkit/animations/ball.apng"), to: apng)
            try FileManager.default.copyItem(at: try Self.fixture("gif-pillow/test_extents.gif"), to: gif)
            let a = try APNGCLI.decode("spec", apng)
            let g = try APNGCLI.decode("gifspec", gif)
            let s0 = try APNGCLI.stills([still])
            let frames = s0.frames + a.frames + g.frames

            let out = dir.appendingPathComponent("o.png")
            try APNGCLI.run(["encode", folder.path, "-o", out.path])
            let s = try APNGCLI.expectAPNG(out)
            let written = try APNGCLI.decode("ffmpeg", out)
            let durations = [APNGCLI.Fraction(1, 25)] + a.fractions.map { $0! } + g.fractions.map { $0! }
            APNGCLI.expectSameShow(
                APNGCLI.shown(written.frames, s.fctl.map(\.delay)), APNGCLI.shown(frames, durations),
                width: 100, "folder, own delays")

            // --fps retimes every frame.
            try APNGCLI.run(["encode", folder.path, "-o", out.path, "--fps", "10"])
            let s2 = try APNGCLI.expectAPNG(out)
            let written2 = try APNGCLI.decode("ffmpeg", out)
            APNGCLI.expectSameShow(
                APNGCLI.shown(written2.frames, s2.fctl.map(\.delay)),
                APNGCLI.shown(frames, Array(repeating: APNGCLI.Fraction(1, 10), count: frames.count)),
                width: 100, "folder, --fps 10")
        }
    }
}
