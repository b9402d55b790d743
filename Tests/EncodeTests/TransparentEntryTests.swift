import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// When an opaque GIF spends bytes on transparency, and when it does not:
/// the global table's size, each frame's transparent index and graphic
/// control extension are read from the file's own blocks, and giflib and
/// Pillow must still show every frame exactly.
@Suite("Transparent entries")
struct TransparentEntryTests {
    /// The file's blocks as written (`PaletteTests.imageBlocks`).
    static func blocks(_ bytes: [UInt8]) -> (tableEntries: Int, images: [PaletteTests.ImageBlock]) {
        PaletteTests.imageBlocks(bytes)
    }

    /// A fixed pattern of two colors that LZW codes poorly: kept pixels
    /// in it are far cheaper as runs of one transparent index.
    static func noise(_ x: Int, _ y: Int) -> Bool { (x &* 73 &+ y &* 151 &+ (x * y) % 7) % 11 < 5 }

    @Test(
        "an opaque still of 2 colors has a 2-entry table, no loop extension, and no transparent index (a still keeps nothing)"
    )
    func opaqueStill() throws {
        let still = Synth.image(16, 16) { x, y in Self.noise(x, y) ? (250, 250, 250, 255) : (10, 20, 30, 255) }
        let timed = try encodeGIF([still], .with { $0.loop = 0 })
        let b = Self.blocks(timed.bytes)
        #expect(b.tableEntries == 2, "a transparent entry doubles the table of a still that keeps nothing")
        #expect(b.images.count == 1)
        #expect(b.images.first?.control == true && b.images.first?.transparent == nil, "\(b.images)")
        #expect(timed.giflib.netscapeLoop == nil, "a single frame has nothing to repeat")
        expectViewersShow(timed, [(still, 4)])
    }

    @Test(
        "a first frame that draws part of the canvas is cut to what it draws, its transparent entry the background index, and every decoder shows the clear border",
        arguments: [1, 3])
    func firstFrameCut(frames count: Int) throws {
        // Two-color noise in a 20 × 16 block at (20, 8) of a clear 48 × 32
        // canvas; in an animation the block moves right a pixel a frame.
        let frames = (0..<count).map { f in
            Synth.image(48, 32) { x, y in
                guard (20 + f..<40 + f).contains(x), (8..<24).contains(y) else { return (0, 0, 0, 0) }
                return Self.noise(x, y) ? (250, 250, 250, 255) : (10, 20, 30, 255)
            }
        }
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        let first = try #require(gif.giflib.frames.first)
        #expect(
            first.left == 20 && first.top == 8 && first.width == 20 && first.height == 16,
            "frame 0 at \(first.left),\(first.top) \(first.width)x\(first.height)")
        let t = try #require(first.transparentIndex, "a cut first frame needs its transparent index")
        #expect(Int(gif.bytes[11]) == t, "background index \(gif.bytes[11]), transparent \(t)")
        #expect(!first.hasLocalPalette)
        expectViewersShow(gif, frames.map { ($0, 10) })
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("cut.gif").path
            try Data(gif.bytes).write(to: URL(fileURLWithPath: path))
            for d in [ReferenceAnimation.Decoder.ffmpeg, .gifspec] {
                expectFrames(
                    try ReferenceAnimation(d, path: path).frames, equal: frames.map(normalized), width: 48, d.rawValue)
            }
        }
    }

    @Test(
        "an opaque 4-color animation whose changes leave a color out: a 4-entry table, kept pixels through an entry the frame does not draw"
    )
    func unusedEntryAsTransparent() throws {
        // A static white bar over a field of two-color noise in which two
        // red squares far apart move down: the changes need red and the
        // noise's two colors, never white, and the noise between the
        // squares is kept.
        let frames = (0..<6).map { f in
            Synth.image(40, 24) { x, y in
                if y < 3 { return (255, 255, 255, 255) }
                if (x < 4 || x >= 36) && y >= 4 + f * 3 && y < 7 + f * 3 { return (220, 20, 20, 255) }
                return Self.noise(x, y) ? (40, 40, 160, 255) : (160, 160, 40, 255)
            }
        }
        #expect(Synth.colorCount(frames) == 4)
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        let b = Self.blocks(gif.bytes)
        #expect(b.tableEntries == 4, "a reserved transparent entry would double the table to 8 and widen the codes")
        try #require(b.images.count == 6)
        #expect(b.images.first?.transparent == nil, "the first frame has nothing to keep")
        let transparent = b.images.dropFirst().compactMap(\.transparent)
        #expect(!transparent.isEmpty, "no frame keeps the noise it does not change")
        #expect(transparent.allSatisfy { $0 < 4 })
        expectViewersShow(gif, frames.map { ($0, 10) })
    }

    @Test(
        "a 2-color animation whose every change needs both colors keeps a transparent entry: 2-bit codes are the minimum either way"
    )
    func twoColorsKeepTheEntry() throws {
        // Two-color noise, and two blocks in opposite corners whose cells
        // flip both ways in every frame, as in the Game of Life.
        let frames = (0..<5).map { f in
            Synth.image(32, 24) { x, y in
                let block = (x < 6 && y < 6) || (x >= 26 && y >= 18)
                let on = block ? (x + y + f) % 3 == 0 : Self.noise(x, y)
                return on ? (255, 255, 255, 255) : (0, 0, 0, 255)
            }
        }
        #expect(Synth.colorCount(frames) == 2)
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        let b = Self.blocks(gif.bytes)
        #expect(b.tableEntries == 4)
        try #require(b.images.count == 5)
        for k in 1..<5 { #expect(gif.giflib.frames[k].drawnColors.count == 2, "frame \(k)") }
        #expect(b.images.dropFirst().contains { $0.transparent != nil }, "no frame keeps the noise between the blocks")
        expectViewersShow(gif, frames.map { ($0, 10) })
    }
}
