import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// A trim in a scene job's settings: the drawn frames are cropped to what
/// they draw, as `encode --trim` crops files.
@Suite("scene jobs: trim")
struct SceneTrimTests {
    /// A 60x60 transparent canvas with a 10x8 red rect centered at (45, 12)
    /// that fades (so frames differ): it covers columns 40…49, rows 8…15.
    static let config = SceneTestKit.scene(
        width: 60, height: 60, timing: #"{"fps": 10, "duration": 1}"#,
        layers:
            #"{"rect": {"width": 10, "height": 8}, "center": [45, 12], "fill": "red", "animate": [{"kind": "keyframes", "property": "opacity", "period": 1, "keys": [{"at": 0, "value": 1}, {"at": 0.5, "value": 0.5}, {"at": 1, "value": 1}]}]}"#
    )

    /// `job` encoded as `format` to a temporary file, and that file decoded.
    static func encoded(_ job: SceneJob, as format: AnimationFormat) throws -> (EncodeReport, DecodedAnimation) {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("trim").path
            let file = try OutputFile(path: path)
            let report = try job.encode(to: file, format: format)
            try file.commit()
            return (report, try DecodedAnimation.read(path))
        }
    }

    @Test("a scene encoded with trim comes out at the drawn box, 10x8, each frame the box of the drawn frame")
    func sceneTrim() throws {
        var job = try SceneJob(config: try SceneTestKit.config(Self.config), jobs: 2)
        job.settings.transform.trim = true
        do {
            let (report, decoded) = try Self.encoded(job, as: .apng)
            #expect(report.trim?.rect == PixelRect(x: 40, y: 8, width: 10, height: 8))
            #expect(decoded.width == 10 && decoded.height == 8)
            // Each frame is the rect as the renderer draws it at that time, cropped.
            let renderer = try SceneTestKit.renderer(try SceneTestKit.config(Self.config))
            let clock = try SceneTestKit.clock(try SceneTestKit.config(Self.config))
            #expect(decoded.frames.count >= 2, "the fade makes frames differ")
            for (i, frame) in decoded.frames.enumerated() where i < clock.frameCount {
                let drawn = try renderer.render(at: clock.time(ofFrame: i))
                for y in 0..<8 {
                    for x in 0..<10 {
                        let a = Array(frame.pixels[(y * 10 + x) * 4..<(y * 10 + x) * 4 + 4])
                        let b = Array(drawn.pixels[((y + 8) * 60 + x + 40) * 4..<((y + 8) * 60 + x + 40) * 4 + 4])
                        #expect(a == b, "frame \(i + 1) pixel (\(x), \(y))")
                    }
                }
            }
        }
    }

    @Test("with a margin of 3 the box grows by 3 a side; by 50 it stops at the canvas")
    func sceneTrimMargin() throws {
        for (margin, box) in [
            (3, PixelRect(x: 37, y: 5, width: 16, height: 14)), (50, PixelRect(x: 0, y: 0, width: 60, height: 60)),
        ] {
            var job = try SceneJob(config: try SceneTestKit.config(Self.config), jobs: 1)
            job.settings.transform.trim = true
            job.settings.transform.trimMargin = margin
            let (report, decoded) = try Self.encoded(job, as: .gif)
            #expect(report.trim?.rect == PixelRect(x: 40, y: 8, width: 10, height: 8))
            #expect(decoded.width == box.width && decoded.height == box.height, "margin \(margin)")
        }
    }
}
