import Foundation
import Testing
import ThrobberKit

// Helpers for the APNG writer and animated-input tests. Every expected
// value comes from outside ThrobberKit: Tests/tools/apng_chunks.py parses
// the chunks with struct + zlib, Tests/tools/anim_reference.py decodes and
// composites frames (its own spec decoder, Pillow, ffmpeg), and pngcheck
// checks the file.

/// The structure of a PNG/APNG file as apng_chunks.py reads it.
package struct APNGStructure: Decodable {
    package struct Chunk: Decodable {
        package var type: String
        package var length: Int
        package var crcOk: Bool
    }
    package struct Header: Decodable { package var width, height, depth, color, compression, filter, interlace: Int }
    package struct AnimationControl: Decodable {
        package var numFrames: Int
        package var numPlays: Int
    }
    package struct FrameControl: Decodable {
        package var seq, width, height, x, y, delayNum, delayDen, dispose, blend: Int
        package var rect: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }
        /// The delay in seconds, exactly (delay_den 0 means 100).
        package var delay: Rational { Rational(Int64(delayNum), Int64(delayDen == 0 ? 100 : delayDen)) }
    }
    package struct FrameData: Decodable {
        package var inflated: Int?
        package var expected: Int?
        package var filters: [Int]
    }
    package struct DataChunk: Decodable {
        package var seq: Int
        package var length: Int
    }

    package var signatureOk: Bool
    package var chunks: [Chunk]
    package var ihdr: Header?
    package var actl: AnimationControl?
    package var fctl: [FrameControl]
    package var fdat: [DataChunk]
    package var plteEntries: Int?
    package var trns: [Int]?
    package var sequence: [Int]
    package var frames: [FrameData]
    package var trailingBytes: Int
    /// Departures from the APNG/PNG rules apng_chunks.py checks; empty for a good file.
    package var problems: [String]

    package var types: [String] { chunks.map(\.type) }

    package init(path: String) throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        self = try decoder.decode(APNGStructure.self, from: ToolRunner.python("apng_chunks.py", [path]))
    }
}

/// An animation as one of the reference decoders of anim_reference.py
/// composites it.
package struct ReferenceAnimation {
    package enum Decoder: String { case spec, pillow, ffmpeg, gifspec }
    package var decoder: Decoder
    package var width: Int, height: Int
    /// Composited RGBA canvases, transparent pixels as 0,0,0,0.
    package var frames: [[UInt8]]
    /// spec: exact delay fractions; nil for a still.
    package var fractions: [Rational?] = []
    /// pillow (ms / 1000), ffmpeg (s), gifspec (cs / 100), as doubles.
    package var seconds: [Double?] = []
    /// gifspec: exact delays (cs / 100).
    package var centiseconds: [Int] = []
    /// acTL num_plays (spec), Pillow's info["loop"], or the NETSCAPE count (gifspec).
    package var loop: Int?
    package var info: [String: Any]

    package init(_ decoder: Decoder, path: String) throws {
        self.decoder = decoder
        let (json, frames) = try withTemporaryDirectory { dir -> (Data, [[UInt8]]) in
            let json = try ToolRunner.python("anim_reference.py", [decoder.rawValue, path, dir.path])
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".rgba") }
                .sorted()
            return (json, try names.map { [UInt8](try Data(contentsOf: dir.appendingPathComponent($0))) })
        }
        info = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
        width = info["width"] as? Int ?? 0
        height = info["height"] as? Int ?? 0
        self.frames = frames
        loop = info["loop"] as? Int
        let durations = info["durations"] as? [Any] ?? []
        switch decoder {
        case .spec:
            fractions = durations.map { d in
                (d as? [Int]).map { Rational(Int64($0[0]), Int64($0[1])) }
            }
        case .pillow:
            seconds = durations.map { ($0 as? NSNumber).map { $0.doubleValue / 1000 } }
        case .ffmpeg:
            seconds = durations.map { ($0 as? NSNumber)?.doubleValue }
        case .gifspec:
            centiseconds = durations.map { ($0 as? Int) ?? 0 }
            seconds = centiseconds.map { Double($0) / 100 }
        }
        try #require(
            frames.count == (info["count"] as? Int), "anim_reference.py \(decoder): dumped \(frames.count) frames")
    }
}

