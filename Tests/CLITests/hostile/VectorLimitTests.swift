import Foundation
import TestSupport
import Testing

/// The limits of making a vector file (docs/reliability.md, "Vector
/// export"): a file over 64 MiB is refused before anything is written,
/// naming the layer where it passes, and making one stays within
/// `--max-memory` or is refused with the figures. These take a debug
/// build tens of seconds (49 pictures of 1 MiB are decoded and encoded),
/// so `make test-fast` leaves them out.
@Suite("Vector export limits: the file's size and the run's memory", .tags(.slow))
struct VectorLimitTests {
    @Test("49 different pictures of 1 MiB would make a vector file over 64 MiB: refused, naming the picture's layer")
    func fileOverSizeLimit() throws {
        try withTemporaryDirectory { dir in
            // 510×510 RGBA noise: just under the 1 MiB a picture may embed.
            let script = """
                import os, sys
                from PIL import Image
                for i in range(49):
                    Image.frombytes("RGBA", (510, 510), os.urandom(510 * 510 * 4)).save(sys.argv[1] + "/p%d.png" % i)
                """
            let made = try Command.run(Pillow.python, ["-c", script, dir.path])
            try #require(made.status == 0, "\(made.stderrText)")
            let layers = (0..<49).map { #"{"image": "p\#($0).png"}"# }.joined(separator: ",")
            let config = try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 64, "height": 64}, "layers": [\#(layers)]}"#, to: dir,
                as: "pictures.json")
            let out = try VectorBombTests.outputFolder(in: dir)
            for (name, format) in [("out.svg", "SVG"), ("out.json", "Lottie")] {
                let m = try VectorBombTests.render(config, to: name, in: dir)
                expectFailure(
                    m.result, status: 65,
                    names: [config.path, "layers[48]: the \(format) file would be larger than 64 MiB"])
                #expect(m.seconds < 30, "\(name): \(m.seconds) s")
                #expect(try listing(out).isEmpty, "\(name)")
            }
        }
    }

    @Test(
        "99,099 discs (the most a frame may draw) export within --max-memory 256M; 900,000 keyframes in one layer do not fit it and are refused"
    )
    func memoryBudget() throws {
        try withTemporaryDirectory { dir in
            let discs = try SceneCLI.write(
                #"""
                {"version": 1, "canvas": {"width": 64, "height": 64}, "timing": {"fps": 10}, "layers": [
                  {"group": [{"circle": {"radius": 1}, "repeat": {"count": 1000, "offset": [0.05, 0]}}],
                   "repeat": {"count": 99, "offset": [0, 0.5]}}]}
                """#, to: dir, as: "discs.json")
            let out = try VectorBombTests.outputFolder(in: dir)
            for name in ["out.svg", "out.json"] {
                let m = try VectorBombTests.render(discs, to: name, in: dir, ["-q", "--max-memory", "256M"])
                #expect(m.result.status == 0, "\(name): \(m.result.stderrText)")
                #expect(m.kilobytes < 256_000, "\(name): peak RSS \(m.kilobytes) KB")
            }
            let layer = try SceneCLI.write(
                VectorBombTests.steps(copies: 1, timing: #"{"fps": 10, "duration": 90}"#, period: "0.1"), to: dir,
                as: "layer.json"
            )
            try FileManager.default.removeItem(at: out.appendingPathComponent("out.json"))
            let m = try VectorBombTests.render(layer, to: "out.json", in: dir, ["--max-memory", "256M"])
            expectFailure(
                m.result, status: 65,
                names: [layer.path, "layers[0]: making the Lottie file needs about", "(256 MB)", "--max-memory"])
            #expect(m.kilobytes < 256_000, "peak RSS \(m.kilobytes) KB")
            #expect(try listing(out) == ["out.svg"])
        }
    }
}
