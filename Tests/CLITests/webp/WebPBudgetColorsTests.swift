import Foundation
import TestSupport
import Testing

/// `--colors N --max-bytes S` on WebP: the budget search stays within the
/// palette asked for, checked on what Pillow decodes.
@Suite("WebP --colors with --max-bytes")
struct WebPBudgetColorsTests {
    /// Writes 24 opaque 96x64 frames of three sine gradients moving at
    /// different speeds (thousands of colors a frame) into `folder`, with
    /// numpy; returns them in order.
    static func gradientFrames(in folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = """
            import sys
            import numpy as np
            from PIL import Image
            h, w = 64, 96
            y, x = np.mgrid[0:h, 0:w].astype(float)
            for i in range(24):
                t = i / 24 * 2 * np.pi
                r = 128 + 127 * np.sin(x / w * 2 * np.pi + t)
                g = 128 + 127 * np.sin(y / h * 2 * np.pi - t)
                b = 128 + 127 * np.cos((x + y) / (w + h) * 2 * np.pi + 2 * t)
                a = np.clip(np.stack([r, g, b], -1), 0, 255).astype(np.uint8)
                Image.fromarray(a, "RGB").save("%s/%02d.png" % (sys.argv[1], i))
            """
        let r = try Command.run(Pillow.python, ["-c", script, folder.path])
        guard r.status == 0 else { throw HarnessError("making gradient frames: \(r.stderrText)") }
        return (0..<24).map { folder.appendingPathComponent(String(format: "%02d.png", $0)) }
    }

    /// A palette WebP keeps the pixels a frame does not redraw, so a frame
    /// as shown may hold colors of earlier palettes; what each frame draws
    /// (the pixels that differ from the frame before, the first frame
    /// whole) is at most 16 colors, as without a budget. A truecolor file
    /// at that size (lossy VP8) draws thousands a frame.
    @Test("--colors 16 --max-bytes at 60 % of the --colors 16 file: fits, and every frame draws at most 16 colors")
    func withinColors() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            let sources = try Self.gradientFrames(in: folder)
            let full = dir.appendingPathComponent("full.webp")
            _ = try WebPCLITests.run(["encode", folder.path, "-o", full.path, "--colors", "16"])
            let budget = try Data(contentsOf: full).count * 6 / 10
            let out = dir.appendingPathComponent("o.webp")
            let r = try WebPCLITests.run([
                "encode", folder.path, "-o", out.path, "--colors", "16", "--max-bytes", "\(budget)",
            ])
            #expect(r.stderrText.contains("up to 16 colors a frame"), "\(r.stderrText)")
            #expect(try Data(contentsOf: out).count <= budget)
            let report = try WebPCLITests.read(out, against: sources)
            #expect(report.frames == 24)
            #expect(report.chunks.coding.allSatisfy { $0 == "VP8L" }, "\(report.chunks.coding)")
            let drawn = try #require(report.newColors)
            #expect(drawn.count == 24 && drawn.allSatisfy { $0 <= 16 }, "colors drawn a frame \(drawn)")
        }
    }
}
