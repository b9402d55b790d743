import Foundation
import TestSupport
import Testing

/// A loop begun at its poster frame (`timing.start`) wraps from the last
/// source frame to the first. Where the last frames are the same and the
/// first differs, the APNG's acTL must count the wrap as a change: it once
/// counted it as a repeat, and the writer then trapped on one frame more
/// than acTL announced.
@Suite("render: an APNG whose poster frame makes the loop wrap between different frames")
struct PosterWrapAPNGTests {
    @Test("half a second hidden then half shown, begun at the shown half: two frames of 0.5 s, shown first")
    func wrapCounted() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(
                #"""
                {"version": 1, "canvas": {"width": 20, "height": 20}, "timing": {"fps": 10, "start": 0.5},
                 "layers": [{"rect": {"width": 10, "height": 10}, "fill": "black",
                   "animate": [{"kind": "keyframes", "property": "opacity", "period": 1,
                                "keys": [{"at": 0, "value": 0, "ease": "steps(1)"}, {"at": 0.5, "value": 1, "ease": "steps(1)"},
                                         {"at": 1, "value": 1}]}]}]}
                """#, to: dir, as: "wrap.json")
            let out = dir.appendingPathComponent("wrap.png")
            try SceneCLI.render(config, to: out)
            let d = try APNGCLI.decode("spec", out)
            try #require(d.frames.count == 2, "\(d.frames.count) frames")
            // Frame 0 shows the square: alpha 255 at its center (10, 10).
            #expect(d.frames[0][(10 * 20 + 10) * 4 + 3] == 255)
            #expect(d.frames[1][(10 * 20 + 10) * 4 + 3] == 0)
            #expect(d.seconds.map { $0.map { ($0 * 1000).rounded() } } == [500, 500], "\(d.seconds)")
        }
    }
}
