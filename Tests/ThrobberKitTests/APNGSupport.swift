import Foundation
import Testing
import TestSupport
@testable import ThrobberKit

// Helpers for the APNG writer and animated-input tests. Every expected
// value comes from outside ThrobberKit: Tests/tools/apng_chunks.py parses
// the chunks with struct + zlib, Tests/tools/anim_reference.py decodes and
// composites frames (its own spec decoder, Pillow, ffmpeg), and pngcheck
// checks the file.

/// The structure of a PNG/APNG file as apng_chunks.py reads it.
struct APNGStructure: Decodable {
    struct Chunk: Decodable { var type: String; var length: Int; var crcOk: Bool }
    struct Header: Decodable { var width, height, depth, color, compression, filter, interlace: Int }
    struct AnimationControl: Decodable { var numFrames: Int; var numPlays: Int }
    struct FrameControl: Decodable {
        var seq, width, height, x, y, delayNum, delayDen, dispose, blend: Int
        var rect: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }
        /// The delay in seconds, exactly (delay_den 0 means 100).
        var delay: Rational { Rational(Int64(delayNum), Int64(delayDen == 0 ? 100 : delayDen)) }
    }
    struct FrameData: Decodable { var inflated: Int?; var expected: Int?; var filters: [Int] }
    struct DataChunk: Decodable { var seq: Int; var length: Int }

    var signatureOk: Bool
    var chunks: [Chunk]
    var ihdr: Header?
    var actl: AnimationControl?
    var fctl: [FrameControl]
    var fdat: [DataChunk]
    var plteEntries: Int?
    var trns: [Int]?
    var sequence: [Int]
    var frames: [FrameData]
    var trailingBytes: Int
    /// Departures from the APNG/PNG rules apng_chunks.py checks; empty for a good file.
    var problems: [String]

    var types: [String] { chunks.map(\.type) }

    init(path: String) throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        self = try decoder.decode(APNGStructure.self, from: ToolRunner.python("apng_chunks.py", [path]))
    }
}

/// An animation as one of the reference decoders of anim_reference.py
/// composites it.
struct ReferenceAnimation {
    enum Decoder: String { case spec, pillow, ffmpeg, gifspec }
    var decoder: Decoder
    var width: Int, height: Int
    /// Composited RGBA canvases, transparent pixels as 0,0,0,0.
    var frames: [[UInt8]]
    /// spec: exact delay fractions; nil for a still.
    var fractions: [Rational?] = []
    /// pillow (ms / 1000), ffmpeg (s), gifspec (cs / 100), as doubles.
    var seconds: [Double?] = []
    /// gifspec: exact delays (cs / 100).
    var centiseconds: [Int] = []
    /// acTL num_plays (spec), Pillow's info["loop"], or the NETSCAPE count (gifspec).
    var loop: Int?
    var info: [String: Any]

    init(_ decoder: Decoder, path: String) throws {
        self.decoder = decoder
        let (json, frames) = try withTemporaryDirectory { dir -> (Data, [[UInt8]]) in
            let json = try ToolRunner.python("anim_reference.py", [decoder.rawValue, path, dir.path])
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".rgba") }.sorted()
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
        try #require(frames.count == (info["count"] as? Int), "anim_reference.py \(decoder): dumped \(frames.count) frames")
    }
}

/// pngcheck (3.0.3 knows no APNG chunks, but checks the signature, every
/// CRC, chunk order of the PNG chunks, IHDR and the zlib stream of IDAT).
func expectPNGCheck(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let r = try Command.run(URL(fileURLWithPath: "/usr/bin/pngcheck"), ["-q", path])
        #expect(r.status == 0, "pngcheck: \(r.stdoutText)\(r.stderrText)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("pngcheck could not run: \(error)", sourceLocation: sourceLocation)
    }
}

/// An APNG written by AnimationEncoder into a temporary folder (kept while
/// `body` runs), with its structure checked against the spec.
struct WrittenAPNG {
    var path: String
    var bytes: [UInt8]
    var report: EncodeReport
    var structure: APNGStructure
}

@discardableResult
func withAPNG<T>(_ source: FrameSource, _ settings: EncodeSettings, timeline: Timeline? = nil,
                 compression: EncodeSettings.Compression = .best,
                 sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: (WrittenAPNG) throws -> T) throws -> T {
    try withTemporaryDirectory { dir in
        let path = dir.appendingPathComponent("out.png").path
        let output = try OutputFile(path: path)
        var settings = settings
        settings.compression = compression
        let pipeline = AnimationEncoder(format: .apng, settings: settings)
        let report = try timeline.map { try pipeline.encode(source, timeline: $0, to: output) } ?? pipeline.encode(source, to: output)
        try output.commit()
        let structure = try APNGStructure(path: path)
        #expect(structure.problems.isEmpty, "apng_chunks.py: \(structure.problems)", sourceLocation: sourceLocation)
        #expect(structure.chunks.allSatisfy { $0.crcOk }, "a chunk has a bad CRC", sourceLocation: sourceLocation)
        expectPNGCheck(path, sourceLocation: sourceLocation)
        return try body(WrittenAPNG(path: path, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))),
                                    report: report, structure: structure))
    }
}

/// A decoder's frames against the expected stretches: same count, same
/// pixels (exact), in order.
func expectFrames(_ frames: [[UInt8]], equal expected: [[UInt8]], width: Int, _ decoder: String,
                  sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(frames.count == expected.count, "\(decoder): \(frames.count) frames, expected \(expected.count)",
            sourceLocation: sourceLocation)
    for (i, (a, e)) in zip(frames, expected).enumerated() {
        if !expectPixels(a, e, width: width, "\(decoder): frame \(i)", sourceLocation: sourceLocation) { return }
    }
}

/// An image whose alpha-0 pixels are 0,0,0,0 (how decoders report them).
func normalized(_ image: RGBAImage) -> [UInt8] {
    var px = image.pixels
    for p in stride(from: 0, to: px.count, by: 4) where px[p + 3] == 0 { px[p] = 0; px[p + 1] = 0; px[p + 2] = 0 }
    return px
}

/// The bounding box of the pixels that differ between two images, computed
/// here from the pixels (nil when they are equal).
func changedBox(_ a: RGBAImage, _ b: RGBAImage) -> PixelRect? {
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    for y in 0..<a.height {
        for x in 0..<a.width where a.pixel(x, y) != b.pixel(x, y) {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
    }
    return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
}

/// The best PSNR an independent quantizer (Pillow's three, undithered)
/// reaches for `image` with `colors` colors (apng_quantize_baseline.py).
func quantizeBaselinePSNR(_ image: RGBAImage, colors: Int) throws -> Double {
    try withTemporaryDirectory { dir in
        let raw = dir.appendingPathComponent("frame.rgba")
        try Data(image.pixels).write(to: raw)
        let out = try ToolRunner.python("apng_quantize_baseline.py", [raw.path, "\(image.width)", "\(image.height)", "\(colors)"])
        return Double(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }
}
