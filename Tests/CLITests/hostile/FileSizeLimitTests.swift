import Foundation
import TestSupport
import Testing

/// Under `ulimit -f` (RLIMIT_FSIZE, in 1024-byte blocks in bash) a write
/// past the limit fails with EFBIG instead of killing the process with
/// SIGXFSZ (docs/reliability.md, "Standard output" and "Outputs"). The
/// test runner may start processes with SIGXFSZ ignored, which a shell
/// cannot undo: `env --default-signal=XFSZ` restores its default action
/// (death) for each command, as in a login shell.
@Suite("Hostile conditions: ulimit -f", .tags(.slow))
struct FileSizeLimitTests {
    /// Runs a command with SIGXFSZ at its default action.
    static let dfl = "env --default-signal=XFSZ"

    /// Checks that under `ulimit -f 8` an ordinary program dies of SIGXFSZ
    /// here (153), so the tests below can see the difference.
    static func expectSignalDefault(in dir: URL) throws {
        let r = try Hostile.shell("ulimit -f 8; \(dfl) head -c 20000 /dev/zero > z; s=$?; rm -f z; exit $s", in: dir)
        #expect(r.status == 153, "head was not killed by SIGXFSZ: \(r.status) \(r.stderrText)")
    }

    /// Six 640x480 testsrc2 frames, and the size of their APNG without a limit (well over 72 KiB).
    static func frames(in dir: URL) throws -> Int {
        _ = try Hostile.testsrcFrames("640x480", count: 6, in: dir.appendingPathComponent("in"))
        let r = try Throbber.run(["encode", "in", "-o", "full.png", "-q"], in: dir)
        #expect(r.status == 0, "\(r.stderrText)")
        let size = try FileManager.default.attributesOfItem(atPath: dir.path + "/full.png")[.size] as? Int ?? 0
        try FileManager.default.removeItem(at: dir.appendingPathComponent("full.png"))
        return size
    }

    @Test("-o FILE over the limit: exit 74 naming the file and 'File too large'; no output, no temporary file")
    func file() throws {
        try withTemporaryDirectory { dir in
            try Self.expectSignalDefault(in: dir)
            #expect(try Self.frames(in: dir) > 72 * 1024)
            for out in ["out.png", "out.gif"] {
                let r = try Hostile.shell("ulimit -f 8; exec \(Self.dfl) \"$THROBBER\" encode in -o \(out) -q", in: dir)
                expectFailure(r, status: 74, names: ["\(out): File too large"])
                #expect(try listing(dir) == ["in"], "\(out): an output or a temporary file was left")
            }
        }
    }

    @Test("-o - into a file over the limit: 74 'standard output: File too large'; the first 8 KiB stay, as on a device")
    func standardOutput() throws {
        try withTemporaryDirectory { dir in
            try Self.expectSignalDefault(in: dir)
            #expect(try Self.frames(in: dir) > 72 * 1024)
            let r = try Hostile.shell(
                "ulimit -f 8; exec \(Self.dfl) \"$THROBBER\" encode in -o - -q --format apng > part.png", in: dir)
            expectFailure(r, status: 74, names: ["standard output: File too large"])
            let part = try Data(contentsOf: dir.appendingPathComponent("part.png"))
            #expect(part.count == 8192)
            #expect(part.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(try listing(dir) == ["in", "part.png"])
        }
    }

    @Test("-o - | cat > f over the limit: cat dies of SIGXFSZ (153), throbber exits 74 'Broken pipe'; 8 KiB reach f")
    func pipe() throws {
        try withTemporaryDirectory { dir in
            try Self.expectSignalDefault(in: dir)
            #expect(try Self.frames(in: dir) > 72 * 1024)
            let r = try Hostile.shell(
                "ulimit -f 8; \(Self.dfl) \"$THROBBER\" encode in -o - -q --format apng | \(Self.dfl) cat > part.png; echo \"${PIPESTATUS[*]}\"",
                in: dir)
            #expect(r.stdoutText == "74 153\n", "\(r.stdoutText) \(r.stderrText)")
            #expect(r.stderrText.contains("throbber: error: standard output: Broken pipe"), "\(r.stderrText)")
            #expect(try Data(contentsOf: dir.appendingPathComponent("part.png")).count == 8192)
            #expect(try listing(dir) == ["in", "part.png"])
        }
    }
}
