import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// GIFLZWFallback: the reader for GIFs giflib refuses only because an
/// image's LZW minimum code size is 9–11. Beyond the one real fixture
/// (issue_2811.gif, AnimatedInputTests), gif_lzw_make.py writes such files
/// byte by byte with its own LZW encoder: code sizes 9, 10 and 11, a clear
/// code when the table fills, a full table kept without a clear ("deferred
/// clear"), runs (codes defined by themselves), interlacing, sub-rectangles,
/// local palettes, transparency, every disposal, delays and a loop count.
/// What ThrobberKit shows must be what anim_reference.py's own GIF decoder
/// (browser compositing) shows, and what Pillow shows where Pillow 9.4
/// composites as browsers do.
@Suite("GIF LZW fallback: code sizes 9–11")
struct GIFLZWFallbackTests {
    struct Made: Decodable {
        var codeSizes: [Int]
        var frames: Int
        var clears: [Int]
        var deferredClear: Bool
    }

    static let files = ["random9.gif", "anim10.gif", "interlaced11.gif", "runs9.gif", "mixed8-9.gif"]

    /// Writes the files into `dir`; what each holds, by the generator's own account.
    static func make(in dir: URL) throws -> [String: Made] {
        try JSONDecoder().decode([String: Made].self, from: ToolRunner.python("gif_lzw_make.py", [dir.path]))
    }

    @Test("the generated files need the fallback and cover its cases")
    func coverage() throws {
        try withTemporaryDirectory { dir in
            let made = try Self.make(in: dir)
            #expect(Set(made.keys) == Set(Self.files))
            for (name, m) in made {
                #expect(m.codeSizes.contains { $0 > 8 }, "\(name): code sizes \(m.codeSizes), giflib would read it")
            }
            #expect(Set(made.values.flatMap(\.codeSizes)).isSuperset(of: [9, 10, 11]))
            #expect(made["random9.gif"]?.clears.first ?? 0 >= 1, "random9.gif: no clear code after the table filled")
            #expect(made["runs9.gif"]?.deferredClear == true, "runs9.gif: the table never filled up")
            #expect(made["anim10.gif"]?.frames == 4)
        }
    }

    @Test(
        "each file shows exactly what the own GIF decoder shows, with its delays and loop count, and what Pillow shows",
        arguments: files)
    func decodesLikeReferences(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let made = try #require(try Self.make(in: dir)[name])
            let path = dir.appendingPathComponent(name).path
            let reference = try ReferenceAnimation(.gifspec, path: path)
            #expect(reference.frames.count == made.frames)
            let o = try AnimatedInputTests.ours(path)
            expectFrames(o.frames, equal: reference.frames, width: reference.width, "\(name) vs own GIF decoder")
            if made.frames > 1 {
                #expect(
                    o.durations == reference.centiseconds.map { Rational(Int64($0), 100) },
                    "\(name): durations \(o.durations), the file says \(reference.centiseconds) cs")
                #expect(
                    o.loop == AnimationFixtures.plays(netscape: reference.loop),
                    "\(name): loop \(String(describing: o.loop))")
            }
            // Pillow 9.4 fills a disposal-2 rectangle with the background
            // color where browsers clear it (AnimatedInputTests'
            // pillowDeviatesGIF): in anim10.gif only the frames before the
            // one after the disposal-2 frame are comparable.
            let pillow = try ReferenceAnimation(.pillow, path: path)
            let comparable = name == "anim10.gif" ? 2 : pillow.frames.count
            #expect(pillow.frames.count == made.frames)
            expectFrames(
                Array(o.frames.prefix(comparable)), equal: Array(pillow.frames.prefix(comparable)), width: pillow.width,
                "\(name) vs Pillow")
            // The frame source `encode` uses reads the same.
            try AnimatedInputTests.expectFileSource(path, matches: o)
        }
    }
}
