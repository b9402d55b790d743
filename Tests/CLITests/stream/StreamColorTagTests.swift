import Foundation
import TestSupport
import Testing

/// The color extensions of a YUV4MPEG2 header: `XCOLORRANGE=FULL` (which
/// ffmpeg writes for `-color_range pc`) and `XCOLORSPACE=BT709` (which
/// ffmpeg's muxer does not write, so it is added to the header line here).
/// The reference is ffmpeg's own exact RGB conversion with the range and
/// matrix given to its scaler explicitly.
@Suite("encode - : YUV4MPEG2 color range and matrix tags")
struct StreamColorTagTests {
    /// One header's tags, and the scaler options that say the same.
    struct Tags: CustomTestStringConvertible, Sendable {
        var fullRange: Bool
        var bt709: Bool
        var testDescription: String { "\(fullRange ? "FULL" : "LIMITED") range, \(bt709 ? "BT.709" : "BT.601")" }

        /// ffmpeg's scale filter options for these tags, or for the
        /// opposite ones (`wrong`), converting exactly.
        func scale(wrong: Bool = false) -> String {
            let full = fullRange != wrong
            let matrix = bt709 != wrong ? "bt709" : "bt601"
            return "scale=in_range=\(full ? "full" : "limited"):in_color_matrix=\(matrix)"
                + ":flags=neighbor+accurate_rnd+full_chroma_int,format=rgb24"
        }
    }

    /// Writes 3 frames of testsrc2 as YUV4MPEG2 with `tags` to `url`;
    /// returns its header line.
    static func stream(_ tags: Tags, to url: URL) throws -> String {
        try StreamSupport.ffmpeg(
            StreamSupport.testsrc("96x64", count: 3)
                + ["-pix_fmt", "yuv420p", "-color_range", tags.fullRange ? "pc" : "tv"]
                + ["-colorspace", tags.bt709 ? "bt709" : "smpte170m", "-f", "yuv4mpegpipe", url.path])
        var data = try Data(contentsOf: url)
        let end = try #require(data.firstIndex(of: 0x0A))
        if tags.bt709 {
            data.insert(contentsOf: Array(" XCOLORSPACE=BT709".utf8), at: end)
            try data.write(to: url)
        }
        return String(decoding: data[..<data.firstIndex(of: 0x0A)!], as: UTF8.self)
    }

    /// ffmpeg's RGB frames of `y4m` through `filter`, decoded by Pillow.
    static func reference(_ y4m: URL, filter: String, in dir: URL, name: String) throws -> [[UInt8]] {
        let folder = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try StreamSupport.ffmpeg(["-i", y4m.path, "-vf", filter, folder.appendingPathComponent("%04d.png").path])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0) }
        return try APNGCLI.stills(files).frames
    }

    @Test(
        "XCOLORRANGE=FULL and XCOLORSPACE=BT709 select the range and matrix: within 1 level of ffmpeg told the same",
        arguments: [
            Tags(fullRange: true, bt709: false), Tags(fullRange: false, bt709: true),
            Tags(fullRange: true, bt709: true),
        ])
    func tagsSelectConversion(_ tags: Tags) throws {
        try withTemporaryDirectory { dir in
            let y4m = dir.appendingPathComponent("in.y4m")
            let header = try Self.stream(tags, to: y4m)
            #expect(header.contains(" XCOLORRANGE=\(tags.fullRange ? "FULL" : "LIMITED")"), "\(header)")
            #expect(header.contains(" XCOLORSPACE=BT709") == tags.bt709, "\(header)")
            let out = dir.appendingPathComponent("out.png")
            let r = try StreamSupport.run(["encode", "-", "-o", out.path, "-q"], stdin: y4m)
            #expect(r.status == 0, "\(r.stderrText)")
            let ours = try APNGCLI.decode("pillow", out).frames
            #expect(ours.count == 3)
            let right = try Self.reference(y4m, filter: tags.scale(), in: dir, name: "right")
            let d = StreamSupport.maxDifference(ours, right)
            #expect(d != nil && d! <= 1, "max difference \(String(describing: d)) from ffmpeg with the same tags")
            // The tags matter: read the other way, testsrc2's colors are far off.
            let wrong = try Self.reference(y4m, filter: tags.scale(wrong: true), in: dir, name: "wrong")
            let w = StreamSupport.maxDifference(ours, wrong)
            #expect(w != nil && w! >= 10, "max difference \(String(describing: w)) from ffmpeg with the other tags")
        }
    }
}
