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
