import Foundation
import TestSupport
import Testing

/// `throbber info CLIP` says what ffprobe says: the container's names and
/// brand, the display matrix's rotation, and a WebM's constant rate and
/// length through its 1 ms timestamps.
@Suite("info CLIP: containers, rotation and rates as ffprobe gives them", .tags(.slow))
struct VideoInfoTruthTests {
    private struct Info: Decodable {
        var container: String
        var formatName: String
        var fileType: String?
        var brand: String?
        /// The clockwise turn applied (0, 90, 180, 270), stable since
        /// `info --json` first gave it; ffprobe's number is `display_rotation`.
        var rotation: Int
        var displayRotation: Int
        var width: Int
        var height: Int
        var frameRate: String
        var frameCount: Int
        var durationMs: Double
    }

    private func info(_ clip: URL) throws -> (Info, String) {
        let r = try Throbber.run(["info", clip.path, "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let text = try Throbber.run(["info", clip.path])
        #expect(text.status == 0, "\(text.stderrText)")
        return (try decoder.decode(Info.self, from: r.stdout), text.stdoutText)
    }

    /// ffprobe's `key=value` lines for `entries` of `clip`.
    static func probe(_ clip: URL, _ entries: String) throws -> [String: String] {
        let r = try Command.run(
            URL(fileURLWithPath: "/usr/bin/ffprobe"),
            ["-v", "error", "-select_streams", "v:0", "-show_entries", entries, "-of", "default=nw=1", clip.path])
        guard r.status == 0 else { throw HarnessError("ffprobe: \(r.stderrText)") }
        var out: [String: String] = [:]
        for line in r.stdoutText.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2, out[parts[0]] == nil { out[parts[0]] = parts[1] }
        }
        return out
    }

    @Test("MP4 and QuickTime: ffprobe's format names, and the major brand naming the kind of file")
    func containers() throws {
        try withTemporaryDirectory { dir in
            let mp4 = try VideoEncodeTests.h264(dir, name: "clip.mp4", size: "64x48", rate: 10, seconds: 1)
            let mov = dir.appendingPathComponent("clip.mov")
            try StreamSupport.ffmpeg(["-i", mp4.path, "-c", "copy", "-f", "mov", mov.path])
            for (clip, kind) in [(mp4, "MP4"), (mov, "QuickTime")] {
                let probe = try Self.probe(clip, "format=format_name,format_long_name:format_tags=major_brand")
                let (i, text) = try info(clip)
                #expect(i.container == probe["format_long_name"] && i.formatName == probe["format_name"])
                let brand = try #require(probe["TAG:major_brand"])
                #expect(i.brand?.trimmingCharacters(in: .whitespaces) == brand.trimmingCharacters(in: .whitespaces))
                #expect(i.fileType == kind, "brand \(brand)")
                let shown = "\(kind) (brand \(brand.trimmingCharacters(in: .whitespaces)))"
                #expect(text.hasPrefix("\(clip.path): video, \(shown), "), "\(text)")
                #expect(text.contains(probe["format_long_name"]!), "\(text)")
            }
        }
    }

    @Test("a display matrix's rotation is ffprobe's number, and the size is what it shows", arguments: [90, 270, 180])
    func rotation(_ degrees: Int) throws {
        try withTemporaryDirectory { dir in
            let clip = try VideoEncodeTests.turned(
                VideoEncodeTests.h264(dir, size: "96x64", rate: 10, seconds: 1), degrees: degrees, in: dir)
            let probe = try Self.probe(clip, "stream_side_data=rotation:stream=width,height")
            let rotation = try #require(probe["rotation"].flatMap { Int($0) }, "\(probe)")
            let (i, text) = try info(clip)
            #expect(i.displayRotation == rotation)
            // ffprobe's counterclockwise degrees as the clockwise turn shown.
            #expect(i.rotation == (360 - rotation) % 360, "ffprobe \(rotation), clockwise \(i.rotation)")
            #expect(text.contains("rotation \(rotation) (shown turned"), "\(text)")
            let quarter = rotation % 180 != 0
            #expect((i.width, i.height) == (quarter ? (64, 96) : (96, 64)))
        }
    }

    @Test("a 2 s 60 fps WebM (1 ms timestamps: 0, 17, 33, 50 …) is 120 frames at 60 fps lasting 2.000 s")
    func webmSixty() throws {
        try withTemporaryDirectory { dir in
            for name in ["sixty.webm", "sixty.mkv"] {
                let clip = dir.appendingPathComponent(name)
                try StreamSupport.ffmpeg(
                    [
                        "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=60:duration=2", "-c:v", "libvpx-vp9", "-b:v",
                        "100k",
                        "-deadline", "realtime", clip.path,
                    ])
                let probe = try Self.probe(clip, "stream=r_frame_rate,time_base:format=duration")
                #expect(probe["time_base"] == "1/1000" && probe["r_frame_rate"] == "60/1", "\(probe)")
                let packets = try Command.run(
                    URL(fileURLWithPath: "/usr/bin/ffprobe"),
                    [
                        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0",
                        clip.path,
                    ])
                let pts = packets.stdoutText.split(separator: "\n").compactMap { Int($0) }.sorted()
                #expect(pts.count == 120 && pts.prefix(4) == [0, 17, 33, 50], "\(pts.prefix(6))")
                let (i, text) = try info(clip)
                #expect(i.frameRate == "60" && i.frameCount == pts.count)
                // The length is frames / rate, as the container's own duration says.
                #expect(i.durationMs == Double(pts.count) * 1000 / 60)
                #expect(probe["duration"].flatMap(Double.init) == 2)
                #expect(text.contains("0:02.000") && text.contains("120 frames at 60 fps"), "\(text)")
                #expect(i.fileType == (name.hasSuffix(".webm") ? "WebM" : "Matroska") && i.brand == nil)
                #expect(i.container == "Matroska / WebM")
            }
        }
    }
}
