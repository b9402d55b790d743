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

    @Test(
        "libjpeg's own memory is limited: a progressive file's coefficients over the limit are refused, baseline is not"
    )
    func memoryLimit() throws {
        try withTemporaryDirectory { dir in
            // 256x256 at 4:2:0 holds 1024 luma and 2 x 256 chroma blocks of
            // 128 bytes: about 197 kB of coefficients for the whole image.
            let script = """
                import sys
                from PIL import Image
                im = Image.effect_noise((256, 256), 60).convert('RGB')
                im.save(sys.argv[1] + '/p.jpg', quality=90, progressive=True)
                im.save(sys.argv[1] + '/b.jpg', quality=90)
                """
            let made = try Command.run(URL(fileURLWithPath: ToolRunner.python), ["-c", script, dir.path])
            try #require(made.status == 0, "Pillow: \(made.stderrText)")
            func bytes(_ name: String) throws -> [UInt8] {
                [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            }
            let progressive = try bytes("p.jpg")
            #expect {
                try ImageDecoder.decode(progressive, name: "p.jpg", memoryLimit: 100_000)
            } throws: { error in
                let text = "\(error)"
                return text.contains("p.jpg") && text.contains("progressive") && text.contains("100000 bytes of memory")
            }
            #expect(try ImageDecoder.decode(progressive, name: "p.jpg", memoryLimit: 1 << 20).width == 256)
            // A baseline file is decoded a row of blocks at a time.
            #expect(try ImageDecoder.decode(try bytes("b.jpg"), name: "b.jpg", memoryLimit: 100_000).width == 256)
        }
    }
}
