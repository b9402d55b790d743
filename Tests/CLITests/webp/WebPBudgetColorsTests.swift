import Foundation
import TestSupport
import Testing

/// `--colors N --max-bytes S` on WebP: the budget search stays within the
/// palette asked for, checked on what Pillow decodes.
@Suite("WebP --colors with --max-bytes", .tags(.slow))
struct WebPBudgetColorsTests {
    /// A palette WebP keeps the pixels a frame does not redraw, so a frame
    /// as shown may hold colors of earlier palettes; what each frame draws
    /// (the pixels that differ from the frame before, the first frame
    /// whole) is at most 16 colors, as without a budget. A truecolor file
    /// at that size (lossy VP8) draws thousands a frame.
    @Test("--colors 16 --max-bytes at 60 % of the --colors 16 file: fits, and every frame draws at most 16 colors")
    func withinColors() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            let sources = try Pillow.movingGradients(in: folder)
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
