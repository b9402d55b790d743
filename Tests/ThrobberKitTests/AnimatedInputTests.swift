import Foundation
import Testing
import TestSupport
@testable import ThrobberKit

/// Animated GIF and APNG input: every valid fixture in ../shared/fixtures
/// gif-* and apng-* is composited as a viewer shows it, and compared with
/// independent decoders (anim_reference.py: its own spec decoder for APNG,
/// its own LZW decoder with browser compositing for GIF, and Pillow). The
/// invalid ones (SOURCES.md) are refused with a data error naming the file,
/// the decompression bombs quickly.
@Suite("Animated input")
struct AnimatedInputTests {
    // MARK: Fixture lists (SOURCES.md)

    static let apngFolders = AnimationFixtures.apngFolders
    static let invalidAPNG = Set(AnimationFixtures.invalidAPNG)
    static let invalidGIF = Set(AnimationFixtures.invalidGIF)

    static func files(in folders: [String], suffixes: [String]) -> [String] {
        folders.flatMap { folder in suffixes.flatMap { Fixtures.names(in: folder, suffix: $0).map { "\(folder)/\($0)" } } }.sorted()
    }

    static let allAPNG = files(in: apngFolders, suffixes: [".png", ".apng"])
    static let validAPNG = allAPNG.filter { !invalidAPNG.contains($0) }
    static let allGIF = files(in: ["gif-giflib", "gif-image-gif", "gif-pillow"], suffixes: [".gif"])
    static let validGIF = allGIF.filter { !invalidGIF.contains($0) }

