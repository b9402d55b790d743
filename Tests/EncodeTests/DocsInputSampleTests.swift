// swift-format-ignore-file
// (GettingStarted.md quotes this file line for line, laid out by hand for
// docc's narrow code column; the formatter would re-space it.)
// The getting-started article's samples that encode a video and a Lottie
// file with one call each (see DocsSampleTests.swift, which checks that the
// article quotes only code from these files). Their output is checked with
// decoders that are not ThrobberKit: giflib (DecodedGIF) and the APNG spec
// decoder of Tests/tools (ReferenceAnimation), against ffmpeg's own decode
// of the clip.

import Foundation
import Testing
import TestSupport
import ThrobberKit

/// Encodes a video (any file FFmpeg reads) as a GIF
/// `width` pixels wide, resampled to 12 frames a second.
func encodeVideo(
    _ clip: String, width: Int, to path: String
) throws -> EncodeReport {
    var settings = EncodeSettings()
    settings.transform.width = width
    var input = InputOptions()
    input.fps = Rational(12)     // nil: the clip's own times
    let gif = AnimationEncoder(
        format: .gif, settings: settings)

    let output = try OutputFile(path: path)
    let report = try gif.encode(
        inputs: [clip], options: input, to: output)
    try output.commit()
    return report
}

/// Encodes a Lottie file as an APNG, drawn by rlottie
/// `width` pixels wide, at the file's own frame rate.
func encodeLottie(
    _ file: String, width: Int, to path: String
) throws -> EncodeReport {
    var settings = EncodeSettings()
    settings.transform.width = width
    let apng = AnimationEncoder(
        format: .apng, settings: settings)

    let output = try OutputFile(path: path)
    let report = try apng.encode(inputs: [file], to: output)
    try output.commit()
    return report
}

@Suite("Docs samples: inputs")
struct DocsInputSampleTests {
    static let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")

    /// One second of testsrc2 at 25 fps, 64×48, coded losslessly (FFV1).
    static func makeClip(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("clip.mkv").path
        let r = try Command.run(ffmpeg, [
            "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-t", "1",
            "-c:v", "ffv1", "-pix_fmt", "yuv444p", path,
        ])
        guard r.status == 0 else { throw HarnessError("ffmpeg: \(r.stderrText)") }
        return path
    }

    /// ffmpeg's first frame of `clip`, scaled to `width`×`height` RGBA.
    static func ffmpegFirstFrame(_ clip: String, width: Int, height: Int) throws -> [UInt8] {
        let r = try Command.run(ffmpeg, [
            "-v", "error", "-nostdin", "-i", clip, "-frames:v", "1", "-vf",
            "scale=\(width):\(height):flags=lanczos,format=rgba", "-f", "rawvideo", "-",
        ])
        guard r.status == 0, r.stdout.count == width * height * 4 else {
            throw HarnessError("ffmpeg first frame of \(clip): \(r.stderrText)")
        }
        return [UInt8](r.stdout)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") || Fixtures.isCI,
                   "the ffmpeg command is not installed"))
    func encodesAVideoInOneCall() throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.makeClip(in: dir)
            let path = dir.appendingPathComponent("clip.gif").path
            let report = try encodeVideo(clip, width: 32, to: path)
            let gif = try DecodedGIF(path: path)
            #expect((gif.width, gif.height) == (32, 24))
            // One second resampled to 12 fps: every frame starts on a
            // twelfth of the second (in centiseconds, rounded), and the
            // delays add up to the second. Neighbours that come out
            // identical are merged, so there may be fewer than 12.
            #expect(report.frames == gif.frames.count && gif.frames.count >= 6)
            #expect(gif.totalDelay == 100)
            let twelfths = Set((0..<12).map { (100 * $0 + 6) / 12 })
            let starts = gif.frames.indices.map { i in gif.frames[..<i].reduce(0) { $0 + $1.delay } }
            #expect(starts.allSatisfy(twelfths.contains), "\(gif.frames.map(\.delay))")
            let reference = try Self.ffmpegFirstFrame(clip, width: 32, height: 24)
            let db = psnr(gif.frames[0].pixels, reference)
            #expect(db > 24, "first frame \(db) dB from ffmpeg's")
        }
    }

    /// A 48×48 Lottie file, 12 frames at 12 fps: a 16×16 blue square
    /// sliding from x = 8 to x = 24 (its left edge).
    static let slidingSquare = """
        {"v":"5.5.2","fr":12,"ip":0,"op":12,"w":48,"h":48,"ddd":0,"assets":[],
         "layers":[{"ddd":0,"ind":1,"ty":4,"sr":1,"ao":0,"ip":0,"op":12,"st":0,"bm":0,
           "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},
                 "p":{"a":1,"k":[{"t":0,"s":[16,24,0],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},
                                 {"t":12,"s":[32,24,0]}]}},
           "shapes":[{"ty":"rc","d":1,"s":{"a":0,"k":[16,16]},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":0}},
                     {"ty":"fl","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"r":1}]}]}
        """

    @Test func encodesALottieFileInOneCall() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("square.json")
            try Data(Self.slidingSquare.utf8).write(to: file)
            let path = dir.appendingPathComponent("square.png").path
            let report = try encodeLottie(file.path, width: 24, to: path)
            let apng = try ReferenceAnimation(.spec, path: path)
            #expect((apng.width, apng.height) == (24, 24))
            #expect(apng.fractions == Array(repeating: Rational(1, 12), count: 12))
            #expect(report.frames == 12)
            // Drawn at half size: the square is 8×8, its left edge at 4 in
            // the first frame. Its middle is opaque blue; the corners and
            // the right edge are clear.
            func pixel(_ frame: [UInt8], _ x: Int, _ y: Int) -> [UInt8] { Array(frame[(y * 24 + x) * 4..<(y * 24 + x) * 4 + 4]) }
            #expect(pixel(apng.frames[0], 8, 12) == [0, 0, 255, 255])
            #expect(pixel(apng.frames[0], 0, 0)[3] == 0 && pixel(apng.frames[0], 23, 12)[3] == 0)
            // Half a loop later the square has moved 4 pixels right.
            #expect(pixel(apng.frames[6], 4, 12)[3] == 0 && pixel(apng.frames[6], 12, 12) == [0, 0, 255, 255])
        }
    }
}
