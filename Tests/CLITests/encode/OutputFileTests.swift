import Foundation
import TestSupport
import Testing

@Suite("Output file: atomic, untouched on failure, or standard output")
struct OutputFileTests {
    static let precious = Data("precious bytes that must survive\n".utf8)

    /// A failure found while reading frames (before any GIF byte is written).
    static func earlyFailure(_ dir: URL) throws -> [String] {
        let folder = dir.appendingPathComponent("in")
        try Pillow.makeFrames(Pillow.distinctFrames(["f1.png", "f2.png"]), in: folder)
        try Data("garbage".utf8).write(to: folder.appendingPathComponent("f3.png"))
        return [folder.path]
    }

    /// A failure found after earlier frames were already encoded and written:
    /// --quality skips the up-front color census, --jobs 1 keeps batches small,
    /// and the twelfth frame has another size.
    static func lateFailure(_ dir: URL) throws -> [String] {
        let folder = dir.appendingPathComponent("in")
        let names = (1...11).map { "f\($0).png" }
        try Pillow.makeFrames(
            Pillow.distinctFrames(names, width: 16, height: 16)
                + [Pillow.Frame("f12.png", width: 17, height: 16, color: [9, 9, 9, 255])], in: folder)
        return [folder.path, "--quality", "50", "--jobs", "1"]
    }

    @Test(
        "a failed encode leaves an existing output byte for byte unchanged and no temporary file",
        arguments: ["early", "late"])
    func failureKeepsExistingOutput(_ when: String) throws {
        try withTemporaryDirectory { dir in
            let inputs = when == "early" ? try Self.earlyFailure(dir) : try Self.lateFailure(dir)
            let out = dir.appendingPathComponent("out.gif")
            try Self.precious.write(to: out)
            let before = try FileManager.default.attributesOfItem(atPath: out.path)
            let r = try Throbber.run(["encode"] + inputs + ["-o", out.path])
            #expect(r.status == 65, "\(r.stderrText)")
            #expect(try Data(contentsOf: out) == Self.precious)
            let after = try FileManager.default.attributesOfItem(atPath: out.path)
            #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int, "output was replaced")
            #expect(try listing(dir) == ["in", "out.gif"])
        }
    }

    @Test("a failed encode creates no output file when none existed", arguments: ["early", "late"])
    func failureCreatesNothing(_ when: String) throws {
        try withTemporaryDirectory { dir in
            let inputs = when == "early" ? try Self.earlyFailure(dir) : try Self.lateFailure(dir)
            let r = try Throbber.run(["encode"] + inputs + ["-o", dir.appendingPathComponent("out.gif").path])
            #expect(r.status == 65, "\(r.stderrText)")
            #expect(try listing(dir) == ["in"])
        }
    }

    @Test("a successful encode replaces an existing output by renaming a new file over it")
    func successReplacesAtomically() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("in"))
            let out = dir.appendingPathComponent("out.gif")
            let oldLink = dir.appendingPathComponent("old-link")
            try Self.precious.write(to: out)
            // A hard link to the old file: an in-place rewrite would change it too.
            try FileManager.default.linkItem(at: out, to: oldLink)

            let r = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", out.path])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try Data(contentsOf: oldLink) == Self.precious, "the old file was written in place")
            #expect(try Pillow.decode(out).hashes == Pillow.hashes(of: frames))
            #expect(try listing(dir) == ["in", "old-link", "out.gif"])
        }
    }

    @Test("-o - writes the GIF to stdout and nothing else to stdout or stderr")
    func standardOutput() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png", "c.png"]), in: dir.appendingPathComponent("in"))
            let r = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", "-", "--delay", "50"])
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty, "stderr: \(r.stderrText)")
            #expect(r.stdout.prefix(6) == Data("GIF89a".utf8))
            #expect(r.stdout.last == 0x3B, "GIF trailer missing")
            let copy = dir.appendingPathComponent("stdout.gif")
            try r.stdout.write(to: copy)
            let gif = try Pillow.decode(copy)
            #expect(gif.hashes == (try Pillow.hashes(of: frames)))
            #expect(gif.durations == [500, 500, 500])
            #expect(try listing(dir) == ["in", "stdout.gif"], "-o - created a file")
        }
    }

    @Test("a relative -o is written relative to the working directory")
    func relativeOutput() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("in"))
            let r = try Throbber.run(["encode", "in/a.png", "in/b.png", "-o", "rel.gif"], in: dir)
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try Pillow.decode(dir.appendingPathComponent("rel.gif")).hashes == Pillow.hashes(of: frames))
        }
    }

    @Test("paths with spaces and non-ASCII characters work for folders, files and the output")
    func unusualPaths() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("my främes")
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["é 2.png", "é 10.png"]), in: folder)
            let out = dir.appendingPathComponent("ö ut.gif")
            let r = try Throbber.run(["encode", folder.path, "-o", out.path])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try Pillow.decode(out).hashes == Pillow.hashes(of: frames))
            #expect(try listing(dir) == ["my främes", "ö ut.gif"])
        }
    }
}
