import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// "JPEG through libjpeg-turbo, grayscale included." Reference: Pillow,
/// which also uses libjpeg-turbo with the ISLOW DCT and fancy upsampling,
/// so the same bytes must come out: the comparison is exact (measured: no
/// difference on any of the 60 frames, nor on color 4:2:0, 4:4:4 and
/// progressive files).
@Suite("JPEG decoding", Fixtures.needed)
struct JPEGDecodeTests {
    static let folder = "photo-seq-dlib-bobot"
    static let frames = Fixtures.names(in: folder, suffix: ".jpg")
    static func path(_ name: String) -> String { Fixtures.root.appendingPathComponent("\(folder)/\(name)").path }

    static let reference = Result { try referenceDecode(frames.map(path)) }

    /// The number of components in the file's start-of-frame segment.
    static func componentCount(_ bytes: [UInt8]) -> Int? {
        var p = 2
        while p + 9 < bytes.count, bytes[p] == 0xFF {
            let marker = bytes[p + 1]
            let length = Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            if (0xC0...0xC2).contains(marker) { return Int(bytes[p + 9]) }
            p += 2 + length
        }
        return nil
    }

    @Test("the camera sequence is 60 grayscale (one-component) JPEGs of 320x240")
    func sequenceIsGrayscale() throws {
        _ = try Fixtures.folder(Self.folder)
        #expect(Self.frames.count == 60)
        for name in Self.frames {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(name))))
            #expect(Self.componentCount(bytes) == 1, "\(name)")
        }
    }

    @Test("each grayscale frame decodes exactly as Pillow decodes it", arguments: frames)
    func grayscaleMatchesPillow(name: String) throws {
        let expected = try #require(try Self.reference.get()[name])
        let image = try ImageDecoder.decode(fileAt: Self.path(name))
        try #require(image.width == 320 && image.height == 240 && expected.width == 320 && expected.height == 240)
        expectPixels(image.pixels, expected.pixels, width: 320, name)
    }

    @Test("grayscale becomes opaque gray RGBA (R = G = B, A = 255), not a blank image")
    func grayscaleIsGrayAndOpaque() throws {
        let image = try ImageDecoder.decode(fileAt: Self.path("frame_000100.jpg"))
        var levels = Set<UInt8>()
        for p in stride(from: 0, to: image.pixels.count, by: 4) {
            let px = image.pixels[p..<p + 4]
            guard px[p] == px[p + 1] && px[p + 1] == px[p + 2] && px[p + 3] == 255 else {
                Issue.record("pixel \(p / 4) is \(Array(px))")
                return
            }
            levels.insert(px[p])
        }
        #expect(levels.count > 100, "a real photo has many gray levels, got \(levels.count)")
    }

    @Test("color JPEGs (4:2:0, 4:4:4, progressive) decode exactly as Pillow decodes them")
    func colorMatchesPillow() throws {
        try withTemporaryDirectory { dir in
            _ = try ToolRunner.python("make_jpeg.py", [dir.path])
            let names = ["color-420.jpg", "color-444.jpg", "color-progressive.jpg"]
            let reference = try referenceDecode(names.map { dir.appendingPathComponent($0).path })
            for name in names {
                let expected = try #require(reference[name])
                let image = try ImageDecoder.decode(fileAt: dir.appendingPathComponent(name).path)
                try #require(image.width == 61 && image.height == 47, "\(name): \(image.width)x\(image.height)")
                expectPixels(image.pixels, expected.pixels, width: 61, name)
                // The pattern is colorful: a decoder that lost chroma would show gray.
                #expect(image.pixels[(20 * 61 + 60) * 4] > 200 && image.pixels[(20 * 61 + 60) * 4 + 1] < 140, "\(name)")
            }
        }
    }
}
