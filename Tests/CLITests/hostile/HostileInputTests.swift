import Foundation
import TestSupport
import Testing

/// Special files as inputs (docs/reliability.md, "Inputs"): what a folder
/// holds besides regular files is skipped unopened, pipes are read as
/// streams, devices are refused at once, nothing is read past 1 GiB, and
/// every message is ours.
@Suite("Hostile inputs: FIFOs, pipes, devices, sockets, huge files")
struct HostileInputTests {
    @Test("a frames folder skips a FIFO, a socket, a device link and a subfolder unopened; a link to a frame is taken")
    func folderSkipsSpecialFiles() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("in")
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: folder)
            // Named like frames, so only their type can keep them out.
            try Hostile.mkfifo(folder.appendingPathComponent("c.png"))
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("d.png").path, withDestinationPath: "/dev/zero")
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("e.png").path, withDestinationPath: "a.png")
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("f.png"), withIntermediateDirectories: false)
            let socket = try Command.run(
                Pillow.python,
                ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", folder.path + "/g.png"])
            #expect(socket.status == 0, "\(socket.stderrText)")
            #expect(Hostile.type(folder.path + "/g.png") == S_IFSOCK)

            let out = dir.appendingPathComponent("out.gif")
            let started = Date()
            // A FIFO opened for reading would block forever: a timeout fails the test.
            let r = try Hostile.shell("exec \"$THROBBER\" encode in -o out.gif -q", in: dir, timeout: 60)
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(Date().timeIntervalSince(started) < 30)
            let expected = try Pillow.hashes(of: [frames[0], frames[1], frames[0]])
            #expect(try Pillow.decode(out).hashes == expected)
            #expect(Hostile.type(folder.path + "/c.png") == S_IFIFO)
        }
    }

    @Test("process substitution: encode <(cat a.png) and <(cat a.png b.png c.png) read the pipe as a PNG stream")
    func processSubstitution() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png", "c.png"]), in: dir.appendingPathComponent("in"))
            var r = try Hostile.shell("\"$THROBBER\" encode <(cat in/a.png) -o one.gif -q", in: dir)
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try Pillow.decode(dir.appendingPathComponent("one.gif")).hashes == Pillow.hashes(of: [frames[0]]))
            r = try Hostile.shell(
                "\"$THROBBER\" encode <(cat in/a.png in/b.png in/c.png) -o three.gif --delay 20 -q", in: dir)
            #expect(r.status == 0, "\(r.stderrText)")
            let three = try Pillow.decode(dir.appendingPathComponent("three.gif"))
            #expect(three.hashes == (try Pillow.hashes(of: frames)))
            #expect(three.durations == [200, 200, 200])
        }
    }

    @Test("encode <(ffmpeg … -f image2pipe -c:v png -) gives ffmpeg's frames, named by the pipe in errors")
    func ffmpegProcessSubstitution() throws {
        try withTemporaryDirectory { dir in
            let frames = try Hostile.testsrcFrames("64x48", count: 4, in: dir.appendingPathComponent("ref"))
            let r = try Hostile.shell(
                "\"$THROBBER\" encode <(ffmpeg -v error -nostdin -f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 4 -f image2pipe -c:v png -) -o out.png -q",
                in: dir)
            #expect(r.status == 0, "\(r.stderrText)")
            // A truecolor APNG is lossless: each 40 ms shows ffmpeg's PNG file of that frame
            // (testsrc2's first frames are alike, and identical neighbours are merged).
            let shown = try Pillow.decode(dir.appendingPathComponent("out.png")).frames.flatMap { frame in
                Array(repeating: frame.sha256, count: (frame.duration ?? 0) / 40)
            }
            #expect(shown == (try Pillow.hashes(of: frames)))
            // Something that is no frame stream is refused at its first bytes, naming the pipe.
            let zeros = try Hostile.shell("\"$THROBBER\" encode <(cat /dev/zero) -o z.gif", in: dir, timeout: 30)
            expectFailure(zeros, status: 65, names: ["/dev/fd/", "not a PNG or YUV4MPEG2 stream"])
            #expect(try listing(dir).sorted() == ["out.png", "ref"])
        }
    }

    @Test("a named FIFO is read as a stream, waiting for its writer as cat does")
    func namedFIFO() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("in"))
            try Hostile.mkfifo(dir.appendingPathComponent("frames.fifo"))
            let r = try Hostile.shell(
                "(sleep 0.5; timeout 30 sh -c 'cat in/a.png in/b.png > frames.fifo') & \"$THROBBER\" encode frames.fifo -o out.gif -q; s=$?; wait; exit $s",
                in: dir, timeout: 60)
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(try Pillow.decode(dir.appendingPathComponent("out.gif")).hashes == Pillow.hashes(of: frames))
            #expect(Hostile.type(dir.path + "/frames.fifo") == S_IFIFO)
        }
    }

    @Test("a pipe among other inputs is a usage error (64) naming it")
    func pipeAmongFiles() throws {
        try withTemporaryDirectory { dir in
            try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: dir.appendingPathComponent("in"))
            let r = try Hostile.shell("\"$THROBBER\" encode in/a.png <(cat in/b.png) -o out.gif", in: dir)
            #expect(r.status == 64, "\(r.stderrText)")
            #expect(r.stderrText.contains("/dev/fd/") && r.stderrText.contains("only input"), "\(r.stderrText)")
            #expect(try listing(dir) == ["in"])
        }
    }

    @Test(
        "a device as an input, frame, config or image layer is refused at once with exit 66, naming it",
        arguments: ["/dev/zero", "/dev/urandom"])
    func devices(_ device: String) throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.gif").path
            let config = try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 8, "height": 8}, "layers": [{"image": "\#(device)"}]}"#,
                to: dir, as: "scene.json")
            let lottie = try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 8, "height": 8}, "layers": [{"lottie": "\#(device)"}]}"#,
                to: dir, as: "lottie.json")
            let runs: [([String], [String])] = [
                (["encode", device, "-o", out], [device, "character device"]),
                (["encode", device, device, "-o", out], [device, "character device"]),
                (["info", device], [device, "character device"]),
                (["render", config.path, "-o", out], ["scene.json", "layers[0].image", device, "character device"]),
                (["render", device, "-o", out], [device, "character device"]),
                (["render", lottie.path, "-o", out], ["lottie.json", "layers[0].lottie", device]),
                (["check", device], [device, "character device"]),
            ]
            for (args, names) in runs {
                let started = Date()
                let r = try Throbber.run(args)
                expectFailure(r, status: 66, names: names)
                Hostile.expectOurWords(r.stderrText)
                #expect(Date().timeIntervalSince(started) < 5, "\(args): not refused at once")
            }
            #expect(try listing(dir) == ["lottie.json", "scene.json"])
        }
    }

    /// Containers often have no block device; the test is then skipped
    /// (the character-device tests above cover the same refusal).
    @Test(
        "a block device is refused like a character device",
        .enabled(if: Hostile.blockDevice != nil, "skipped: /dev holds no block device on this machine"))
    func blockDevice() throws {
        let block = try #require(Hostile.blockDevice)
        try withTemporaryDirectory { dir in
            let r = try Throbber.run(["encode", block, "-o", dir.appendingPathComponent("o.gif").path])
            expectFailure(r, status: 66, names: [block, "block device"])
        }
    }

    @Test("a file over 1 GiB (sparse) is refused before it is read, as input, frame, config and image layer")
    func overSizeCap() throws {
        try withTemporaryDirectory { dir in
            let big = dir.appendingPathComponent("big.png")
            #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
            let handle = try FileHandle(forWritingTo: big)
            try handle.truncate(atOffset: (1 << 30) + 1)
            try handle.close()
            let config = try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 8, "height": 8}, "layers": [{"image": "big.png"}]}"#,
                to: dir, as: "scene.json")
            let out = dir.appendingPathComponent("out.gif").path
            for (args, names) in [
                (["encode", big.path, "-o", out], ["big.png", "1 GiB"]),
                (["info", big.path], ["big.png", "1 GiB"]),
                (["render", config.path, "-o", out], ["scene.json", "layers[0].image", "big.png", "1 GiB"]),
            ] {
                let started = Date()
                let r = try Throbber.run(args)
                expectFailure(r, status: 65, names: names)
                #expect(Date().timeIntervalSince(started) < 5, "\(args): the file was read")
            }
            #expect(try listing(dir) == ["big.png", "scene.json"])
        }
    }

    @Test("missing, unreadable and folder inputs give our own messages, never a Foundation error")
    func ourMessages() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("folder")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            let out = dir.appendingPathComponent("out.gif").path
            for (args, status, names) in [
                (["info", folder.path], Int32(65), [folder.path, "is a folder"]),
                (["info", dir.appendingPathComponent("missing.gif").path], 66, ["missing.gif", "no such file"]),
                (["render", folder.path, "-o", out], 65, [folder.path, "is a folder"]),
                (["info", "/proc/self/mem"], 74, ["/proc/self/mem", "read failed: Input/output error"]),
            ] {
                let r = try Throbber.run(args)
                expectFailure(r, status: status, names: names)
                Hostile.expectOurWords(r.stderrText)
            }
        }
    }
}
