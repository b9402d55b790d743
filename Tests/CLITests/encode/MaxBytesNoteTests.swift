import Foundation
import TestSupport
import Testing

/// `--max-bytes` on what users make: a clip that holds still before it
/// moves is judged by a sample of all of it, and a file that fits only
/// posterized or heavily lossy says so, with a frame rate and a width that
/// fit at better settings.
@Suite("Encode --max-bytes: samples and notes", .tags(.slow))
struct MaxBytesNoteTests {
    @Test("a clip still for its first second: a budget nothing fits is refused in the lower bound's one pass")
    func stillStart() throws {
        try withTemporaryDirectory { dir in
            let frames = try ffmpegSourceFrames("testsrc2=size=320x240:rate=25", count: 60, in: dir)
            for frame in frames[1..<25] {
                try FileManager.default.removeItem(at: frame)
                try FileManager.default.copyItem(at: frames[0], to: frame)
            }
            let folder = frames[0].deletingLastPathComponent()
            let smallest = dir.appendingPathComponent("smallest.gif")
            let options = ["--quality", "10", "--lossy", "200", "--colors", "16", "--dither", "0"]
            #expect(try Throbber.run(["encode", folder.path, "-o", smallest.path, "-q"] + options).status == 0)
            let budget = MaxBytesTests.size(smallest) * 6 / 10
            let out = dir.appendingPathComponent("out.gif")
            let r = try ProgressTests.runOnTerminal([
                "encode", folder.path, "-o", out.path, "--max-bytes", String(budget),
            ])
            #expect(r.status == 65, "\(r.stdoutText)")
            let passes = Set(r.stdoutText.matches(of: /budget pass (\d+)/).map { Int($0.1)! })
            #expect(passes == [1], "\(r.stdoutText.debugDescription)")
            #expect(r.stdoutText.contains("the smallest settings (quality 10, lossy 200, 16 colors, dither 0)"))
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test(
        "a file that fits only posterized says so, and the better settings it names fit at the frame rate and width it names",
        arguments: [(160, 120), (480, 270)])
    func posterizedNote(size: (width: Int, height: Int)) throws {
        try withTemporaryDirectory { dir in
            let folder = try ffmpegSourceFrames(
                "testsrc2=size=\(size.width)x\(size.height):rate=25", count: 20, in: dir)[0]
                .deletingLastPathComponent()
            let smallest = dir.appendingPathComponent("smallest.gif")
            let options = ["--quality", "10", "--lossy", "200", "--colors", "16", "--dither", "0"]
            #expect(try Throbber.run(["encode", folder.path, "-o", smallest.path, "-q"] + options).status == 0)
            // Just above the smallest file: only the ladder's last steps fit.
            let budget = String(MaxBytesTests.size(smallest) * 11 / 10)
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", folder.path, "-o", out.path, "--max-bytes", budget])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(MaxBytesTests.size(out) <= Int(budget)!)
            let note = try #require(
                r.stderrText.firstMatch(
                    of: /\nnote: to fit, the file is (posterized to \d+ colors|heavily lossy \(lossy \d+\)); at (.*)/),
                "\(r.stderrText)")
            // What the note claims: the settings it names, with the frames or
            // the width it names, make a file that fits.
            let named = try #require(
                String(note.2).firstMatch(of: #/^(.*) it would fit with about /#).map { String($0.1) })
            let good = MaxBytesTests.options(fromReport: "x: " + named)
            #expect(good.contains("--colors"), "\(named)")
            let frames = try #require(String(note.2).firstMatch(of: /--frames (\S+) --fps ([0-9.]+)/))
            // Every kth frame, each shown k times as long: the loop lasts as long.
            let k = try #require(frames.1.firstMatch(of: /^1-:(\d+)$/).map { Int($0.1)! }, "\(note.2)")
            #expect(k >= 2 && Double(frames.2) == 25 / Double(k), "\(note.2)")
            var ways = [("fewer", ["--frames", String(frames.1), "--fps", String(frames.2)])]
            // A width is named where palettes are a small part of the budget:
            // the larger frames here, not the smaller.
            let width = String(note.2).firstMatch(of: #/ or --width (\d+) \(from (\d+)\)/#)
            #expect((width != nil) == (size.width == 480), "\(note.2)")
            if let width {
                #expect(Int(width.2) == size.width && Int(width.1)! < size.width, "\(note.2)")
                ways.append(("narrower", ["--width", String(width.1)]))
            }
            for (name, extra) in ways {
                let file = dir.appendingPathComponent("\(name).gif")
                let n = try Throbber.run(["encode", folder.path, "-o", file.path, "-q"] + good + extra)
                #expect(n.status == 0, "\(extra): \(n.stderrText)")
                #expect(MaxBytesTests.size(file) <= Int(budget)!, "\(good + extra): \(MaxBytesTests.size(file)) bytes")
            }
        }
    }

    @Test(
        "a WebP that fits only at a low lossy quality says so, and the quality it names fits at the frame rate it names"
    )
    func webpLowQualityNote() throws {
        try withTemporaryDirectory { dir in
            let folder = try ffmpegSourceFrames("mandelbrot=size=240x180:rate=25", count: 20, in: dir)[0]
                .deletingLastPathComponent()
            let smallest = dir.appendingPathComponent("smallest.webp")
            #expect(
                try Throbber.run(["encode", folder.path, "-o", smallest.path, "-q", "--quality", "8"]).status == 0)
            let budget = MaxBytesTests.size(smallest) * 21 / 20
            let out = dir.appendingPathComponent("out.webp")
            let r = try Throbber.run(["encode", folder.path, "-o", out.path, "--max-bytes", String(budget)])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(MaxBytesTests.size(out) <= budget)
            let note = try #require(
                r.stderrText.firstMatch(of: /\nnote: to fit, the file is heavily lossy \(quality (\d+)\); at (.*)/),
                "\(r.stderrText)")
            #expect(Int(note.1)! < 30, "\(note.0)")
            let named = try #require(
                String(note.2).firstMatch(of: #/^(.*) it would fit with about /#).map { String($0.1) })
            let good = MaxBytesTests.options(fromReport: "x: " + named)
            let quality = try #require(good.firstIndex(of: "--quality").map { Int(good[$0 + 1])! }, "\(named)")
            #expect(quality >= 30, "\(named)")
            let frames = try #require(String(note.2).firstMatch(of: /--frames (\S+) --fps ([0-9.]+)/), "\(note.2)")
            let file = dir.appendingPathComponent("fewer.webp")
            let extra = ["--frames", String(frames.1), "--fps", String(frames.2)]
            let n = try Throbber.run(["encode", folder.path, "-o", file.path, "-q"] + good + extra)
            #expect(n.status == 0, "\(n.stderrText)")
            #expect(MaxBytesTests.size(file) <= budget, "\(good + extra): \(MaxBytesTests.size(file)) bytes")
        }
    }
}