    @Test("the fixture lists are complete: 124 APNG files (99 valid), 60 GIF files (57 valid), every invalid one among them",
          Fixtures.needed)
    func fixtureListsAreComplete() throws {
        // A missing folder would leave the argument lists above empty and the
        // sweeps below would run no case; here it fails (on CI) or skips.
        for folder in Self.apngFolders + ["gif-giflib", "gif-image-gif", "gif-pillow"] { _ = try Fixtures.folder(folder) }
        // ls | wc -l of each folder: apng-pillow 54, apngkit/spec 61, apngkit/animations 8, apng-image-png 1;
        // gif-giflib 9, gif-image-gif 12, gif-pillow 39.
        #expect(Self.allAPNG.count == 124, "\(Self.allAPNG.count) APNG files")
        #expect(Self.validAPNG.count == 99, "\(Self.validAPNG.count) valid APNG files")
        #expect(Self.allGIF.count == 60, "\(Self.allGIF.count) GIF files")
        #expect(Self.validGIF.count == 57, "\(Self.validGIF.count) valid GIF files")
        #expect(Self.invalidAPNG.isSubset(of: Set(Self.allAPNG)) && Self.invalidGIF.isSubset(of: Set(Self.allGIF)),
                "an invalid fixture named in AnimationFixtures is not in its folder")
    }

    /// Fixtures where Pillow 9.4 (Debian 12) does not show what the APNG
    /// spec says; there the spec decoder is the reference, and ffmpeg a
    /// second opinion (tolerance: ffmpeg truncates in blend OVER).
    static let pillowDeviatesAPNG: [String: (reason: String, ffmpegTolerance: Int?)] = [
        "apng-pillow/blend_op_over_near_transparent.png": ("Pillow blends OVER by paste-with-mask: alpha becomes a·a, not Porter-Duff over", 0),
        "apng-apngkit/spec/021.png": ("same file as blend_op_over_near_transparent", 0),
        "apng-apngkit/spec/022.png": ("partial-alpha OVER (paste-with-mask)", 0),
        "apng-apngkit/spec/023.png": ("partial-alpha OVER (paste-with-mask)", 0),
        "apng-pillow/mode_16bit.png": ("16-bit samples and partial-alpha OVER (paste-with-mask); ffmpeg shows one frame", nil),
        "apng-apngkit/spec/033.png": ("same file as mode_16bit", nil),
        "apng-pillow/mode_grayscale_alpha.png": ("partial-alpha OVER (paste-with-mask)", 0),
        "apng-apngkit/spec/035.png": ("same file as mode_grayscale_alpha", 0),
        "apng-pillow/mode_palette_1bit_alpha.png": ("tRNS 128 blended OVER (paste-with-mask)", 0),
        "apng-apngkit/spec/038.png": ("same file as mode_palette_1bit_alpha", 0),
        "apng-apngkit/animations/over_none.apng": ("partial-alpha OVER (paste-with-mask)", 2),
        "apng-apngkit/animations/over_background.apng": ("partial-alpha OVER (paste-with-mask)", 2),
        "apng-apngkit/animations/over_previous.apng": ("partial-alpha OVER (paste-with-mask)", 2),
        "apng-apngkit/animations/tRNS_alpha.apng": ("RGB + tRNS: Pillow disposes to opaque black, not transparent", 0),
        "apng-pillow/syntax_num_frames_low.png": ("Pillow plays num_frames frames; the spec calls a num_frames that differs from the fcTL count an error (show the default image)", nil),
        "apng-apngkit/spec/047.png": ("same file as syntax_num_frames_low", nil),
        "apng-apngkit/spec/059.png": ("Pillow starts the canvas from the hidden default image instead of transparent black", 0),
    ]

    /// GIF fixtures where Pillow 9.4 differs from browsers.
    static let pillowDeviatesGIF: [String: String] = [
        "gif-pillow/dispose_bgnd.gif": "Pillow fills disposal 2 with the background color; browsers clear to transparent",
        "gif-pillow/dispose_bgnd_rgba.gif": "Pillow fills disposal 2 with the background color; browsers clear to transparent",
        "gif-pillow/test_extents_transparency.gif": "a second GIF is glued after the first image without a trailer; Pillow skips the junk and reads its frame, Firefox/Chromium stop there",
        "gif-pillow/background_outside_palette.gif": "Pillow 9.4 raises TypeError (fixed in later Pillow)",
        "gif-pillow/no_palette_with_transparency_after_rgb.gif": "Pillow 9.4 raises ValueError (fixed in later Pillow)",
    ]

    static func path(_ fixture: String) -> String { Fixtures.root.appendingPathComponent(fixture).path }

    /// ThrobberKit's view of a file: an animation's composited frames, or a
    /// still as one frame with no duration.
    static func ours(_ path: String) throws -> (frames: [[UInt8]], durations: [Rational?], loop: Int?, width: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        if let a = try DecodedAnimation.decode(bytes, name: path) {
            return (a.frames.map(normalized), a.durations, a.loop, a.width)
        }
        let still = try ImageDecoder.decode(bytes, name: path)
        return ([normalized(still)], [nil], nil, still.width)
    }

    /// FileFrameSource (what `encode` and frame folders use) gives the same
    /// frames and durations as the decoder.
    static func expectFileSource(_ path: String, matches o: (frames: [[UInt8]], durations: [Rational?], loop: Int?, width: Int),
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let source = try FileFrameSource(files: [path])
        #expect(source.count == o.frames.count, "FileFrameSource: \(source.count) frames", sourceLocation: sourceLocation)
        for i in 0..<min(source.count, o.frames.count) {
            #expect(source.duration(at: i) == o.durations[i], "FileFrameSource duration \(i)", sourceLocation: sourceLocation)
            if normalized(try source.frame(at: i)) != o.frames[i] {
                Issue.record("FileFrameSource frame \(i) differs from the decoded animation", sourceLocation: sourceLocation)
                return
            }
        }
    }

    // MARK: APNG

    @Test("every valid APNG fixture is composited as the APNG spec says (own spec decoder, exact), with its delays and num_plays",
          Fixtures.needed, arguments: validAPNG)
    func apngMatchesSpec(_ fixture: String) throws {
        let path = Self.path(fixture)
        let o = try Self.ours(path)
        let spec = try ReferenceAnimation(.spec, path: path)
        expectFrames(o.frames, equal: spec.frames, width: spec.width, "\(fixture) vs spec decoder")
        if spec.fractions.first ?? nil == nil {
            #expect(o.durations.allSatisfy { $0 == nil }, "\(fixture): the file is a still for the spec, ours has durations \(o.durations)")
        } else {
            #expect(o.durations == spec.fractions, "\(fixture): durations \(o.durations), delay_num/delay_den say \(spec.fractions)")
            #expect(o.loop == spec.loop, "\(fixture): loop \(String(describing: o.loop)), num_plays \(String(describing: spec.loop))")
        }
        try Self.expectFileSource(path, matches: o)
    }

    @Test("every valid APNG fixture matches Pillow exactly, except where Pillow departs from the spec (then ffmpeg)",
          Fixtures.needed, arguments: validAPNG)
    func apngMatchesPillow(_ fixture: String) throws {
        let path = Self.path(fixture)
        let o = try Self.ours(path)
        if let deviation = Self.pillowDeviatesAPNG[fixture] {
            guard let tolerance = deviation.ffmpegTolerance else { return }
            let ffmpeg = try ReferenceAnimation(.ffmpeg, path: path)
            #expect(ffmpeg.frames.count == o.frames.count, "\(fixture): ffmpeg shows \(ffmpeg.frames.count) frames")
            for (i, (a, e)) in zip(o.frames, ffmpeg.frames).enumerated() {
                if !expectPixels(a, e, width: ffmpeg.width, tolerance: tolerance, "\(fixture) frame \(i) vs ffmpeg") { break }
            }
            return
        }
        let pillow = try ReferenceAnimation(.pillow, path: path)
        expectFrames(o.frames, equal: pillow.frames, width: pillow.width, "\(fixture) vs Pillow")
        for (i, (ours, theirs)) in zip(o.durations, pillow.seconds).enumerated() {
            guard let ours else { continue }
            let seconds = Double(ours.numerator) / Double(ours.denominator)
            #expect(abs(seconds - (theirs ?? -1)) < 1e-9, "\(fixture) frame \(i): \(ours) s, Pillow \(String(describing: theirs)) s")
        }
    }

    @Test("APNG dispose and blend cases show what Philip Taylor's suite says they should", Fixtures.needed)
    func apngSpecSuiteFinalFrames() throws {
        // The last frame of each test in the suite's own words ("This should be ...").
        let green: [UInt8] = [0, 255, 0, 255], clear: [UInt8] = [0, 0, 0, 0]
        let solidGreen = ["001", "002", "003", "004", "005", "006", "007", "009", "010", "011", "013", "016", "017", "020", "021", "024", "036", "037"]
        let transparent = ["008", "012", "014", "018"]
        for n in solidGreen + transparent {
            let o = try Self.ours(Self.path("apng-apngkit/spec/\(n).png"))
            let last = try #require(o.frames.last)
            let want = solidGreen.contains(n) ? green : clear
            let off = stride(from: 0, to: last.count, by: 4).filter { Array(last[$0..<$0 + 4]) != want }.count
            #expect(off == 0, "\(n).png: \(off) pixels of the last frame are not \(want)")
        }
        // 015: "a solid blue rectangle containing a smaller transparent rectangle".
        let o = try Self.ours(Self.path("apng-apngkit/spec/015.png"))
        let last = try #require(o.frames.last)
        for y in 0..<64 {
            for x in 0..<128 {
                let inner = x >= 32 && x < 96 && y >= 16 && y < 48
                let p = Array(last[(y * 128 + x) * 4..<(y * 128 + x) * 4 + 4])
                if inner { #expect(p == clear, "015 (\(x),\(y)) = \(p)") } else if p[2] != 255 || p[3] != 255 {
                    Issue.record("015 (\(x),\(y)) = \(p), expected blue"); return
                }
            }
        }
    }

    @Test("APNG files the spec calls erroneous before the animation starts show their default image (Philip Taylor's suite: 'the default image (solid green) or an error')",
          Fixtures.needed, arguments: ["039", "040", "041", "046", "047", "050"])
    func apngDefaultImageCases(_ n: String) throws {
        let path = Self.path("apng-apngkit/spec/\(n).png")
        let o = try Self.ours(path)
        #expect(o.frames.count == 1, "\(n).png: \(o.frames.count) frames, expected the default image alone")
        let green: [UInt8] = [0, 255, 0, 255]
        for (i, f) in o.frames.enumerated() {
            let red = stride(from: 0, to: f.count, by: 4).filter { f[$0] == 255 && f[$0 + 1] == 0 && f[$0 + 3] == 255 }.count
            let notGreen = stride(from: 0, to: f.count, by: 4).filter { Array(f[$0..<$0 + 4]) != green }.count
            #expect(notGreen == 0, "\(n).png frame \(i): \(notGreen) pixels are not green (\(red) are red, the suite's failure color)")
        }
    }

    // MARK: GIF

    @Test("every valid GIF fixture is composited as browsers do (own LZW decoder, exact), with its delays and loop count",
          Fixtures.needed, arguments: validGIF)
    func gifMatchesReference(_ fixture: String) throws {
        let path = Self.path(fixture)
        let reference = try ReferenceAnimation(.gifspec, path: path)
        let o = try Self.ours(path)
        expectFrames(o.frames, equal: reference.frames, width: reference.width, "\(fixture) vs own GIF decoder")
        #expect(o.durations == reference.centiseconds.map { Rational(Int64($0), 100) },
                "\(fixture): durations \(o.durations), the file says \(reference.centiseconds) cs")
        // No loop extension: played once; NETSCAPE n: n + 1 plays (0 = forever), as Chromium and Firefox play it.
        let expectedLoop = AnimationFixtures.plays(netscape: reference.loop)
        #expect(o.loop == expectedLoop, "\(fixture): loop \(String(describing: o.loop)), NETSCAPE \(String(describing: reference.loop))")
        try Self.expectFileSource(path, matches: o)
    }

    @Test("every valid GIF fixture matches Pillow exactly, except where Pillow departs from browsers",
          Fixtures.needed, arguments: validGIF)
    func gifMatchesPillow(_ fixture: String) throws {
        let path = Self.path(fixture)
        let o = try Self.ours(path)
        if fixture.hasPrefix("gif-pillow/dispose_bgnd") && !fixture.contains("transparency") {
            // Every difference must be a pixel we show transparent (cleared by
            // disposal 2) where Pillow shows one opaque background color.
            let pillow = try ReferenceAnimation(.pillow, path: path)
            #expect(pillow.frames.count == o.frames.count)
            var fills = Set<[UInt8]>()
            for (i, (a, p)) in zip(o.frames, pillow.frames).enumerated() {
                for q in stride(from: 0, to: a.count, by: 4) where a[q..<q + 4] != p[q..<q + 4] {
                    #expect(a[q + 3] == 0 && p[q + 3] == 255, "\(fixture) frame \(i) pixel \(q / 4): ours \(Array(a[q..<q + 4])), Pillow \(Array(p[q..<q + 4]))")
                    fills.insert(Array(p[q..<q + 4]))
                }
            }
            #expect(fills.count <= 1, "Pillow's fill colors: \(fills)")
            return
        }
        if Self.pillowDeviatesGIF[fixture] != nil { return }
        let pillow = try ReferenceAnimation(.pillow, path: path)
        expectFrames(o.frames, equal: pillow.frames, width: pillow.width, "\(fixture) vs Pillow")
        for (i, (ours, theirs)) in zip(o.durations, pillow.seconds).enumerated() {
            let seconds = ours.map { Double($0.numerator) / Double($0.denominator) } ?? -1
            #expect(abs(seconds - (theirs ?? 0)) < 1e-9, "\(fixture) frame \(i): \(String(describing: ours)) s, Pillow \(String(describing: theirs)) s")
        }
    }

    @Test("issue_2811.gif (LZW minimum code size 11, which giflib refuses) decodes like Pillow and browsers", Fixtures.needed)
    func lzwCodeSize11() throws {
        let path = Self.path("gif-pillow/issue_2811.gif")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The first image's LZW minimum code size byte, found from the file layout.
        let packed = bytes[10]
        var p = 13 + (packed & 0x80 != 0 ? 3 * (2 << Int(packed & 7)) : 0)
        while bytes[p] == 0x21 {   // skip extensions
            p += 2
            while bytes[p] != 0 { p += Int(bytes[p]) + 1 }
            p += 1
        }
        #expect(bytes[p] == 0x2C)
        let local = bytes[p + 9]
        p += 10 + (local & 0x80 != 0 ? 3 * (2 << Int(local & 7)) : 0)
        #expect(bytes[p] == 11, "LZW minimum code size \(bytes[p])")

        let reference = try ReferenceAnimation(.gifspec, path: path)
        let pillow = try ReferenceAnimation(.pillow, path: path)
        expectFrames(reference.frames, equal: pillow.frames, width: pillow.width, "own decoder vs Pillow")
        do {
            let o = try Self.ours(path)
            expectFrames(o.frames, equal: reference.frames, width: reference.width, "issue_2811.gif")
        } catch {
            Issue.record("issue_2811.gif is refused: \(error)")
        }
    }

    @Test("The GIF and APNG encoders keep the delays of animated input (encode's default timeline)", Fixtures.needed,
          arguments: ["gif-pillow/dispose_none.gif", "apng-apngkit/animations/minimal.apng"])
    func pipelinesKeepInputDelays(_ fixture: String) throws {
        let path = Self.path(fixture)
        let source = try FileFrameSource(files: [path])
        // The input's delays as the independent decoders read them: the
        // GIF's centiseconds (own GIF decoder), the APNG's delay_num/delay_den
        // (own spec decoder); exact fractions (num, den) of a second.
        let reference = try ReferenceAnimation(fixture.hasSuffix(".gif") ? .gifspec : .spec, path: path)
        let exact: [(num: Int64, den: Int64)] = reference.decoder == .gifspec
            ? reference.centiseconds.map { (Int64($0), 100) }
            : try reference.fractions.map { f in let r = try #require(f, "\(fixture): no delay"); return (r.numerator, r.denominator) }
        let durations = exact.map { Rational($0.num, $0.den) }
        #expect(exact.count == source.count, "\(fixture): \(exact.count) frames in the reference, \(source.count) read")
        try withTemporaryDirectory { dir in
            let gifPath = dir.appendingPathComponent("o.gif").path
            let out = try OutputFile(path: gifPath)
            _ = try AnimationEncoder(format: .gif, settings: .with { $0.jobs = 1 }).encode(source, to: out)
            try out.commit()
            // Cumulative starts in centiseconds, rounded half up, from the input's exact times,
            // in integers: t = p/q s starts at floor(100·p/q + 1/2) = (200·p + q) / (2·q) cs.
            var p: Int64 = 0, q: Int64 = 1, starts = [Int64(0)]
            for d in exact {
                p = p * d.den + d.num * q; q *= d.den
                starts.append((200 * p + q) / (2 * q))
            }
            let expected = zip(starts.dropFirst(), starts).map { Int($0 - $1) }
            let gif = try DecodedGIF(path: gifPath)
            #expect(gif.frames.map(\.delay) == expected, "\(fixture) → GIF: delays \(gif.frames.map(\.delay)) cs, the input says \(expected) cs")
        }
        try withAPNG(source, .with { $0.jobs = 1 }) { apng in
            #expect(apng.structure.fctl.map(\.delay) == durations, "\(fixture) → APNG")
        }
    }

    // MARK: Invalid files

    @Test("invalid APNG and GIF fixtures are refused as bad data, naming the file", Fixtures.needed,
          arguments: invalidAPNG.sorted() + invalidGIF.sorted())
    func refusesInvalid(_ fixture: String) throws {
        let path = Self.path(fixture)
        try #require(FileManager.default.fileExists(atPath: path), "fixture missing: \(path)")
        let start = Date()
        let error = throbberError { _ = try FileFrameSource(files: [path]) }
        let seconds = Date().timeIntervalSince(start)
        #expect(error?.kind == .data, "\(fixture): \(String(describing: error))")
        #expect(error?.message.hasPrefix(path + ": ") == true, "\(error?.message ?? "")")
        #expect(seconds < 1, "\(fixture) took \(seconds) s to refuse")
    }

    @Test("decompression bombs are refused in well under a second", Fixtures.needed,
          arguments: ["gif-pillow/decompression_bomb.gif", "gif-pillow/decompression_bomb_extents.gif"])
    func bombs(_ fixture: String) throws {
        let path = Self.path(fixture)
        let start = Date()
        let error = throbberError { _ = try FileFrameSource(files: [path]) }
        let seconds = Date().timeIntervalSince(start)
        #expect(seconds < 0.25, "\(fixture): \(seconds) s")
        #expect(error?.kind == .data && error?.message.hasPrefix(path + ": ") == true, "\(String(describing: error))")
    }

    @Test("an APNG whose IHDR claims 65535x65535 (or 16384x16384) is refused at once, before any pixel buffer",
          arguments: [65535, 16384])
    func apngCanvasBomb(side: Int) throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("bomb.png").path
            _ = try ToolRunner.python("apng_make_bombs.py", ["apng-canvas", path, "\(side)"])
            let start = Date()
            let error = throbberError { _ = try FileFrameSource(files: [path]) }
            #expect(Date().timeIntervalSince(start) < 0.25)
            #expect(error?.kind == .data && error?.message.hasPrefix(path + ": ") == true, "\(String(describing: error))")
        }
    }

    // MARK: Frame folders

    @Test("a frame folder may hold animated GIF and APNG files: each adds its composited frames with their delays",
          Fixtures.needed)
    func framesFolder() throws {
        try withTemporaryDirectory { dir in
            // An APNG, a still PNG and an animated GIF, picked up in name order.
            let sources = [("01.apng", "apng-apngkit/animations/ball.apng"), ("02.png", "apng-apngkit/spec/000.png"),
                           ("03.gif", "gif-giflib/welcome2.gif")]
            for (name, fixture) in sources {
                try FileManager.default.copyItem(atPath: Self.path(fixture), toPath: dir.appendingPathComponent(name).path)
            }
            let files = try FrameList().files(for: [dir.path])
            #expect(files.map { ($0 as NSString).lastPathComponent } == sources.map(\.0))
            let source = try FileFrameSource(files: files)

            let apng = try ReferenceAnimation(.spec, path: Self.path(sources[0].1))
            let still = try ReferenceAnimation(.pillow, path: Self.path(sources[1].1))
            let gif = try ReferenceAnimation(.gifspec, path: Self.path(sources[2].1))
            let expected: [(pixels: [UInt8], duration: Rational?)] =
                zip(apng.frames, apng.fractions).map { ($0, $1) } + [(still.frames[0], nil)]
                + zip(gif.frames, gif.centiseconds).map { ($0, Rational(Int64($1), 100)) }
            #expect(source.count == expected.count, "\(source.count) frames, expected 20 + 1 + 6")
            for (i, e) in expected.enumerated() where i < source.count {
                #expect(source.duration(at: i) == e.duration, "frame \(i) (\(source.name(at: i)))")
                #expect(normalized(try source.frame(at: i)) == e.pixels, "frame \(i) (\(source.name(at: i)))")
            }
            // The timeline keeps the animations' delays; the still gets 1/fps.
            let timeline = Timeline(source: source, settings: .init(fps: Rational(10)))
            let total = expected.map { $0.duration ?? Rational(1, 10) }.reduce(Rational(0), +)
            #expect(timeline.duration == total, "timeline lasts \(timeline.duration) s, expected \(total) s")
        }
    }

    @Test("an animated GIF read as a still image (a scene's image layer) is its first frame as browsers show it",
          Fixtures.needed, arguments: ["gif-giflib/welcome2.gif", "gif-image-gif/moon_impact.gif"])
    func gifAsStill(fixture: String) throws {
        let reference = try ReferenceAnimation(.gifspec, path: Self.path(fixture))
        #expect(reference.frames.count > 1)
        #expect(normalized(try ImageDecoder.decode(fileAt: Self.path(fixture))) == reference.frames[0])
    }

    @Test("an APNG whose acTL follows 100 KB of other chunks is still read as an animation, with every frame")
    func acTLAfterLargeChunks() throws {
        let frames = (0..<3).map { f in Synth.image(8, 8) { x, y in (UInt8(x * 30), UInt8(y * 30), UInt8(f * 80), 255) } }
        try withAPNG(MemoryFrameSource(frames), .with { $0.timing.fps = Rational(10) }) { apng in
            try withTemporaryDirectory { dir in
                // A copy with a 100 KB tEXt chunk between IHDR and acTL, inserted
                // by conformance_mutate.py (struct + zlib), not by ThrobberKit.
                let path = dir.appendingPathComponent("padded.png").path
                try Data(apng.bytes).write(to: URL(fileURLWithPath: path))
                _ = try ToolRunner.python("conformance_mutate.py", ["text-after-ihdr", path, "100000"])
                let s = try APNGStructure(path: path)
                #expect(s.types.prefix(3) == ["IHDR", "tEXt", "acTL"] && s.chunks[1].length == 100_008 && s.problems.isEmpty,
                        "\(s.types.prefix(4)) \(s.problems)")
                // The spec decoder sees the same three frames, at 1/10 s each.
                let spec = try ReferenceAnimation(.spec, path: path)
                #expect(spec.frames == frames.map(normalized) && spec.fractions == Array(repeating: Optional(Rational(1, 10)), count: 3))
                let source = try FileFrameSource(files: [path])
                #expect(source.count == 3)
                #expect(try (0..<source.count).map { normalized(try source.frame(at: $0)) } == frames.map(normalized))
                #expect((0..<source.count).map { source.duration(at: $0) } == Array(repeating: Optional(Rational(1, 10)), count: 3))
            }
        }
    }
}
