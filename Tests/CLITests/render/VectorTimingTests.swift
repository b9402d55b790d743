import Foundation
import TestSupport
import Testing

/// The timing features of config v1 carried into vector files, on one config
/// that uses them all (bounce, timing.start, timing.speed, a step animation
/// with bounds and easing, a keyframe jump, an overshooting Bézier, steps(n),
/// two ends of an arc moving on different periods, repeat delays, a
/// translucent fill, a background and a Lottie layer), drawn by rlottie and
/// Chromium; and the round trip: our Lottie read back by `throbber encode`
/// gives the frames and delays `throbber render` gives.
@Suite("Vector export: every timing feature, and the Lottie round trip", .tags(.slow))
struct VectorTimingTests {
    static func config(lottie: String?) -> String {
        let layer =
            lottie.map { #", {"lottie": "\#($0)", "center": [80, 62], "scale": 0.1, "opacity": 0.8}"# } ?? ""
        return """
            {"version": 1,
             "canvas": {"width": 100, "height": 80, "scale": 2, "background": "#f0f0e0"},
             "timing": {"fps": 20, "start": 0.3, "speed": 1.5, "step": 0.2},
             "bounce": true,
             "layers": [
               {"rect": {"width": 30, "height": 14, "corner": 4}, "fill": "#3366cc", "center": [25, 20],
                "animate": [{"kind": "keyframes", "property": "translateX", "period": 1.2,
                             "keys": [{"at": 0, "value": 0, "ease": "cubic-bezier(0.3, 1.4, 0.7, 1)"},
                                      {"at": 0.6, "value": 40, "ease": "steps(3)"}, {"at": 1.0, "value": 10}]},
                            {"kind": "keyframes", "property": "rotate", "period": 0.6,
                             "keys": [{"at": 0, "value": 0}, {"at": 0.6, "value": 360}]},
                            {"kind": "keyframes", "property": "scaleY", "period": 1.2,
                             "keys": [{"at": 0, "value": 1}, {"at": 0.3, "value": 1.6}, {"at": 0.3, "value": 0.5},
                                      {"at": 1.2, "value": 1}]}]},
               {"circle": {"radius": 6}, "fill": "#cc3333c0", "center": [20, 60],
                "repeat": {"count": 4, "offset": [18, 0], "delay": 0.15},
                "animate": [{"kind": "step", "property": "translateY", "from": 0, "by": 4, "bounce": [0, 8],
                             "ease": "ease-in-out"},
                            {"kind": "keyframes", "property": "opacity", "period": 0.6,
                             "keys": [{"at": 0, "value": 1}, {"at": 0.3, "value": 0.3}, {"at": 0.6, "value": 1}]}]},
               {"arc": {"radius": 14, "start": 30, "end": 300, "width": 4, "cap": "round"}, "stroke": "#228844",
                "center": [80, 25],
                "animate": [{"kind": "keyframes", "property": "end", "period": 1.2,
                             "keys": [{"at": 0, "value": 60, "ease": "ease"}, {"at": 0.6, "value": 350, "ease": "ease-in"},
                                      {"at": 1.2, "value": 60}]},
                            {"kind": "keyframes", "property": "start", "period": 0.4,
                             "keys": [{"at": 0, "value": 0}, {"at": 0.4, "value": 40}]}]}\(layer)
             ]}
            """
    }

    /// Renders `config` to a lossless APNG and to `vector`, and returns both with the loop's frame count.
    static func export(_ text: String, _ vector: String, in dir: URL) throws -> (ref: URL, file: URL, frames: Int) {
        let config = dir.appendingPathComponent("loader-config.json")
        try Data(text.utf8).write(to: config)
        let ref = dir.appendingPathComponent("ref.png")
        let file = dir.appendingPathComponent(vector)
        for out in [ref, file] {
            let r = try Throbber.run(["render", config.path, "-o", out.path, "-q"])
            try #require(r.status == 0, "render -o \(out.lastPathComponent): \(r.stderrText)")
        }
        let lottie = dir.appendingPathComponent("frames.json")
        let r = try Throbber.run(["render", config.path, "-o", lottie.path, "-q"])
        try #require(r.status == 0, "\(r.stderrText)")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lottie)) as? [String: Any])
        return (ref, file, try #require(top["op"] as? Int))
    }

    @Test("rlottie draws the Lottie of every timing feature, a Lottie layer included, as the frames", .needsFixtures)
    func everyFeatureInRlottie() throws {
        let loader = try Fixtures.url("lottie-android/simple_loader.json")
        try withTemporaryDirectory { dir in
            let (ref, lottie, frames) = try Self.export(Self.config(lottie: loader.path), "loader.json", in: dir)
            // Bounce: 2·(N − 1) frames of a cycle of N.
            #expect(frames % 2 == 0)
            let out = dir.appendingPathComponent("rlottie")
            let list = "[" + (0..<frames).map(String.init).joined(separator: ",") + "]"
            _ = try Pillow.script("vector_render.py", ["lottie-rlottie", lottie.path, list, "200", "160", out.path])
            let result = try VectorSupport.compare(ref, out, frames: frames)
            #expect(result.minPsnr >= 40, "rlottie: \(result.worst)")
        }
    }

    @Test(
        "Chromium draws the SVG of every timing feature as the frames",
        .enabled(if: VectorRendererTests.chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"))
    func everyFeatureInChromium() throws {
        try withTemporaryDirectory { dir in
            let (ref, svg, frames) = try Self.export(Self.config(lottie: nil), "loader.svg", in: dir)
            let loop = try VectorSupport.apngLoop(ref).seconds
            let times =
                "[" + (0..<frames).map { "[\($0 * loop.0), \(frames * loop.1)]" }.joined(separator: ",") + "]"
            let out = dir.appendingPathComponent("chromium")
            _ = try Pillow.script("vector_render.py", ["svg", svg.path, "100", "80", "2", times, out.path])
            let result = try VectorSupport.compare(ref, out, frames: frames)
            #expect(result.minPsnr >= 35, "Chromium: \(result.worst)")
        }
    }

    @Test(
        "throbber encode of the exported Lottie gives render's frame count, delays and pictures",
        arguments: ["spinner", "pacman", "dots"])
    func roundTrip(_ preset: String) throws {
        try withTemporaryDirectory { dir in
            let lottie = dir.appendingPathComponent("loader.json")
            let rendered = dir.appendingPathComponent("rendered.png")
            let encoded = dir.appendingPathComponent("encoded.png")
            for (arguments, out) in [
                (["preset", preset, "--size", "240"], lottie), (["preset", preset, "--size", "240"], rendered),
            ] {
                let r = try Throbber.run(arguments + ["-o", out.path, "-q"])
                try #require(r.status == 0, "\(arguments.joined(separator: " ")): \(r.stderrText)")
            }
            // The Lottie is in points; drawn at the frames' pixel width.
            let a = try VectorSupport.apngLoop(rendered)
            let r = try Throbber.run(["encode", lottie.path, "--width", "\(a.width)", "-o", encoded.path, "-q"])
            try #require(r.status == 0, "encode: \(r.stderrText)")
            let b = try VectorSupport.apngLoop(encoded)
            #expect(a.seconds == b.seconds, "loop \(a.seconds) rendered, \(b.seconds) through the Lottie")
            #expect((a.width, a.height) == (b.width, b.height))
            let top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lottie)) as? [String: Any])
            let frames = try #require(top["op"] as? Int)
            let out = dir.appendingPathComponent("encoded-frames")
            _ = try Pillow.script("vector_render.py", ["frames", encoded.path, "\(frames)", out.path])
            let result = try VectorSupport.compare(rendered, out, frames: frames)
            #expect(result.minPsnr >= 39.5, "\(preset) through its Lottie: \(result.worst)")
        }
    }
}
