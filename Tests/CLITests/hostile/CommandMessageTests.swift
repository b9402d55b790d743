import Foundation
import TestSupport
import Testing

/// `render` given a Lottie file in any of its forms points to `encode`.
@Suite("render: a Lottie file in zip or gzip form")
struct RenderPackedLottieTests {
    @Test(
        "render x.lottie and x.tgs say they are Lottie files and to use encode; a zip of no Lottie says zip",
        .needsFixtures)
    func packed() throws {
        let lottie = try LottieExpectation.fixture("simple_loader")
        try withTemporaryDirectory { dir in
            try DotLottieTests.pack(
                dir.appendingPathComponent("x.lottie"), "deflate", [("animations/a.json", lottie.path)])
            try DotLottieTests.pack(
                dir.appendingPathComponent("named.json"), "stored", [("animations/a.json", lottie.path)])
            try DotLottieTests.pack(dir.appendingPathComponent("other.zip"), "deflate", [("a.txt", "text:hello")])
            let gz = try Hostile.shell("gzip -c '\(lottie.path)' > x.tgs", in: dir)
            #expect(gz.status == 0, "\(gz.stderrText)")
            let before = try listing(dir)
            for name in ["x.lottie", "x.tgs", "named.json"] {
                let r = try Throbber.run(["render", name, "-o", "out.gif"], in: dir)
                expectFailure(
                    r, status: 65,
                    names: ["\(name) is a Lottie file, not a Throbber config: use `throbber encode \(name) -o OUT.gif`"]
                )
            }
            let r = try Throbber.run(["render", "other.zip", "-o", "out.gif"], in: dir)
            expectFailure(r, status: 65, names: ["other.zip is a zip archive, not a Throbber config"])
            #expect(try listing(dir) == before)
        }
    }
}

/// `preset --speed` and `--fps` that give no valid frame count are refused
/// naming those options, not config keys a preset does not have.
@Suite("preset: timing advice names preset options")
struct PresetTimingAdviceTests {
    @Test("--speed 0.001, --speed 100 --fps 0.5, ease --fps 1: 64 naming --speed/--fps, never timing.fps")
    func advice() throws {
        try withTemporaryDirectory { dir in
            for (args, names) in [
                (
                    ["spinner", "--speed", "0.001"],
                    ["--speed 0.001", "over the 1000 frame limit", "raise --speed or lower --fps"]
                ),
                (
                    ["spinner", "--speed", "100", "--fps", "0.5"],
                    ["less than one frame", "lower --speed or raise --fps"]
                ),
                (["ease", "--fps", "1"], ["too few for its 6 steps", "use --fps 4 or more"]),
            ] {
                let r = try Throbber.run(["preset"] + args + ["-o", "out.gif"], in: dir)
                expectUsage(r, names: ["preset \(args[0]): "] + names)
                #expect(!r.stderrText.contains("timing."), "\(r.stderrText)")
                #expect(try listing(dir).isEmpty)
            }
            // render keeps the config's keys as its advice.
            let config = try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 8, "height": 8}, "timing": {"fps": 24, "duration": 1000}, "layers": [{"circle": {"radius": 2}}]}"#,
                to: dir, as: "slow.json")
            let r = try Throbber.run(["render", config.path, "-o", dir.appendingPathComponent("x.gif").path])
            expectFailure(r, status: 65, names: ["slow.json: timing", "lower timing.fps"])
        }
    }
}
