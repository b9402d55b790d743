import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// Decoded video frames against what the `ffmpeg` command writes as RGBA
/// for the same frames, with the stream's tags given explicitly.
@Suite("Video pixels", VideoClips.needed)
struct VideoPixelTests {
    /// A clip: how ffmpeg makes it, the tags to convert it with, and the
    /// decoder ffmpeg must use for the reference.
    struct Clip: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var matrix: String
        var range: String
        var size = "64x48"
        var decoder: String? = nil
        /// The chroma's position down (``VideoClips/scale``): 0 for 4:4:4.
        var vertical = 128
        var testDescription: String { name }
    }

    static let clips: [Clip] = [
        Clip(
            name: "h264.mp4",
            arguments: VideoClips.testsrc() + [
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709",
                "-color_trc", "bt709", "-color_range", "tv",
            ], matrix: "bt709", range: "tv"),
        Clip(
            name: "hevc.mp4",
            arguments: VideoClips.testsrc() + [
                "-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p", "-colorspace",
                "smpte170m", "-color_range", "tv",
            ], matrix: "smpte170m", range: "tv"),
        // 10-bit samples, rounded to 8 bits.
        Clip(
            name: "hevc10.mkv",
            arguments: VideoClips.testsrc() + [
                "-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le", "-colorspace",
                "bt709", "-color_range", "tv",
            ], matrix: "bt709", range: "tv"),
        Clip(
            name: "vp9-alpha.webm",
            arguments: [
                "-f", "lavfi", "-i",
                "testsrc2=size=64x48:rate=25,format=yuva420p,geq=lum='p(X,Y)':cb='p(X,Y)':cr='p(X,Y)':a='X*4'",
                "-t", "0.2", "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-colorspace", "bt709",
            ], matrix: "bt709", range: "tv", decoder: "libvpx-vp9"),
        // prores_ks writes no color tags: read as BT.601 limited (under 720 lines).
        Clip(
            name: "prores4444.mov",
            arguments: [
                "-f", "lavfi", "-i",
                "testsrc2=size=64x48:rate=25,format=yuva444p,geq=lum='p(X,Y)':cb='p(X,Y)':cr='p(X,Y)':a='Y*5'",
                "-t", "0.2", "-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le",
            ], matrix: "bt601", range: "tv", vertical: 0),
        Clip(
            name: "av1.mkv",
            arguments: VideoClips.testsrc(seconds: "0.2") + [
                "-c:v", "libaom-av1", "-cpu-used", "8", "-pix_fmt", "yuv420p", "-colorspace", "bt709",
                "-color_range", "tv",
            ], matrix: "bt709", range: "tv"),
        // Untagged: read as BT.601 limited range (under 720 lines).
        Clip(
            name: "mpeg4.avi", arguments: VideoClips.testsrc() + ["-c:v", "mpeg4", "-q:v", "3"], matrix: "bt601",
            range: "tv"),
        Clip(
            name: "ffv1-odd.mkv",
            arguments: VideoClips.testsrc("321x241", seconds: "0.2") + [
                "-c:v", "ffv1", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_range", "tv",
            ], matrix: "bt709", range: "tv", size: "321x241"),
        Clip(
            name: "vp9-odd.webm",
            arguments: VideoClips.testsrc("321x241", seconds: "0.2") + [
                "-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_range", "tv",
            ], matrix: "bt709", range: "tv", size: "321x241"),
        Clip(
            name: "bt601-full.mp4",
            arguments: VideoClips.testsrc() + [
                "-c:v", "libx264", "-pix_fmt", "yuvj420p", "-colorspace", "smpte170m", "-color_range", "pc",
            ], matrix: "smpte170m", range: "pc"),
    ]

    @Test("every frame is within one level (or 50 dB) of ffmpeg's RGBA", arguments: clips)
    func matchesFFmpeg(_ clip: Clip) throws {
        try withTemporaryDirectory { dir in
            let path = try VideoClips.make(dir, clip.name, clip.arguments)
            let file = try VideoFile(path: path, budget: MemoryBudget(limit: 1 << 30), threads: 1)
            let (w, h) = (Int(clip.size.split(separator: "x")[0])!, Int(clip.size.split(separator: "x")[1])!)
            #expect(file.info.displayWidth == w && file.info.displayHeight == h)
            let ours = try VideoClips.decode(file)
            let theirs = try VideoClips.reference(
                path, filter: VideoClips.scale(matrix: clip.matrix, range: clip.range, vertical: clip.vertical),
                width: w, height: h, decoder: clip.decoder)
            #expect(ours.count == theirs.count, "\(clip.name): \(ours.count) frames, ffmpeg \(theirs.count)")
            for (i, (a, b)) in zip(ours, theirs).enumerated()
            where !VideoClips.expectClose(a, b, "\(clip.name) frame \(i + 1)") {
                break
            }
        }
    }
}
