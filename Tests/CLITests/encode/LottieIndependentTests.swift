import Foundation
import TestSupport
import Testing

/// A second opinion on our Lottie frames from a renderer that shares no code
/// with rlottie: python-lottie (PyPI `lottie`, SVG rasterized by cairosvg),
/// installed into .build/pylib by scripts/install-deps.
///
/// Only fixtures python-lottie draws as rlottie does are compared:
/// simple_loader, trail_loading and glow_loading. Left out: soda_loader
/// (python-lottie 0.7.2 cannot load it: "2 is not a valid ShapeDirection"),
/// loading_semicircle and preloader (python-lottie draws their trim paths
/// and strokes elsewhere: 128 to 7935 pixels disagree that are not near any
/// edge), material_loading_2 (60 of 126 disagreeing pixels on frame 5 are
/// not edge pixels), cube_loader and iphone_x_loading (an opaque full-frame
/// background: coverage is the whole frame, so the check says nothing).
@Suite("Lottie input: an independent renderer agrees on coverage", .needsFixtures, .tags(.slow))
struct LottieIndependentTests {
    static let pylib = Paths.repository.appendingPathComponent(".build/pylib/lottie")
    static let available = FileManager.default.fileExists(atPath: pylib.path)

    struct Result: Decodable {
        struct Entry: Decodable {
            var frame: Int
            var ours: Int
            var theirs: Int
            var xor: Int
            var near: Int
        }
        var available: Bool
        var why: String?
        var entries: [Entry]?
    }

    /// Coverage is alpha >= 128. Two anti-aliasing rasterizers put a pixel
    /// whose alpha is near 128 on either side, so disagreement is allowed
    /// only on edges: every pixel covered by one renderer only must be next
    /// to a pixel the other covers, and they may be at most 1% of the
    /// pixels either covers (measured: 0 on simple_loader, at most 8 of
    /// about 2000 on the others).
    @Test(
        "python-lottie's frames cover the same pixels as ours, up to edge pixels",
        .enabled(
            if: available || ProcessInfo.processInfo.environment["CI"] == "true",
            "python-lottie is not in .build/pylib (run scripts/install-deps); independent renderer check skipped"),
        arguments: ["simple_loader", "trail_loading", "glow_loading"])
    func coverage(name: String) throws {
        let lottie = try LottieExpectation.fixture(name)
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("\(name).png")
            let r = try Throbber.run(["encode", lottie.path, "-o", out.path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            let result = try JSONDecoder().decode(
                Result.self, from: Pillow.script("lottie_coverage.py", [out.path, lottie.path, "[3, 7, 11]"]))
            try #require(result.available, "python-lottie cannot be imported: \(result.why ?? "")")
            for e in result.entries ?? [] {
                #expect(e.ours > 0, "frame \(e.frame) of \(name) is empty: the check would say nothing")
                #expect(e.near == e.xor, "frame \(e.frame): \(e.xor - e.near) disagreeing pixels are not on an edge")
                #expect(
                    e.xor * 100 <= max(e.ours, e.theirs),
                    "frame \(e.frame): \(e.xor) pixels disagree of \(e.ours) (ours) and \(e.theirs) (python-lottie)")
            }
        }
    }
}
