import Foundation
import TestSupport
import Testing

/// Every write to standard output is checked (docs/reliability.md,
/// "Standard output"): into /dev/full (every write fails with ENOSPC) each
/// command exits 74 with one line naming standard output and the errno text.
@Suite("Standard output: every write checked")
struct StandardOutputTests {
    static let full = "standard output: No space left on device"

    @Test("info --json, info, presets, --help, --version, _man and completions into /dev/full exit 74")
    func textIntoDevFull() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir)
            let gif = dir.appendingPathComponent("x.gif")
            let made = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", gif.path, "-q"])
            #expect(made.status == 0, "\(made.stderrText)")
            for args in [
                ["info", gif.path, "--json"], ["info", gif.path], ["presets"], ["--help"], ["encode", "--help"],
                ["--version"], ["_man"], ["completions", "bash"], ["preset", "spinner", "--print-config"],
            ] {
                let r = try IOErrorTests.runIntoDevFull(args)
                expectFailure(r, status: 74, names: [Self.full])
            }
        }
    }

    @Test("encode -o - into /dev/full exits 74 naming standard output and the errno text, GIF, APNG and WebP")
    func animationIntoDevFull() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir)
            for format in ["gif", "apng", "webp"] {
                let r = try IOErrorTests.runIntoDevFull(
                    ["encode"] + frames.map(\.path) + ["-o", "-", "--format", format, "-q"])
                expectFailure(r, status: 74, names: [Self.full])
            }
        }
    }

    @Test("output into a pipe whose reader is gone exits 74 (Broken pipe), not by a signal")
    func closedPipe() throws {
        // The read end is closed before throbber starts, so every write fails.
        let script = """
            import os, subprocess, sys
            r, w = os.pipe()
            os.close(r)
            p = subprocess.run([sys.argv[1], "presets"], stdout=w, stderr=subprocess.PIPE)
            print(p.returncode)
            sys.stdout.write(p.stderr.decode())
            """
        let r = try Command.run(Pillow.python, ["-c", script, try Throbber.binary.get().path])
        #expect(r.status == 0, "\(r.stderrText)")
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines == ["74", "throbber: error: standard output: Broken pipe"], "\(r.stdoutText)")
    }
}
