import Foundation
import TestSupport
import Testing

@Suite("Progress and quiet output")
struct ProgressTests {
    @Test("without a terminal a successful encode prints the summary line alone: no bar, nothing on stdout")
    func summaryWithoutTerminal() throws {
        try withDistinctFrames(20) { folder, hashes in
            let out = folder.deletingLastPathComponent().appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", folder.path, "-o", out.path])
            #expect(r.status == 0)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int)
            #expect(r.stderrLines.count == 1, "stderr: \(r.stderrText.debugDescription)")
            #expect(r.stderrText.hasPrefix("wrote \(out.path): GIF 8x8, 20 frames, 0.80 s, \(size) bytes, "))
            #expect(
                !r.stderrText.contains("\r") && !r.stderrText.contains("\u{1B}"), "\(r.stderrText.debugDescription)")
            #expect(r.stdout.isEmpty, "stdout: \(r.stdoutText.debugDescription)")
            #expect(try Pillow.decode(out).hashes == hashes)
        }
    }

    @Test("without a terminal --quiet prints nothing at all", arguments: ["--quiet", "-q"])
    func silentWithoutTerminal(_ flag: String) throws {
        try withDistinctFrames(20) { folder, hashes in
            let out = folder.deletingLastPathComponent().appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", folder.path, "-o", out.path, flag])
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty, "stderr: \(r.stderrText.debugDescription)")
            #expect(r.stdout.isEmpty, "stdout: \(r.stdoutText.debugDescription)")
            #expect(try Pillow.decode(out).hashes == hashes)
        }
    }

    @Test(
        "without a terminal a failing encode prints only the error line, --quiet or not",
        arguments: [[String](), ["--quiet"]])
    func onlyErrorsWithoutTerminal(_ quiet: [String]) throws {
        try withDistinctFrames(20) { folder, _ in
            try Data("broken".utf8).write(to: folder.appendingPathComponent("f21.png"))
            // Beside the folder: inside it, the output would be one of its frames.
            let r = try Throbber.run(
                ["encode", folder.path, "-o", folder.deletingLastPathComponent().appendingPathComponent("x.gif").path]
                    + quiet)
            expectFailure(r, status: 65, names: ["f21.png"])
        }
    }

    /// Runs throbber under `script` (util-linux), so stdout and stderr are a
    /// terminal; returns what the terminal received.
    static func runOnTerminal(_ args: [String]) throws -> CommandResult {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw HarnessError("util-linux 'script' is missing")
        }
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let line = ([try Throbber.binary.get().path] + args).map(quote).joined(separator: " ")
        return try Command.run(script, ["-q", "-e", "-c", line, "/dev/null"], environment: ["TERM": "xterm"])
    }

    @Test("on a terminal the progress bar is drawn up to 100% and erased, then a summary line is printed")
    func barOnTerminal() throws {
        try withDistinctFrames(20) { folder, hashes in
            let out = folder.deletingLastPathComponent().appendingPathComponent("out.gif")
            let r = try Self.runOnTerminal(["encode", folder.path, "-o", out.path])
            #expect(r.status == 0)
            let text = r.stdoutText
            #expect(text.contains("\rencoding "), "no bar drawn: \(text.debugDescription)")
            #expect(text.contains("100% (20/20 frames)"), "\(text.debugDescription)")
            #expect(text.contains("\r\u{1B}[2K"), "bar not erased: \(text.debugDescription)")
            #expect(text.contains("wrote \(out.path): GIF 8x8, 20 frames"), "\(text.debugDescription)")
            #expect(try Pillow.decode(out).hashes == hashes)
        }
    }

    @Test("on a terminal the summary line gives the size the frames were resized from, and only then")
    func resizedSummary() throws {
        try withDistinctFrames(3) { folder, _ in
            let out = folder.deletingLastPathComponent().appendingPathComponent("out.gif")
            var r = try Self.runOnTerminal(["encode", folder.path, "-o", out.path, "--scale", "2"])
            #expect(r.status == 0)
            #expect(
                r.stdoutText.contains("wrote \(out.path): GIF 16x16 (from 8x8), 3 frames"),
                "\(r.stdoutText.debugDescription)")
            r = try Self.runOnTerminal(["encode", folder.path, "-o", out.path, "--frames", "1-2"])
            #expect(r.stdoutText.contains("wrote \(out.path): GIF 8x8, 2 frames"), "\(r.stdoutText.debugDescription)")
        }
    }

    @Test("on a terminal --quiet prints nothing at all", arguments: ["--quiet", "-q"])
    func quietOnTerminal(_ flag: String) throws {
        try withDistinctFrames(20) { folder, hashes in
            let out = folder.deletingLastPathComponent().appendingPathComponent("out.gif")
            let r = try Self.runOnTerminal(["encode", folder.path, "-o", out.path, flag])
            #expect(r.status == 0)
            #expect(r.stdout.isEmpty, "terminal got: \(r.stdoutText.debugDescription)")
            #expect(try Pillow.decode(out).hashes == hashes)
        }
    }

    @Test(
        "on a terminal a byte budget's passes are named on the bar: the lower bound first, then each setting tried, numbered against the most planned"
    )
    func budgetPassesOnTerminal() throws {
        try withTemporaryDirectory { dir in
            let frames = try ffmpegSourceFrames("testsrc2=size=160x120:rate=25", count: 20, in: dir)[0]
                .deletingLastPathComponent()
            let out = dir.appendingPathComponent("out.gif")
            // 40 kB: two thirds of the default file (60 kB), so the
            // settings as given do not fit and the ladder is searched.
            let r = try Self.runOnTerminal(["encode", frames.path, "-o", out.path, "--max-bytes", "40k"])
            #expect(r.status == 0, "\(r.stdoutText.debugDescription)")
            let labels = r.stdoutText.matches(of: #/\rencoding, (budget pass (\d+)( of ≤(\d+))?: [^█░]*) [█░]+/#).map {
                (text: String($0.1), number: Int($0.2)!, most: $0.4.map { Int($0)! })
            }
            // Each pass drawn from its start: numbers 1, 2, 3, … in order.
            var numbers: [Int] = []
            for label in labels where numbers.last != label.number { numbers.append(label.number) }
            #expect(numbers.count >= 3 && numbers == Array(1...numbers.count), "\(labels.map(\.text))")
            #expect(
                labels.first?.text == "budget pass 1 of ≤5: lower bound at 16 colors, quality 10, lossy 200",
                "\(labels.map(\.text))")
            #expect(
                labels.contains { $0.text == "budget pass 2 of ≤5: 256 colors, default quality, lossy 0–200" },
                "\(labels.map(\.text))")
            // A numbered pass within the plan says so; one past it does not.
            #expect(labels.allSatisfy { ($0.number <= 5) == ($0.most == 5) }, "\(labels.map(\.text))")
            #expect((try FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int ?? .max) <= 40000)
            #expect(r.stdoutText.contains("; --max-bytes 40k: "), "\(r.stdoutText.debugDescription)")
        }
    }
}
