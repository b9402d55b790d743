import Foundation
import TestSupport
import Testing

@testable import ThrobberCodecs
@testable import ThrobberKit

/// Our LZW coder: with giflib's clear rule it writes giflib's own bytes;
/// with a deferred clear, giflib, Pillow, ffmpeg and the spec decoder read
/// the images exactly.
@Suite("LZW encoder", .tags(.slow))
struct LZWEncoderTests {
    /// The first image's LZW minimum code size and data (sub-blocks joined).
    static func firstImageData(_ bytes: [UInt8]) throws -> (codeSize: Int, data: [UInt8]) {
        var i = 13
        if bytes[10] & 0x80 != 0 { i += 3 << (Int(bytes[10] & 7) + 1) }
        while i < bytes.count {
            switch bytes[i] {
            case 0x21:
                i += 2
                while bytes[i] != 0 { i += Int(bytes[i]) + 1 }
                i += 1
            case 0x2C:
                let flags = bytes[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
                let codeSize = Int(bytes[i])
                i += 1
                var data: [UInt8] = []
                while bytes[i] != 0 {
                    data += bytes[(i + 1)..<(i + 1 + Int(bytes[i]))]
                    i += Int(bytes[i]) + 1
                }
                return (codeSize, data)
            default:
                Issue.record("unexpected block 0x\(String(bytes[i], radix: 16))")
                return (0, [])
            }
        }
        throw ThrobberError(.software, "no image")
    }

    /// Writes one frame to `path` with giflib's own LZW coder
    /// (`EGifPutLine`).
    static func writeWithGiflib(
        _ indices: [UInt8], width: Int, height: Int, palette: [UInt32], transparent: Int?, to path: String
    ) throws {
        try writeFrame(
            indices, width: width, height: height, palette: palette, transparent: transparent, loop: 1, to: path
        ) { $0.usesGiflibLZW = true }
    }

    /// Writes a GIF of one frame of `indices` (a local table of `palette`,
    /// delay 10) to `path`, with the writer set up by `setUp` and the LZW
    /// data `lzw` where given.
    static func writeFrame(
        _ indices: [UInt8], width: Int, height: Int, palette: [UInt32], transparent: Int? = nil, loop: Int = 0,
        lzw: [UInt8]? = nil, codeSize: Int = 0, to path: String, setUp: (GIFWriter) -> Void = { _ in }
    ) throws {
        let file = try OutputFile(path: path)
        let writer = try GIFWriter(
            sink: file, width: width, height: height, globalPalette: nil, backgroundIndex: 0, loop: loop)
        setUp(writer)
        var frame = GIFWriter.Frame(
            rect: PixelRect(x: 0, y: 0, width: width, height: height), palette: palette, indices: indices,
            delay: 10, disposal: .none, transparentIndex: transparent)
        frame.lzw = lzw.map { GIFWriter.LZWData(indices: indices, codeSize: codeSize, data: $0) }
        try writer.write(frame)
        try writer.finish()
        try file.commit()
    }

    /// The bytes giflib's own coder writes for one frame.
    static func giflibFile(_ indices: [UInt8], width: Int, height: Int, palette: [UInt32]) throws -> [UInt8] {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("frame.gif").path
            try writeWithGiflib(indices, width: width, height: height, palette: palette, transparent: nil, to: path)
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    @Test(
        "clearing when full writes giflib's own bytes, across code sizes and dictionary clears",
        arguments: [(2, 0), (16, 4), (16, 40), (256, 12), (7, 30)])
    func whenFullIsGiflib(colors: Int, noise: Int) throws {
        let (width, height) = (320, 200)
        let palette = LossyLZWTests.palette(colors)
        let sources = LossyLZWTests.sources(width: width, height: height, noise: noise, seed: UInt64(colors))
        let indices = LossyLZWTests.nearest(sources, palette)
        let giflib = try Self.firstImageData(Self.giflibFile(indices, width: width, height: height, palette: palette))
        var encoder = LZWEncoder()
        let ours = indices.withUnsafeBufferPointer { encoder.encode($0, codeSize: giflib.codeSize, rule: .whenFull) }
        #expect(ours.count == giflib.data.count)
        #expect(ours == giflib.data, "the streams differ from byte \(zip(ours, giflib.data).prefix { $0 == $1 }.count)")
    }

    /// Frames of a 16-color texture (a 40 × 30 tile of random colors,
    /// repeated) that shifts by a pixel each frame: the dictionary fills
    /// with the tile's strings long before a frame ends, and they keep
    /// matching after.
    static func texture(frames: Int) -> [RGBAImage] {
        var random = SeededRandom(seed: 11)
        let tile = (0..<(40 * 30)).map { _ in Int(random.next() % 16) }
        return (0..<frames).map { f in
            Synth.image(320, 240) { x, y in
                let k = tile[(y % 30) * 40 + (x + f) % 40]
                return (UInt8(k * 16), UInt8(255 - k * 9), UInt8(k * 5), 255)
            }
        }
    }

    @Test(
        "a clear one string earlier or later than giflib's reads exactly in giflib, Pillow, ffmpeg, ImageMagick, Chromium and the spec decoder"
    )
    func clearPlaces() throws {
        let (width, height) = (320, 200)
        let palette = LossyLZWTests.palette(16)
        let indices = LossyLZWTests.nearest(
            LossyLZWTests.sources(width: width, height: height, noise: 40, seed: 5), palette)
        let image = RGBAImage(
            width: width, height: height,
            pixels: indices.flatMap { i -> [UInt8] in
                let c = palette[Int(i)]
                return [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16 & 0xFF), 255]
            })
        // Codes after each clear, counted by hand: with a 4-bit code size
        // the first free code is 18, and each code but the last of a block
        // adds one entry. giflib adds 18…4094 and writes one more code
        // before its clear: 4,078. One string earlier: entries 18…4093 and
        // no code for the string that would add 4094: 4,076. One string
        // later: entries 18…4095 and one more code: 4,079.
        let expectedBlock: [(LZWEncoder.ClearRule, Int)] = [(.whenFull, 4078), (.earlier, 4076), (.later, 4079)]
        let sizes = try withTemporaryDirectory { dir -> [LZWEncoder.ClearRule: Int] in
            let raw = dir.appendingPathComponent("ref.rgba")
            try Data(image.pixels).write(to: raw)
            let reference = dir.appendingPathComponent("reference")
            try FileManager.default.createDirectory(at: reference, withIntermediateDirectories: true)
            // The reference PNG, written by Pillow from the raw pixels.
            let png = try Command.run(
                URL(fileURLWithPath: ToolRunner.python),
                [
                    "-c",
                    "import sys; from PIL import Image; Image.frombytes('RGBA', (\(width), \(height)), open(sys.argv[1], 'rb').read()).save(sys.argv[2])",
                    raw.path, reference.appendingPathComponent("0001.png").path,
                ])
            try #require(png.status == 0, "\(png.stderrText)")
            var sizes: [LZWEncoder.ClearRule: Int] = [:]
            for (rule, block) in expectedBlock {
                var encoder = LZWEncoder()
                let data = indices.withUnsafeBufferPointer { encoder.encode($0, codeSize: 4, rule: rule) }
                sizes[rule] = data.count
                let path = dir.appendingPathComponent("\(rule).gif").path
                // The stream as coded, not moved.
                try Self.writeFrame(
                    indices, width: width, height: height, palette: palette, lzw: data, codeSize: 4, to: path
                ) { $0.triesClearPlaces = false }
                let written = try Self.firstImageData([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
                #expect(written.codeSize == 4 && written.data == data, "\(rule): the stream was not written as coded")
                struct Counted: Decodable {
                    struct Image: Decodable { var blocks: [Int] }
                    var images: [Image]
                }
                let counted = try JSONDecoder().decode(
                    Counted.self, from: ToolRunner.python("gif_lzw_codes.py", [path]))
                let blocks = try #require(counted.images.first?.blocks)
                #expect(blocks.count >= 3 && blocks.dropLast().allSatisfy { $0 == block }, "\(rule): \(blocks)")
                let expected = [normalized(image)]
                expectFrames(try DecodedGIF(path: path).frames.map(\.pixels), equal: expected, width: width, "giflib")
                expectFrames(try PillowGIF(path: path).frames.map(\.pixels), equal: expected, width: width, "Pillow")
                for d in [ReferenceAnimation.Decoder.ffmpeg, .gifspec] {
                    expectFrames(
                        try ReferenceAnimation(d, path: path).frames, equal: expected, width: width,
                        "\(rule) \(d.rawValue)")
                }
                // ImageMagick and Chromium, through the conformance checker.
                let spec: [String: Any] = [
                    "gif": path, "psnr_floor": 35,
                    "reference": ["dir": reference.path, "glob": "*.png", "fps": "10"],
                ]
                let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
                let result = try Command.run(
                    URL(fileURLWithPath: ToolRunner.python),
                    [ToolRunner.tools.appendingPathComponent("conformance.py").path, json], timeout: 240)
                try #require(result.status == 0, "conformance.py: \(result.stderrText)")
                struct Report: Decodable {
                    struct Output: Decodable { var decoders: [String], lossless: Bool? }
                    var problems: [String]
                    var gif: Output?
                }
                let report = try JSONDecoder().decode(Report.self, from: result.stdout)
                #expect(report.problems.isEmpty, "\(rule): \(report.problems)")
                #expect(
                    Set(["pillow", "ffmpeg", "imagemagick", "chromium"]).isSubset(of: report.gif?.decoders ?? []),
                    "\(rule): read by \(report.gif?.decoders ?? [])")
                #expect(report.gif?.lossless == true)
            }
            return sizes
        }
        // Each rule differs in bytes; the encoder keeps the smallest.
        #expect(Set(sizes.values).count == 3, "\(sizes)")
        var encoder = LZWEncoder()
        let smallest = indices.withUnsafeBufferPointer { encoder.smallest($0, codeSize: 4) }
        let chosen = encoder.chosen
        #expect(smallest.count <= sizes.values.min() ?? 0)
        #expect(LZWEncoder.ClearRule.movedByAString.contains(chosen), "\(chosen) won: \(sizes)")
        // Resuming each rule from the shared start codes as that rule alone.
        for rule in LZWEncoder.ClearRule.allCases {
            let alone = indices.withUnsafeBufferPointer { encoder.encode($0, codeSize: 4, rule: rule) }
            let resumed = indices.withUnsafeBufferPointer { encoder.smallest($0, codeSize: 4, rules: [rule]) }
            #expect(resumed == alone, "\(rule): resumed from the shared start, the stream differs")
        }
        // A writer left to choose (the moved clears are tried on its first
        // image) writes that smallest stream, and it reads exactly.
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("chosen.gif").path
            try Self.writeFrame(indices, width: width, height: height, palette: palette, to: path)
            let written = try Self.firstImageData([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(written.data == smallest, "the writer did not keep the smallest stream (\(chosen))")
            let expected = [normalized(image)]
            expectFrames(try DecodedGIF(path: path).frames.map(\.pixels), equal: expected, width: width, "giflib")
            expectFrames(try PillowGIF(path: path).frames.map(\.pixels), equal: expected, width: width, "Pillow")
        }
    }

    @Test("interlaced rows come in the GIF spec's four passes")
    func interlacedRowOrder() {
        // Ten rows of one pixel each, the pixel its row number.
        let rows = GIFWriter.interlacedRows((0..<10).map(UInt8.init), width: 1, height: 10)
        #expect(rows == [0, 8, 4, 2, 6, 1, 3, 5, 7, 9])
        let wide = GIFWriter.interlacedRows([1, 1, 2, 2, 3, 3], width: 2, height: 3)
        #expect(wide == [1, 1, 3, 3, 2, 2])
    }

    @Test("a repeated texture keeps the full dictionary (a deferred clear), smaller than clearing, and reads exactly")
    func deferredClear() throws {
        let frames = Self.texture(frames: 3)
        let gif = try encodeGIF(frames, .with { $0.timing.fps = Rational(10) })
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("texture.gif").path
            try Data(gif.bytes).write(to: URL(fileURLWithPath: path))
            struct Counted: Decodable {
                struct Image: Decodable { var codes: Int, pixels: Int, clears: Int, fullCodes: Int }
                var images: [Image]
            }
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let counted = try decoder.decode(Counted.self, from: ToolRunner.python("gif_lzw_codes.py", [path]))
            try #require(counted.images.count == 3)
            // The first frame, coded whole: one clear (the first), and
            // hundreds of codes from the full dictionary.
            #expect(counted.images[0].clears == 1, "\(counted.images[0])")
            #expect(counted.images[0].fullCodes > 100, "\(counted.images[0])")
            #expect(counted.images[0].pixels == 320 * 240)
            // giflib, Pillow, ffmpeg and the spec decoder show every frame.
            expectViewersShow(gif, frames.map { ($0, 10) })
            for d in [ReferenceAnimation.Decoder.ffmpeg, .gifspec] {
                expectFrames(
                    try ReferenceAnimation(d, path: path).frames, equal: frames.map(normalized), width: 320,
                    d.rawValue)
            }
        }
        // And it pays: on the first frame's indices (any palette order
        // codes alike), keeping the full dictionary beats clearing.
        var random = SeededRandom(seed: 11)
        let tile = (0..<(40 * 30)).map { _ in UInt8(random.next() % 16) }
        var indices: [UInt8] = []
        for y in 0..<240 {
            for x in 0..<320 { indices.append(tile[(y % 30) * 40 + x % 40]) }
        }
        var encoder = LZWEncoder()
        let sizes = LZWEncoder.ClearRule.allCases.map { rule in
            indices.withUnsafeBufferPointer { encoder.encode($0, codeSize: 4, rule: rule).count }
        }
        #expect(sizes[2] < sizes[0] * 9 / 10, "bytes when full, when worn, never: \(sizes)")
    }

    @Test("never goes on from whenWorn's first clear: smallest keeps what each rule codes alone")
    func neverFromWornClear() {
        var random = SeededRandom(seed: 23)
        let tile = (0..<(40 * 30)).map { _ in UInt8(random.next() % 16) }
        func textured(_ rows: Range<Int>) -> [UInt8] {
            rows.flatMap { y in (0..<320).map { x in tile[(y % 30) * 40 + x % 40] } }
        }
        // A texture throughout, where the full dictionary never wears out;
        // and one broken by noise that wears it out (so `whenWorn` clears)
        // before the texture comes back, which `never`'s dictionary holds.
        let still = textured(0..<240)
        let broken = textured(0..<100) + (0..<(40 * 320)).map { _ in UInt8(random.next() % 16) } + textured(0..<100)
        var encoder = LZWEncoder()
        var alone: [[LZWEncoder.ClearRule: [UInt8]]] = []
        for indices in [still, broken] {
            var data: [LZWEncoder.ClearRule: [UInt8]] = [:]
            for rule in LZWEncoder.ClearRule.allCases {
                data[rule] = indices.withUnsafeBufferPointer { encoder.encode($0, codeSize: 4, rule: rule) }
            }
            alone.append(data)
            for rules in [LZWEncoder.ClearRule.atGiflibsPlace, [.whenWorn, .never], [.never, .whenWorn]] {
                let best = rules.min { data[$0]!.count < data[$1]!.count }!
                let smallest = indices.withUnsafeBufferPointer { encoder.smallest($0, codeSize: 4, rules: rules) }
                // (A Bool: the streams are too long to print.)
                let same = smallest == data[best]
                #expect(same, "\(rules): not the stream of \(best) alone")
                #expect(encoder.chosen == best, "\(rules): chose \(encoder.chosen), not \(best)")
            }
        }
        // The cases are what they are meant to be.
        let (stillAlike, brokenAlike) = (
            alone[0][.whenWorn] == alone[0][.never], alone[1][.whenWorn] == alone[1][.never]
        )
        #expect(stillAlike, "the texture wore the dictionary out")
        #expect(!brokenAlike, "the noise did not wear the dictionary out")
        #expect(alone[1][.never]!.count < alone[1][.whenWorn]!.count, "keeping the texture's dictionary did not pay")
    }
}
