import Foundation
import TestSupport
import Testing

/// Special files as outputs (docs/reliability.md, "Outputs"): devices and
/// FIFOs are written straight through and stay what they are, a symbolic
/// link's target is replaced atomically and the link stays a link.
@Suite("Hostile outputs: devices, FIFOs, symbolic links")
struct HostileOutputTests {
    @Test("-o /dev/null succeeds and /dev/null stays the same character device (1,3)")
    func devNull() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir)
            #expect(Hostile.type("/dev/null") == S_IFCHR)
            let device = Hostile.device("/dev/null")
            for extra in [[], ["--format", "apng"]] {
                let r = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", "/dev/null", "-q"] + extra)
                #expect(r.status == 0, "\(r.stderrText)")
                #expect(Hostile.type("/dev/null") == S_IFCHR, "/dev/null was replaced")
                #expect(Hostile.device("/dev/null") == device)
            }
            let r = try Throbber.run(["preset", "spinner", "-o", "/dev/null", "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(Hostile.type("/dev/null") == S_IFCHR, "/dev/null was replaced")
            #expect(try listing(dir) == ["a.png", "b.png"], "a temporary file was left beside the frames")
        }
    }

    @Test("-o /dev/stdout writes the animation to standard output, like -o -")
    func devStdout() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir)
            let r = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", "/dev/stdout", "--sha256"])
            #expect(r.status == 0, "\(r.stderrText)")
            let copy = dir.appendingPathComponent("copy.gif")
            try r.stdout.write(to: copy)
            #expect(try Pillow.decode(copy).hashes == Pillow.hashes(of: frames))
            // The hash line goes to stderr, as with -o -, so stdout is only the GIF.
            #expect(r.stderrText.hasPrefix(try sha256sum([copy])[0]), "\(r.stderrText)")
        }
    }

    @Test("-o FIFO with a reader: the reader gets the animation, the FIFO stays a FIFO")
    func fifo() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("in"))
            try Hostile.mkfifo(dir.appendingPathComponent("out.gif"))
            // timeout: a reader whose writer never comes must not hang the suite.
            let r = try Hostile.shell(
                "timeout 30 cat out.gif > copy.gif & \"$THROBBER\" encode in/a.png in/b.png -o out.gif -q; s=$?; wait; exit $s",
                in: dir, timeout: 60)
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(Hostile.type(dir.path + "/out.gif") == S_IFIFO, "the FIFO was replaced")
            #expect(try Pillow.decode(dir.appendingPathComponent("copy.gif")).hashes == Pillow.hashes(of: frames))
            #expect(try listing(dir) == ["copy.gif", "in", "out.gif"])
        }
    }

    @Test("-o LINK replaces the link's target atomically (relative links, chains); the link stays a link")
    func symlink() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("in"))
            let fm = FileManager.default
            for sub in ["links", "real"] {
                try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: false)
            }
            let target = dir.appendingPathComponent("real/t.gif")
            try OutputFileTests.precious.write(to: target)
            // A hard link to the old file: an in-place rewrite would change it too.
            try fm.linkItem(at: target, to: dir.appendingPathComponent("real/old"))
            try fm.createSymbolicLink(atPath: dir.path + "/links/hop.gif", withDestinationPath: "../real/t.gif")
            try fm.createSymbolicLink(atPath: dir.path + "/links/out.gif", withDestinationPath: "hop.gif")
            try fm.createSymbolicLink(atPath: dir.path + "/links/new.gif", withDestinationPath: "../real/new.gif")

            for link in ["links/out.gif", "links/new.gif"] {
                let r = try Throbber.run(["encode", "in/a.png", "in/b.png", "-o", link, "-q"], in: dir)
                #expect(r.status == 0, "\(r.stderrText)")
                #expect(Hostile.type(dir.path + "/" + link) == S_IFLNK, "\(link) is no longer a link")
            }
            #expect(try fm.destinationOfSymbolicLink(atPath: dir.path + "/links/out.gif") == "hop.gif")
            #expect(try Pillow.decode(target).hashes == Pillow.hashes(of: frames))
            #expect(try Pillow.decode(dir.appendingPathComponent("real/new.gif")).hashes == Pillow.hashes(of: frames))
            #expect(try Data(contentsOf: dir.appendingPathComponent("real/old")) == OutputFileTests.precious)
            #expect(try listing(dir.appendingPathComponent("links")) == ["hop.gif", "new.gif", "out.gif"])
            #expect(try listing(dir.appendingPathComponent("real")) == ["new.gif", "old", "t.gif"])
        }
    }

    @Test("a link loop as -o exits 73 naming the output; nothing is written")
    func symlinkLoop() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png"]), in: dir.appendingPathComponent("in"))
            try FileManager.default.createSymbolicLink(atPath: dir.path + "/x.gif", withDestinationPath: "y.gif")
            try FileManager.default.createSymbolicLink(atPath: dir.path + "/y.gif", withDestinationPath: "x.gif")
            let r = try Throbber.run(["encode", frames[0].path, "-o", dir.path + "/x.gif"])
            expectFailure(r, status: 73, names: ["x.gif", "Too many levels of symbolic links"])
            #expect(try listing(dir) == ["in", "x.gif", "y.gif"])
        }
    }
}
