import Foundation
import TestSupport
import Testing

/// The test decoders themselves are checked on real animated GIFs made by
/// other tools: our giflib compositor (GIFReader.swift) and Pillow must
/// agree frame by frame, on delays and on the loop count, including
/// disposal 1, 2 and 3, local palettes and transparency. Without this, a
/// bug shared by the compositor and the encoder could hide.
///
/// Left out: gif-pillow/dispose_bgnd.gif, whose frames have no transparent
/// index. There Pillow 9.4 paints disposal 2 with the background color,
/// while browsers (and our compositor) clear to transparent.
@Suite("Test decoders agree on real GIFs", Fixtures.needed)
struct GIFReaderTests {
    static let files = [
        "gif-pillow/dispose_none.gif", "gif-pillow/dispose_bgnd_transparency.gif", "gif-pillow/dispose_prev.gif",
        "gif-pillow/iss634.gif", "gif-pillow/chi.gif", "gif-giflib/welcome2.gif", "gif-giflib/fire.gif",
        "gif-image-gif/moon_impact.gif", "gif-image-gif/anim-gr.gif", "gif-pillow/transparent_dispose.gif",
    ]

    @Test("giflib compositing equals Pillow's on every frame", arguments: files)
    func decodersAgree(file: String) throws {
        let path = Fixtures.root.appendingPathComponent(file).path
        _ = try Fixtures.folder(String(file.split(separator: "/")[0]))
        let ours = try DecodedGIF(path: path)
        let pillow = try PillowGIF(path: path)
        #expect(ours.width == pillow.width && ours.height == pillow.height)
        try #require(
            ours.frames.count == pillow.frames.count, "\(file): \(ours.frames.count) vs \(pillow.frames.count) frames")
        #expect(ours.frames.map { $0.delay * 10 } == pillow.frames.map { $0.durationMs ?? 0 }, "\(file): delays")
        #expect(ours.netscapeLoop == pillow.loop, "\(file): loop")
        for (i, (a, b)) in zip(ours.frames, pillow.frames).enumerated() {
            if !expectPixels(a.pixels, b.pixels, width: ours.width, "\(file) frame \(i)") { break }
        }
    }

    @Test("the files exercise what they should: disposal 2 and 3, local palettes, transparency")
    func coverage() throws {
        func gif(_ file: String) throws -> DecodedGIF {
            try DecodedGIF(path: Fixtures.root.appendingPathComponent(file).path)
        }
        #expect(try gif("gif-pillow/dispose_prev.gif").frames.contains { $0.disposal == 3 })
        #expect(try gif("gif-pillow/dispose_bgnd_transparency.gif").frames.contains { $0.disposal == 2 })
        let iss634 = try gif("gif-pillow/iss634.gif")
        #expect(!iss634.hasGlobalPalette && iss634.frames.allSatisfy { $0.hasLocalPalette })
        #expect(iss634.frames.contains { $0.transparentIndex != nil })
        #expect(try gif("gif-image-gif/moon_impact.gif").netscapeLoop == 10)
    }
}
