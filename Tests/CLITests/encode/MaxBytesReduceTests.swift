import Foundation
import TestSupport
import Testing

/// `--max-bytes` with `--allow-reduce`: where the frames and size asked
/// for fit only posterized, the budget keeps fewer frames (each shown
/// longer) or fewer pixels, says so, and the file giflib decodes shows it.
@Suite("Encode --max-bytes --allow-reduce", .tags(.slow))
struct MaxBytesReduceTests {
    /// 40 frames of testsrc2 at 160x120, and a budget just above the
    /// smallest settings' file: without leave, only posterized files fit.
    static func tightBudget(in dir: URL) throws -> (folder: URL, budget: Int) {
        let folder = try ffmpegSourceFrames("testsrc2=size=160x120:rate=25", count: 40, in: dir)[0]
            .deletingLastPathComponent()
        let smallest = dir.appendingPathComponent("smallest.gif")
        let options = ["--quality", "10", "--lossy", "200", "--colors", "16", "--dither", "0"]
        #expect(try Throbber.run(["encode", folder.path, "-o", smallest.path, "-q"] + options).status == 0)
        return (folder, MaxBytesTests.size(smallest) * 11 / 10)
    }

    /// `folder` encoded under `budget` with `--allow-reduce allowing`:
    /// the run (which succeeded) and its file (which fits).
    static func reduce(_ folder: URL, budget: Int, allowing: String, in dir: URL) throws -> (CommandResult, URL) {
        let out = dir.appendingPathComponent("out.gif")
        let r = try Throbber.run([
            "encode", folder.path, "-o", out.path, "--max-bytes", String(budget), "--allow-reduce", allowing,
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(MaxBytesTests.size(out) <= budget)
        return (r, out)
    }

    /// The settings the summary reports for the budget's file.
    static func chosen(_ stderr: String) -> (colors: Int, lossy: Int)? {
        guard
            let m = stderr.firstMatch(of: /--max-bytes \d+: (?:default quality|quality \d+), lossy (\d+), (\d+) colors/)
        else {
            return nil
        }
        return (Int(m.2)!, Int(m.1)!)
    }

    @Test("fps: fewer frames, the loop as long, 64 colors or more and lossy 100 or less, within the budget")
    func fewerFrames() throws {
        try withTemporaryDirectory { dir in
            let (folder, budget) = try Self.tightBudget(in: dir)
            let plain = dir.appendingPathComponent("plain.gif")
            let p = try Throbber.run(["encode", folder.path, "-o", plain.path, "--max-bytes", String(budget)])
            #expect(p.status == 0, "\(p.stderrText)")
            #expect(p.stderrText.contains("note: to fit, the file is posterized"), "\(p.stderrText)")

            let (r, out) = try Self.reduce(folder, budget: budget, allowing: "fps", in: dir)
            let note = try #require(
                r.stderrText.firstMatch(
                    of:
                        #/note: to fit, the file is reduced \(--allow-reduce\) to every (\d+)\w\w frame \(([0-9.]+) fps from 25\)\n?$/#
                ), "\(r.stderrText)")
            let k = Int(note.1)!
            #expect(k >= 2 && abs(Double(note.2)! - 25 / Double(k)) < 0.01, "\(note.0)")
            let settings = try #require(Self.chosen(r.stderrText), "\(r.stderrText)")
            #expect(settings.colors >= 64 && settings.lossy <= 100, "\(r.stderrText)")
            let gif = try DecodedGIF(path: out.path)
            #expect(gif.frames.count == (40 + k - 1) / k)
            #expect(gif.totalDelay == 160)
            #expect(gif.width == 160 && gif.height == 120)
        }
    }

    @Test("size: fewer pixels, every frame, the summary's size from the input's, within the budget")
    func fewerPixels() throws {
        try withTemporaryDirectory { dir in
            let (folder, budget) = try Self.tightBudget(in: dir)
            let (r, out) = try Self.reduce(folder, budget: budget, allowing: "size", in: dir)
            let note = try #require(
                r.stderrText.firstMatch(
                    of: /to fit, the file is reduced \(--allow-reduce\) to ([0-9.]+) % of the size/),
                "\(r.stderrText)")
            let scale = Double(note.1)! / 100
            let gif = try DecodedGIF(path: out.path)
            #expect(gif.frames.count == 40 && gif.totalDelay == 160)
            #expect(gif.width == Int((160 * scale).rounded()) && gif.height == Int((120 * scale).rounded()))
            #expect(r.stderrText.contains("GIF \(gif.width)x\(gif.height) (from 160x120)"), "\(r.stderrText)")
        }
    }

    @Test("a budget the frames as asked already fit well is not reduced")
    func notNeeded() throws {
        try withTemporaryDirectory { dir in
            let folder = try MaxBytesTests.frames(in: dir)
            let plain = dir.appendingPathComponent("plain.gif")
            #expect(try Throbber.run(["encode", folder.path, "-o", plain.path, "-q"]).status == 0)
            let budget = String(MaxBytesTests.size(plain) * 9 / 10)
            let a = dir.appendingPathComponent("a.gif")
            let b = dir.appendingPathComponent("b.gif")
            #expect(try Throbber.run(["encode", folder.path, "-o", a.path, "-q", "--max-bytes", budget]).status == 0)
            let r = try Throbber.run([
                "encode", folder.path, "-o", b.path, "--max-bytes", budget, "--allow-reduce", "fps,size",
            ])
            #expect(r.status == 0 && !r.stderrText.contains("note:"), "\(r.stderrText)")
            #expect(try Data(contentsOf: a) == Data(contentsOf: b))
        }
    }

    @Test("usage: without --max-bytes, or an unknown name, exit 64 naming what to give")
    func usage() throws {
        try withTemporaryDirectory { dir in
            let folder = try MaxBytesTests.frames(in: dir)
            let out = dir.appendingPathComponent("out.gif")
            let alone = try Throbber.run(["encode", folder.path, "-o", out.path, "--allow-reduce", "fps"])
            #expect(alone.status == 64 && alone.stderrText.contains("give --max-bytes too"), "\(alone.stderrText)")
            let unknown = try Throbber.run([
                "encode", folder.path, "-o", out.path, "--max-bytes", "10k", "--allow-reduce", "speed",
            ])
            #expect(unknown.status == 64 && unknown.stderrText.contains("fps, size or fps,size"))
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }
}
