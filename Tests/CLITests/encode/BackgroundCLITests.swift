import Foundation
import TestSupport
import Testing

/// `encode --background COLOR` on frames that are not drawn by Throbber: a
/// frame folder, a PNG stream and a YUV4MPEG2 stream. Translucent frames and
/// their composite over the color are made in numpy (background_over.py);
/// the output is decoded by Pillow.
@Suite("encode --background: frame folders and streams composited on the color")
struct BackgroundCLITests {
    /// The color under every frame, away from the frames' own colors.
    static let color = "#3366CC"

    /// Four translucent 48x32 frames (alpha 0…255 across) in `dir/frames`,
    /// and each one drawn over ``color`` by numpy in `dir/expected`.
    static func frames(in dir: URL) throws -> (frames: [URL], expected: [URL]) {
        let folder = dir.appendingPathComponent("frames")
        _ = try Pillow.script("background_over.py", ["frames", folder.path, "4", "48", "32"])
        let frames = (1...4).map { folder.appendingPathComponent(String(format: "%04d.png", $0)) }
        let expected = dir.appendingPathComponent("expected")
        _ = try Pillow.script("background_over.py", ["over", color, expected.path] + frames.map(\.path))
        return (frames, (1...4).map { expected.appendingPathComponent(String(format: "%04d.png", $0)) })
    }

    /// Checks that `out` (lossless APNG) decodes to `expected`, within one
    /// level (the rounding of source-over), and is opaque everywhere.
    static func expectComposited(
        _ out: URL, _ expected: [URL], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let ours = try APNGCLI.decode("pillow", out).frames
        let reference = try APNGCLI.stills(expected).frames
        let d = StreamSupport.maxDifference(ours, reference)
        #expect(
            d != nil && d! <= 1, "max difference \(String(describing: d)) from numpy's composite",
            sourceLocation: sourceLocation)
        let alphas = Set(ours.flatMap { frame in stride(from: 3, to: frame.count, by: 4).map { frame[$0] } })
        #expect(alphas == [255], "alpha values \(alphas.sorted())", sourceLocation: sourceLocation)
    }

    @Test("a frame folder of translucent PNGs comes out opaque, each pixel the frame drawn over the color")
    func frameFolder() throws {
        try withTemporaryDirectory { dir in
            let (frames, expected) = try Self.frames(in: dir)
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run([
                "encode", frames[0].deletingLastPathComponent().path, "-o", out.path, "--background", Self.color,
                "-q",
            ])
            #expect(r.status == 0, "\(r.stderrText)")
            try Self.expectComposited(out, expected)
            // Without the option the transparent column stays transparent.
            let plain = dir.appendingPathComponent("plain.png")
            #expect(try Throbber.run(["encode"] + frames.map(\.path) + ["-o", plain.path, "-q"]).status == 0)
            let first = try #require(try APNGCLI.decode("pillow", plain).frames.first)
            #expect(first[3] == 0, "the first column should be transparent without --background")
        }
    }

    @Test("a PNG stream on standard input is composited as the same frames in a folder are")
    func pngStream() throws {
        try withTemporaryDirectory { dir in
            let (frames, expected) = try Self.frames(in: dir)
            let stream = dir.appendingPathComponent("stream.png")
            try StreamSupport.concatenate(frames, to: stream)
            let out = dir.appendingPathComponent("out.png")
            let r = try StreamSupport.run(
                ["encode", "-", "-o", out.path, "--background", Self.color, "-q"], stdin: stream)
            #expect(r.status == 0, "\(r.stderrText)")
            try Self.expectComposited(out, expected)
        }
    }

    @Test("a YUV4MPEG2 stream is opaque: --background leaves its frames as they are")
    func y4mStream() throws {
        try withTemporaryDirectory { dir in
            let y4m = dir.appendingPathComponent("in.y4m")
            try StreamSupport.ffmpeg(
                StreamSupport.testsrc("160x120", count: 3) + ["-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", y4m.path])
            var outputs: [URL] = []
            for (name, extra) in [("plain.png", []), ("background.png", ["--background", Self.color])] {
                let out = dir.appendingPathComponent(name)
                let r = try StreamSupport.run(["encode", "-", "-o", out.path, "-q"] + extra, stdin: y4m)
                #expect(r.status == 0, "\(r.stderrText)")
                outputs.append(out)
            }
            let frames = try APNGCLI.decode("pillow", outputs[1]).frames
            #expect(frames.count == 3)
            #expect(try APNGCLI.decode("pillow", outputs[0]).frames == frames)
        }
    }
}