/// pngcheck (3.0.3 knows no APNG chunks, but checks the signature, every
/// CRC, chunk order of the PNG chunks, IHDR and the zlib stream of IDAT).
package func expectPNGCheck(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let r = try Command.run(URL(fileURLWithPath: "/usr/bin/pngcheck"), ["-q", path])
        #expect(r.status == 0, "pngcheck: \(r.stdoutText)\(r.stderrText)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("pngcheck could not run: \(error)", sourceLocation: sourceLocation)
    }
}

/// An APNG written by AnimationEncoder into a temporary folder (kept while
/// `body` runs), with its structure checked against the spec.
package struct WrittenAPNG {
    package var path: String
    package var bytes: [UInt8]
    package var report: EncodeReport
    package var structure: APNGStructure
}

@discardableResult
package func withAPNG<T>(
    _ source: FrameSource, _ settings: EncodeSettings, timeline: Timeline? = nil,
    compression: EncodeSettings.Compression = .best,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (WrittenAPNG) throws -> T
) throws -> T {
    try withTemporaryDirectory { dir in
        let path = dir.appendingPathComponent("out.png").path
        let output = try OutputFile(path: path)
        var settings = settings
        settings.compression = compression
        let pipeline = AnimationEncoder(format: .apng, settings: settings)
        let report =
            try timeline.map { try pipeline.encode(source, timeline: $0, to: output) }
            ?? pipeline.encode(source, to: output)
        try output.commit()
        let structure = try APNGStructure(path: path)
        #expect(structure.problems.isEmpty, "apng_chunks.py: \(structure.problems)", sourceLocation: sourceLocation)
        #expect(structure.chunks.allSatisfy { $0.crcOk }, "a chunk has a bad CRC", sourceLocation: sourceLocation)
        expectPNGCheck(path, sourceLocation: sourceLocation)
        return try body(
            WrittenAPNG(
                path: path, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))),
                report: report, structure: structure))
    }
}

/// A decoder's frames against the expected stretches: same count, same
/// pixels (exact), in order.
package func expectFrames(
    _ frames: [[UInt8]], equal expected: [[UInt8]], width: Int, _ decoder: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        frames.count == expected.count, "\(decoder): \(frames.count) frames, expected \(expected.count)",
        sourceLocation: sourceLocation)
    for (i, (a, e)) in zip(frames, expected).enumerated() {
        if !expectPixels(a, e, width: width, "\(decoder): frame \(i)", sourceLocation: sourceLocation) { return }
    }
}

/// The APNG at `path` as the spec decoder, ffmpeg and Pillow show it,
/// each against `expected` (see `expectFrames`).
package func expectDecodersShow(
    _ path: String, _ expected: [[UInt8]], width: Int, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    for d in [ReferenceAnimation.Decoder.spec, .ffmpeg, .pillow] {
        expectFrames(
            try ReferenceAnimation(d, path: path).frames, equal: expected, width: width, d.rawValue,
            sourceLocation: sourceLocation)
    }
}

/// An image whose alpha-0 pixels are 0,0,0,0 (how decoders report them).
package func normalized(_ image: RGBAImage) -> [UInt8] {
    var px = image.pixels
    for p in stride(from: 0, to: px.count, by: 4) where px[p + 3] == 0 {
        px[p] = 0
        px[p + 1] = 0
        px[p + 2] = 0
    }
    return px
}

/// The bounding box of the pixels that differ between two images, computed
/// here from the pixels (nil when they are equal).
package func changedBox(_ a: RGBAImage, _ b: RGBAImage) -> PixelRect? {
    var minX = Int.max
    var minY = Int.max
    var maxX = -1
    var maxY = -1
    for y in 0..<a.height {
        for x in 0..<a.width where a.pixel(x, y) != b.pixel(x, y) {
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = max(maxY, y)
        }
    }
    return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
}

/// The best PSNR an independent quantizer (Pillow's three, undithered)
/// reaches for `image` with `colors` colors (apng_quantize_baseline.py).
package func quantizeBaselinePSNR(_ image: RGBAImage, colors: Int) throws -> Double {
    try withTemporaryDirectory { dir in
        let raw = dir.appendingPathComponent("frame.rgba")
        try Data(image.pixels).write(to: raw)
        let out = try ToolRunner.python(
            "apng_quantize_baseline.py", [raw.path, "\(image.width)", "\(image.height)", "\(colors)"])
        return Double(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }
}
