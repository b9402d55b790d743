import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

extension AnimatedInputTests {
    // MARK: Invalid files

    @Test(
        "invalid APNG and GIF fixtures are refused as bad data, naming the file", Fixtures.needed,
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

    @Test(
        "decompression bombs are refused in well under a second", Fixtures.needed,
        arguments: ["gif-pillow/decompression_bomb.gif", "gif-pillow/decompression_bomb_extents.gif"])
    func bombs(_ fixture: String) throws {
        let path = Self.path(fixture)
        let start = Date()
        let error = throbberError { _ = try FileFrameSource(files: [path]) }
        let seconds = Date().timeIntervalSince(start)
        #expect(seconds < 0.25, "\(fixture): \(seconds) s")
        #expect(error?.kind == .data && error?.message.hasPrefix(path + ": ") == true, "\(String(describing: error))")
    }

    @Test(
        "an APNG whose IHDR claims 65535x65535 (or 16384x16384) is refused at once, before any pixel buffer",
        arguments: [65535, 16384])
    func apngCanvasBomb(side: Int) throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("bomb.png").path
            _ = try ToolRunner.python("apng_make_bombs.py", ["apng-canvas", path, "\(side)"])
            let start = Date()
            let error = throbberError { _ = try FileFrameSource(files: [path]) }
            #expect(Date().timeIntervalSince(start) < 0.25)
            #expect(
                error?.kind == .data && error?.message.hasPrefix(path + ": ") == true, "\(String(describing: error))")
        }
    }

    // MARK: Frame folders

    @Test(
        "a frame folder may hold animated GIF and APNG files: each adds its composited frames with their delays",
        Fixtures.needed)
    func framesFolder() throws {
        try withTemporaryDirectory { dir in
            // An APNG, a still PNG and an animated GIF, picked up in name order.
            let sources = [
                ("01.apng", "apng-apngkit/animations/ball.apng"), ("02.png", "apng-apngkit/spec/000.png"),
                ("03.gif", "gif-giflib/welcome2.gif"),
            ]
            for (name, fixture) in sources {
                try FileManager.default.copyItem(
                    atPath: Self.path(fixture), toPath: dir.appendingPathComponent(name).path)
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

    @Test(
        "an animated GIF read as a still image (a scene's image layer) is its first frame as browsers show it",
        Fixtures.needed, arguments: ["gif-giflib/welcome2.gif", "gif-image-gif/moon_impact.gif"])
    func gifAsStill(fixture: String) throws {
        let reference = try ReferenceAnimation(.gifspec, path: Self.path(fixture))
        #expect(reference.frames.count > 1)
        #expect(normalized(try ImageDecoder.decode(fileAt: Self.path(fixture))) == reference.frames[0])
    }

    @Test("an APNG whose acTL follows 100 KB of other chunks is still read as an animation, with every frame")
    func acTLAfterLargeChunks() throws {
        let frames = (0..<3).map { f in Synth.image(8, 8) { x, y in (UInt8(x * 30), UInt8(y * 30), UInt8(f * 80), 255) }
        }
        try withAPNG(MemoryFrameSource(frames), .with { $0.timing.fps = Rational(10) }) { apng in
            try withTemporaryDirectory { dir in
                // A copy with a 100 KB tEXt chunk between IHDR and acTL, inserted
                // by conformance_mutate.py (struct + zlib), not by ThrobberKit.
                let path = dir.appendingPathComponent("padded.png").path
                try Data(apng.bytes).write(to: URL(fileURLWithPath: path))
                _ = try ToolRunner.python("conformance_mutate.py", ["text-after-ihdr", path, "100000"])
                let s = try APNGStructure(path: path)
                #expect(
                    s.types.prefix(3) == ["IHDR", "tEXt", "acTL"] && s.chunks[1].length == 100_008
                        && s.problems.isEmpty,
                    "\(s.types.prefix(4)) \(s.problems)")
                // The spec decoder sees the same three frames, at 1/10 s each.
                let spec = try ReferenceAnimation(.spec, path: path)
                #expect(
                    spec.frames == frames.map(normalized)
                        && spec.fractions == Array(repeating: Optional(Rational(1, 10)), count: 3))
                let source = try FileFrameSource(files: [path])
                #expect(source.count == 3)
                #expect(try (0..<source.count).map { normalized(try source.frame(at: $0)) } == frames.map(normalized))
                #expect(
                    (0..<source.count).map { source.duration(at: $0) }
                        == Array(repeating: Optional(Rational(1, 10)), count: 3))
            }
        }
    }
}
