import Foundation
import TestSupport
import Testing

/// `--max-bytes SIZE`: the file written fits, keeps the pixels' size, the
/// frames and the timing (read back by Pillow and ffmpeg), the choice is
/// reported, and a budget nothing fits writes nothing (exit 65).
@Suite("Encode --max-bytes", .tags(.slow))
struct MaxBytesTests {
    /// 20 frames of ffmpeg's testsrc2 at 160×120: thousands of colors.
    static func frames(in dir: URL) throws -> URL {
        try ffmpegSourceFrames("testsrc2=size=160x120:rate=25", count: 20, in: dir)[0].deletingLastPathComponent()
    }

    static func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? -1
    }

    @Test(
        "half the default size: the GIF fits, uses 97 % of the budget, shows the same frames for the same time, as the settings reported do"
    )
    func fitsHalf() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let plain = dir.appendingPathComponent("plain.gif")
            let fit = dir.appendingPathComponent("fit.gif")
            #expect(try Throbber.run(["encode", frames.path, "-o", plain.path, "-q"]).status == 0)
            let budget = Self.size(plain) / 2
            let r = try Throbber.run(["encode", frames.path, "-o", fit.path, "--max-bytes", String(budget)])
            #expect(r.status == 0, "\(r.stderrText)")
            let written = Self.size(fit)
            #expect(written <= budget && written > 0, "\(written) bytes for a budget of \(budget)")
            // The lossy level is refined between the last too large and the
            // first that fits: the issue asks for at least 97 % of the budget.
            #expect(written >= budget * 97 / 100, "\(written) bytes: over 3 % of the budget \(budget) unused")
            // The summary line ends "; --max-bytes N: quality …, lossy …, … colors".
            let report = r.stderrLines.first { $0.hasPrefix("wrote ") }?.firstMatch(of: /; --max-bytes \d+: .*$/)
                .map { String($0.0) }
            #expect(report?.contains("lossy") == true && report?.contains("colors") == true, "stderr: \(r.stderrText)")
            // The settings reported, given as options, write the same bytes
            // (a refined lossy level is an ordinary encode at that level).
            let chosen = Self.options(fromReport: String(report ?? ""))
            let direct = dir.appendingPathComponent("direct.gif")
            #expect(try Throbber.run(["encode", frames.path, "-o", direct.path, "-q"] + chosen).status == 0)
            #expect(try Data(contentsOf: direct) == Data(contentsOf: fit), "\(chosen) writes other bytes")
            for decoder in ["pillow", "ffmpeg"] {
                let a = try APNGCLI.decode(decoder, plain)
                let b = try APNGCLI.decode(decoder, fit)
                #expect(a.width == b.width && a.height == b.height)
                #expect(a.frames.count == b.frames.count, "\(decoder): \(a.frames.count) vs \(b.frames.count) frames")
                #expect(a.seconds.map { $0 ?? -1 } == b.seconds.map { $0 ?? -1 }, "\(decoder): delays differ")
            }
            // -q: nothing on stderr; the same bytes again (deterministic,
            // for any --jobs).
            let again = dir.appendingPathComponent("again.gif")
            let q = try Throbber.run([
                "encode", frames.path, "-o", again.path, "--max-bytes", String(budget), "-q", "--jobs", "1",
            ])
            #expect(q.status == 0 && q.stderr.isEmpty, "\(q.stderrText)")
            #expect(try Data(contentsOf: again) == Data(contentsOf: fit))
        }
    }

    /// "…; --max-bytes N: quality 20, lossy 145, 32 colors, dither 0.5" as
    /// options: --quality 20 --lossy 145 --colors 32 --dither 0.5.
    static func options(fromReport report: String) -> [String] {
        guard let at = report.range(of: ": ", options: .backwards) else { return [] }
        var options: [String] = []
        for part in report[at.upperBound...].split(separator: ",") {
            let words = part.split(separator: " ").map(String.init)
            switch (words.first, words.count) {
            case ("quality", 2), ("lossy", 2), ("dither", 2): options += ["--\(words[0])", words[1]]
            case (_, 2) where words[1] == "colors": options += ["--colors", words[0]]
            default: break
            }
        }
        return options
    }

    @Test(
        "k is 1000 bytes and KiB 1024: a file between N·1000 and N·1024 bytes fits N KiB as it is, N k only with loss")
    func units() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let plain = dir.appendingPathComponent("plain.gif")
            #expect(try Throbber.run(["encode", frames.path, "-o", plain.path, "-q"]).status == 0)
            let n = Self.size(plain) / 1012  // plain is between n·1000 and n·1024 bytes
            try #require(n * 1000 < Self.size(plain) && Self.size(plain) <= n * 1024)
            let kib = try Throbber.run([
                "encode", frames.path, "-o", dir.appendingPathComponent("kib.gif").path, "--max-bytes", "\(n)KiB",
            ])
            #expect(kib.stderrText.contains("lossy 0,"), "\(kib.stderrText)")
            #expect(try Data(contentsOf: dir.appendingPathComponent("kib.gif")) == Data(contentsOf: plain))
            let k = try Throbber.run([
                "encode", frames.path, "-o", dir.appendingPathComponent("k.gif").path, "--max-bytes", "\(n)k",
            ])
            #expect(k.status == 0 && !k.stderrText.contains("lossy 0,"), "\(k.stderrText)")
            #expect(Self.size(dir.appendingPathComponent("k.gif")) <= n * 1000)
        }
    }

    @Test(
        "a budget nothing fits: exit 65, no file, after the lower-bound pass alone; the bytes it names are fewer than the smallest settings' file"
    )
    func tooSmall() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", frames.path, "-o", out.path, "--max-bytes", "2k"])
            #expect(r.status == 65)
            #expect(!FileManager.default.fileExists(atPath: out.path))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "frames" }
            #expect(leftovers.isEmpty, "left behind: \(leftovers)")
            // Stills at the default 25 fps: every second frame at half the rate.
            for word in ["2000 bytes", "--width ", "--frames 1-:2 --fps 12.5"] {
                #expect(r.stderrText.contains(word), "no '\(word)' in: \(r.stderrText)")
            }
            // The bytes told are the smallest settings' file or a part of it
            // (20 frames are counted whole): those settings, given as
            // options, write no fewer.
            let told = r.stderrText.firstMatch(
                of: /smallest settings \((.*?)\) passed (\d+) bytes after (\d+) of 20 frames/)
            let (settings, bytes) = try #require(told.map { (String($0.1), Int($0.2)!) }, "\(r.stderrText)")
            #expect(bytes > 2000)
            let direct = dir.appendingPathComponent("direct.gif")
            let options = Self.options(fromReport: "x: " + settings)
            #expect(options == ["--quality", "10", "--lossy", "200", "--colors", "16", "--dither", "0"], "\(settings)")
            #expect(try Throbber.run(["encode", frames.path, "-o", direct.path, "-q"] + options).status == 0)
            #expect(Self.size(direct) >= bytes, "\(options): \(Self.size(direct)) bytes, told more than \(bytes)")
        }
    }

    @Test("the width advised for a budget half the smallest file fits it")
    func widthAdvice() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let r = try Throbber.run([
                "encode", frames.path, "-o", dir.appendingPathComponent("o.gif").path, "--max-bytes", "10k",
            ])
            #expect(r.status == 65, "\(r.stderrText)")
            let width = try #require(r.stderrText.firstMatch(of: /--width (\d+) \(from 160/).map { String($0.1) })
            let narrow = dir.appendingPathComponent("narrow.gif")
            let n = try Throbber.run(["encode", frames.path, "-o", narrow.path, "--max-bytes", "10k", "--width", width])
            #expect(n.status == 0, "--width \(width): \(n.stderrText)")
            #expect(Self.size(narrow) <= 10000)
        }
    }

    @Test("a budget nothing fits is refused after one pass, the lower bound's, as the terminal's pass labels show")
    func refusedAfterOnePass() throws {
        try withTemporaryDirectory { dir in
            let frames = try ffmpegSourceFrames("testsrc2=size=320x240:rate=25", count: 60, in: dir)[0]
                .deletingLastPathComponent()
            let out = dir.appendingPathComponent("out.gif")
            let started = Date()
            let r = try ProgressTests.runOnTerminal(["encode", frames.path, "-o", out.path, "--max-bytes", "20k"])
            let seconds = Date().timeIntervalSince(started)
            #expect(r.status == 65, "\(r.stdoutText)")
            let passes = Set(r.stdoutText.matches(of: /budget pass (\d+)/).map { Int($0.1)! })
            #expect(passes == [1], "\(r.stdoutText.debugDescription)")
            #expect(r.stdoutText.contains("budget pass 1 of ≤5: lower bound at 16 colors, quality 10, lossy 200"))
            #expect(!FileManager.default.fileExists(atPath: out.path))
            // Loosely: the whole search (four passes or more) took several
            // times this on this input.
            #expect(seconds < 60, "\(seconds) s")
        }
    }

    @Test("a budget just above the smallest settings' file still fits: the lower bound never refuses it")
    func justAboveTheSmallest() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let smallest = dir.appendingPathComponent("smallest.gif")
            let options = ["--quality", "10", "--lossy", "200", "--colors", "16", "--dither", "0"]
            #expect(try Throbber.run(["encode", frames.path, "-o", smallest.path, "-q"] + options).status == 0)
            let budget = Self.size(smallest) + 1
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", frames.path, "-o", out.path, "--max-bytes", String(budget)])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(Self.size(out) <= budget && Self.size(out) > 0)
        }
    }

    @Test(
        "WebP: a budget nothing fits is refused after the settings as given and the lower bound on a prefix, nothing written"
    )
    func webPRefusedAfterTwoPasses() throws {
        try withTemporaryDirectory { dir in
            let frames = try ffmpegSourceFrames("testsrc2=size=320x240:rate=25", count: 48, in: dir)[0]
                .deletingLastPathComponent()
            let out = dir.appendingPathComponent("out.webp")
            let r = try ProgressTests.runOnTerminal(["encode", frames.path, "-o", out.path, "--max-bytes", "5k"])
            #expect(r.status == 65, "\(r.stdoutText)")
            let passes = Set(r.stdoutText.matches(of: /budget pass (\d+)/).map { Int($0.1)! })
            #expect(passes == [1, 2], "\(r.stdoutText.debugDescription)")
            #expect(r.stdoutText.contains("budget pass 2 of ≤9: lower bound at quality 1"), "\(r.stdoutText)")
            #expect(r.stdoutText.contains("the smallest settings (quality 1) made "), "\(r.stdoutText)")
            #expect(r.stdoutText.contains(" of the first 3 of 48 frames"), "\(r.stdoutText)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test("WebP: a budget just above quality 1's file still fits: the prefix bound never refuses it")
    func webPJustAboveTheSmallest() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let smallest = dir.appendingPathComponent("smallest.webp")
            #expect(try Throbber.run(["encode", frames.path, "-o", smallest.path, "-q", "--quality", "1"]).status == 0)
            let budget = Self.size(smallest) + 1
            let out = dir.appendingPathComponent("out.webp")
            let r = try Throbber.run(["encode", frames.path, "-o", out.path, "--max-bytes", String(budget)])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(Self.size(out) <= budget && Self.size(out) > 0)
            // Decoded by Pillow: every frame is there.
            #expect(try Pillow.decode(out).durations.count == 20)
        }
    }

    @Test("the advice keeps the user's --frames (every range's step doubled) and --fps (halved)")
    func adviceComposesFrames() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let r = try Throbber.run([
                "encode", frames.path, "-o", dir.appendingPathComponent("o.gif").path, "--max-bytes", "2k",
                "--frames", "2-15,18,4-:3", "--fps", "10",
            ])
            #expect(r.status == 65)
            #expect(r.stderrText.contains("--frames 2-15:2,18,4-:6 --fps 5 "), "\(r.stderrText)")
        }
    }

    @Test("frames with their own delays get --speed; frames of 0 ms, no timing advice at all, only --width")
    func adviceFollowsTiming() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            for (ms, advice) in [(100, "--frames 1-:2 --speed 0.5 "), (0, nil)] {
                let gif = dir.appendingPathComponent("in\(ms).gif")
                let made = try Command.run(
                    Pillow.python,
                    [
                        "-c",
                        "import sys, glob; from PIL import Image; f = [Image.open(p).convert('RGB') for p in sorted(glob.glob(sys.argv[1] + '/*.png'))]; f[0].save(sys.argv[2], save_all=True, append_images=f[1:], duration=int(sys.argv[3]), loop=0)",
                        frames.path, gif.path, String(ms),
                    ])
                try #require(made.status == 0, "\(made.stderrText)")
                let r = try Throbber.run([
                    "encode", gif.path, "-o", dir.appendingPathComponent("o.gif").path, "--max-bytes", "2k",
                ])
                #expect(r.status == 65, "\(r.stderrText)")
                #expect(r.stderrText.contains("--width "), "\(r.stderrText)")
                if let advice {
                    #expect(r.stderrText.contains(advice), "\(r.stderrText)")
                } else {
                    for word in ["--frames", "--fps", "--speed", "--delay"] {
                        #expect(!r.stderrText.contains(word), "\(ms) ms: \(r.stderrText)")
                    }
                }
            }
        }
    }

    @Test("palette APNG: a budget under the truecolor size gives a palette APNG that fits")
    func apng() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.frames(in: dir)
            let plain = dir.appendingPathComponent("plain.png")
            let fit = dir.appendingPathComponent("fit.png")
            #expect(try Throbber.run(["encode", frames.path, "-o", plain.path, "-q"]).status == 0)
            let budget = Self.size(plain) / 3
            let r = try Throbber.run(["encode", frames.path, "-o", fit.path, "--max-bytes", String(budget)])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(Self.size(fit) <= budget)
            #expect(r.stderrText.contains("colors") && !r.stderrText.contains("lossy"), "\(r.stderrText)")
            let decoded = try APNGCLI.decode("pillow", fit)
            #expect(decoded.frames.count == (try APNGCLI.decode("pillow", plain)).frames.count)
        }
    }

    @Test("sizes that do not parse, and 0, are usage errors", arguments: ["0", "0k", "2X", "k", "-5", "1.2.3M", ""])
    func badSizes(_ text: String) throws {
        let r = try Throbber.run(["encode", "missing", "-o", "/nonexistent/x.gif", "--max-bytes", text])
        #expect(r.status == 64, "\(text): \(r.status) \(r.stderrText)")
        #expect(r.stderrText.contains("--max-bytes"), "\(r.stderrText)")
    }
}
