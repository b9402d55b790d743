import Foundation
import TestSupport
import Testing

/// Configs whose vector export (SVG, Lottie) or drawing would take far more
/// time, memory or bytes than the config suggests (docs/reliability.md,
/// "Vector export"): refused when the config is read or before anything is
/// written, at once, with a small peak RSS, naming the file and the JSON
/// path; nothing is left in the output folder.
@Suite("Hostile vector exports: empty-group bombs, huge step counts, repeated pictures, extreme numbers")
struct VectorBombTests {
    /// The three outputs every bomb is tried with.
    static let outputs = ["out.svg", "out.json", "out.gif"]

    /// `depth` groups nested one in the next, each repeated `count` times,
    /// the innermost empty: a config of a few hundred bytes.
    static func emptyGroups(depth: Int, count: Int) -> String {
        var group = #"{"group": [], "repeat": {"count": \#(count)}}"#
        for _ in 1..<depth { group = #"{"group": [\#(group)], "repeat": {"count": \#(count)}}"# }
        return #"{"version": 1, "canvas": {"width": 32, "height": 32}, "timing": {"fps": 10}, "layers": [\#(group)]}"#
    }

    /// The JSON path of the group `level` levels inside the first layer.
    static func groupPath(_ level: Int) -> String {
        "layers[0]" + String(repeating: ".group[0]", count: level)
    }

    /// Runs `render CONFIG -o out/NAME` under /usr/bin/time in `dir`:
    /// the result, wall seconds and peak RSS in KB.
    static func render(_ config: URL, to name: String, in dir: URL, _ extra: [String] = []) throws -> (
        result: CommandResult, seconds: Double, kilobytes: Int
    ) {
        try APNGCLITests.measured(
            ["render", config.path, "-o", dir.appendingPathComponent("out/\(name)").path] + extra)
    }

    /// Makes `dir/out`, empty, for a run's output.
    static func outputFolder(in dir: URL) throws -> URL {
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        return out
    }

    @Test(
        "nested repeated empty groups (10^5 to 10^9 copies in under 400 bytes) are refused at read for SVG, Lottie and GIF",
        arguments: [(5, 10, 0), (6, 10, 1), (7, 10, 2), (2, 1000, 0), (3, 1000, 1)])
    func emptyGroupBomb(depth: Int, count: Int, refusedAt level: Int) throws {
        try withTemporaryDirectory { dir in
            let text = Self.emptyGroups(depth: depth, count: count)
            #expect(text.utf8.count < 400)
            let config = try SceneCLI.write(text, to: dir, as: "bomb.json")
            let out = try Self.outputFolder(in: dir)
            for name in Self.outputs {
                let m = try Self.render(config, to: name, in: dir)
                expectFailure(
                    m.result, status: 65,
                    names: [
                        config.path, Self.groupPath(level) + ".repeat.count", "drawn items a frame, more than 100000",
                    ])
                #expect(m.seconds < 2, "\(name): \(m.seconds) s")
                #expect(m.kilobytes < 100_000, "\(name): peak RSS \(m.kilobytes) KB")
                #expect(try listing(out).isEmpty, "\(name)")
            }
        }
    }

    @Test("11,110 empty group copies, within the budget, export to SVG and Lottie and draw, fast")
    func emptyGroupsWithinBudget() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.emptyGroups(depth: 4, count: 10), to: dir, as: "groups.json")
            let out = try Self.outputFolder(in: dir)
            for name in Self.outputs {
                let m = try Self.render(config, to: name, in: dir, ["-q"])
                #expect(m.result.status == 0, "\(name): \(m.result.stderrText)")
                #expect(m.seconds < 10, "\(name): \(m.seconds) s")
            }
            #expect(try VectorKit.parse(out.appendingPathComponent("out.svg"), as: "svg").root == "svg")
            #expect(try VectorKit.parse(out.appendingPathComponent("out.json"), as: "lottie").fr == 10)
            #expect(try listing(out) == Self.outputs.sorted())
        }
    }
}
