import Foundation
import TestSupport
import Testing

/// Lottie input with the options that change it, and files that must be
/// refused: exit 65 naming the file, nothing written.
extension LottieCLITests {
    @Test(".tgs (gzip) gives the same bytes as its JSON; --jobs 1 and 2 give the same bytes")
    func tgsAndJobs() throws {
        let lottie = try LottieExpectation.fixture("glow_loading")
        try withTemporaryDirectory { dir in
            let tgs = dir.appendingPathComponent("sticker.tgs")
            let gz = try Command.run(URL(fileURLWithPath: "/bin/gzip"), ["-c", "-9", lottie.path])
            try gz.stdout.write(to: tgs)
            var outputs: [Data] = []
            for (input, jobs) in [(lottie, "1"), (lottie, "2"), (tgs, "2")] {
                let out = dir.appendingPathComponent("out\(outputs.count).png")
                let r = try Throbber.run(["encode", input.path, "-o", out.path, "-q", "--jobs", jobs, "--width", "96"])
                #expect(r.status == 0, "\(r.stderrText)")
                outputs.append(try Data(contentsOf: out))
            }
            #expect(outputs[0] == outputs[1], "--jobs changed the bytes")
            #expect(outputs[0] == outputs[2], ".tgs differs from its JSON")
        }
    }

    @Test("--fps resamples by time: round(n/fr·fps) evenly spaced frames, each the nearest file frame")
    func fpsResamples() throws {
        let lottie = try LottieExpectation.fixture("simple_loader")
        let e = try LottieExpectation(lottie)
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run(["encode", lottie.path, "-o", out.path, "-q", "--fps", "10"])
            #expect(r.status == 0, "\(r.stderrText)")
            let entries = e.entries(maxFPS: nil, fps: 10)
            #expect(entries.count == 7, "15 frames at 25 fps last 0.6 s: 6 frames at 10 fps")
            let c = try LottieExpectation.compare(out, lottie, width: e.width, height: e.height, entries: entries)
            #expect(c.startsOK && c.total == "3/5")
            // 2.5·j rounded half up: 0, 2.5, 5, 7.5, 10, 12.5 → 0, 3, 5, 8, 10, 13.
            #expect(c.entries.map(\.frame) == [0, 3, 5, 8, 10, 13] && c.entries.allSatisfy { $0.diff == 0 })
        }
    }

    @Test("--width and --height with contain: drawn at the fitted size, centered and padded")
    func containSize() throws {
        let lottie = try LottieExpectation.fixture("autoconnect_loading")
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run([
                "encode", lottie.path, "-o", out.path, "-q", "--width", "100", "--height", "100", "--frames", "1",
            ])
            #expect(r.status == 0, "\(r.stderrText)")
            let info = try JSONDecoder().decode(
                LottieExpectation.Comparison.self,
                from: Pillow.script(
                    "rlottie_render.py", ["compare", out.path, lottie.path, "100", "100", "[[0,0,1],[null,1,50]]"]))
            // 720x250 fits 100x35 (34.7 rounded), padded to 100x100 (offset 32).
            #expect(info.width == 100 && info.height == 100)
            #expect(info.entries.first?.diff ?? 0 > 0, "a 100x100 drawing is not what a padded 100x35 drawing shows")
        }
    }

    @Test("--background fills under the drawing: every pixel opaque, ≥ 40 dB against rlottie's on white")
    func background() throws {
        let lottie = try LottieExpectation.fixture("simple_loader")
        let e = try LottieExpectation(lottie)
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run(["encode", lottie.path, "-o", out.path, "-q", "--background", "white"])
            #expect(r.status == 0, "\(r.stderrText)")
            let c = try LottieExpectation.compare(
                out, lottie, width: e.width, height: e.height, entries: e.entries(maxFPS: nil))
            #expect(c.entries.allSatisfy { $0.psnr >= 40 })
            #expect(c.entries.contains { $0.diff > 0 }, "transparent pixels must now be white")
        }
    }

    @Test(
        "bad Lottie input exits 65 naming the file and writes nothing",
        arguments: [
            ("bad.json", #"{"v": "5.5", "fr": 30, "ip": 0, "op": 10, "#),
            ("refused.json", #"{"v": "5.5", "fr": 30, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": [1, 2]}"#),
            ("empty.json", #"{"v": "5.5", "fr": 30, "ip": 5, "op": 5, "w": 10, "h": 10, "layers": []}"#),
            ("huge.json", #"{"v": "5.5", "fr": 30, "ip": 0, "op": 10, "w": 100000, "h": 100000, "layers": []}"#),
            ("garbage.tgs", "\u{1F}\u{8B}\u{08}\u{00}not really gzip data at all"),
            ("other.json", #"{"name": "not an animation"}"#),
            ("config.json", #"{"version": 1, "canvas": {"width": 10, "height": 10}, "layers": []}"#),
            ("archive.lottie", "PK\u{03}\u{04}zip data"),
        ])
    func badInput(name: String, text: String) throws {
        try withTemporaryDirectory { dir in
            let input = dir.appendingPathComponent(name)
            var bytes = Data(text.utf8)
            if name.hasSuffix(".tgs") { bytes = Data([0x1F, 0x8B, 0x08, 0x00] + Array("not really gzip".utf8)) }
            try bytes.write(to: input)
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", input.path, "-o", out.path])
            expectFailure(r, status: 65, names: [input.path])
            #expect(try listing(dir) == [name])
            if name == "config.json" { #expect(r.stderrText.contains("use `throbber render")) }
        }
    }

    @Test("render refuses a Lottie file and says to use encode")
    func renderRefusesLottie() throws {
        let lottie = try LottieExpectation.fixture("simple_loader")
        try withTemporaryDirectory { dir in
            let r = try Throbber.run(["render", lottie.path, "-o", dir.appendingPathComponent("x.gif").path])
            expectFailure(r, status: 65, names: [lottie.path, "is a Lottie file", "throbber encode"])
            #expect(try listing(dir).isEmpty)
        }
    }
}
