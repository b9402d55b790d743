import Foundation
import TestSupport
import Testing

/// Checks a usage error (64): one error line naming `names`, then the
/// usage lines; nothing on standard output.
func expectUsage(_ r: CommandResult, names: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == 64, "exit status; stderr: \(r.stderrText)", sourceLocation: sourceLocation)
    #expect(r.stdout.isEmpty, "stdout: \(r.stdoutText)", sourceLocation: sourceLocation)
    let line = r.stderrLines.first ?? ""
    #expect(line.hasPrefix("throbber: error: "), "\(r.stderrText)", sourceLocation: sourceLocation)
    #expect(
        r.stderrLines.dropFirst().first?.hasPrefix("Usage: ") == true, "\(r.stderrText)", sourceLocation: sourceLocation
    )
    for name in names {
        #expect(line.contains(name), "error does not name '\(name)': \(line)", sourceLocation: sourceLocation)
    }
}

/// An output that is one of the inputs (docs/reliability.md, "Outputs"):
/// the same file, a link to one, or a name a frames folder among the
/// inputs would pick on the next run, is refused with 64 before anything
/// is read or written.
@Suite("Hostile outputs: an output that is an input")
struct OutputIsInputTests {
    /// Every file under `dir` (relative paths) with its bytes.
    static func snapshot(_ dir: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: dir.path)
        while let name = walker?.nextObject() as? String {
            let url = dir.appendingPathComponent(name)
            if let data = try? Data(contentsOf: url) { files[name] = data } else { files[name] = Data() }
        }
        return files
    }

    @Test("encode: an output that is one of the frame files (by name or through a link) is refused, frames untouched")
    func encodeFiles() throws {
        try withTemporaryDirectory { dir in
            _ = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png", "c.png"]), in: dir)
            try FileManager.default.createSymbolicLink(atPath: dir.path + "/link.png", withDestinationPath: "a.png")
            let before = try Self.snapshot(dir)
            for (args, names) in [
                (["a.png", "b.png", "c.png", "-o", "b.png", "--format", "apng"], ["b.png: is also an input"]),
                (["a.png", "b.png", "-o", "link.png"], ["link.png: is also an input (a.png)"]),
                (["link.png", "b.png", "-o", "a.png", "--format", "apng"], ["a.png: is also an input (link.png)"]),
                (["./a.png", "-o", dir.path + "/a.png", "--format", "gif"], ["a.png", "is also an input (./a.png)"]),
            ] {
                let r = try Throbber.run(["encode"] + args, in: dir)
                expectUsage(r, names: names + ["write the output elsewhere"])
                #expect(try Self.snapshot(dir) == before, "\(args): a file changed or was left behind")
            }
        }
    }

    @Test("encode: an output its frames folder would pick is refused (any spelling of the folder, a link to it)")
    func encodeFolder() throws {
        try withTemporaryDirectory { dir in
            let frames = dir.appendingPathComponent("in")
            _ = try Pillow.makeFrames(Pillow.distinctFrames(["a.png", "b.png"]), in: frames)
            try FileManager.default.createSymbolicLink(atPath: dir.path + "/alias", withDestinationPath: "in")
            let before = try Self.snapshot(dir)
            for (input, output) in [
                ("in", "in/out.png"), ("in/", "./in/out.gif"), ("./in", frames.path + "/out.webp"),
                ("alias", "in/OUT.GIF"), ("in", "alias/out.apng"),
            ] {
                let r = try Throbber.run(["encode", input, "-o", output], in: dir)
                expectUsage(r, names: ["\(output): is in the input folder \(input)", "write the output elsewhere"])
                #expect(try Self.snapshot(dir) == before, "\(input) -o \(output): a file changed or was left behind")
            }
            // --glob picks the folder's frames: a name it does not match is no frame.
            let r = try Throbber.run(["encode", "in", "--glob", "*.png", "-o", "in/out.png", "-q"], in: dir)
            expectUsage(r, names: ["in/out.png"])
            let other = try Throbber.run(["encode", "in", "--glob", "*.png", "-o", "in/out.gif", "-q"], in: dir)
            #expect(other.status == 0, "\(other.stderrText)")
            #expect(try listing(frames) == ["a.png", "b.png", "out.gif"])
        }
    }

    @Test("encode: a Lottie file as its own output is refused", .needsFixtures)
    func encodeLottie() throws {
        try withTemporaryDirectory { dir in
            let lottie = dir.appendingPathComponent("loader.json")
            try FileManager.default.copyItem(at: try LottieExpectation.fixture("simple_loader"), to: lottie)
            let before = try Data(contentsOf: lottie)
            let r = try Throbber.run(["encode", "loader.json", "-o", "loader.json", "--format", "gif"], in: dir)
            expectUsage(r, names: ["loader.json: is also an input"])
            #expect(try Data(contentsOf: lottie) == before)
            #expect(try listing(dir) == ["loader.json"])
        }
    }

    @Test("render: the config, an image layer, the frames folder and the config's own output list are checked")
    func render() throws {
        try withTemporaryDirectory { dir in
            _ = try Pillow.makeFrames(Pillow.distinctFrames(["ring.png"], width: 16, height: 16), in: dir)
            _ = try Pillow.makeFrames(Pillow.distinctFrames(["1.png", "2.png"]), in: dir.appendingPathComponent("f"))
            let layers = #"{"version": 1, "canvas": {"width": 16, "height": 16}, "layers": [{"image": "ring.png"}]"#
            _ = try SceneCLI.write(layers + "}", to: dir, as: "scene.json")
            _ = try SceneCLI.write(
                layers + #", "output": [{"path": "ring.png", "format": "apng"}]}"#, to: dir, as: "listed.json")
            _ = try SceneCLI.write(#"{"version": 1, "frames": {"dir": "f"}}"#, to: dir, as: "frames.json")
            let before = try Self.snapshot(dir)
            for (args, names) in [
                (["scene.json", "-o", "scene.json", "--format", "gif"], ["scene.json: is also an input"]),
                (["scene.json", "-o", "ring.png", "--format", "apng"], ["ring.png: is also an input"]),
                (["listed.json"], ["ring.png: is also an input"]),
                (["frames.json", "-o", "f/out.gif"], ["f/out.gif: is in the input folder", "/f"]),
            ] {
                let r = try Throbber.run(["render"] + args, in: dir)
                expectUsage(r, names: names)
                #expect(try Self.snapshot(dir) == before, "\(args): a file changed or was left behind")
            }
        }
    }

    @Test("preset ease: --ring or --icon as the output is refused")
    func preset() throws {
        try withTemporaryDirectory { dir in
            _ = try Pillow.makeFrames(
                Pillow.distinctFrames(["ring.png", "icon.png"], width: 16, height: 16), in: dir)
            let before = try Self.snapshot(dir)
            for out in ["ring.png", "icon.png"] {
                let r = try Throbber.run(
                    ["preset", "ease", "--ring", "ring.png", "--icon", "icon.png", "-o", out, "--format", "apng"],
                    in: dir)
                expectUsage(r, names: ["\(out): is also an input"])
                #expect(try Self.snapshot(dir) == before)
            }
        }
    }
}

/// Output names that name no file: `-o ""`, a folder, `/`.
@Suite("Hostile outputs: no file name")
struct OutputNameTests {
    @Test("-o \"\" says -o needs a file name (64); a folder says so and shows a file name in it (73)")
    func folderOrEmpty() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png"]), in: dir.appendingPathComponent("in"))
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("out"), withIntermediateDirectories: false)
            let config = try SceneCLI.write(
                #"{"version": 1, "canvas": {"width": 8, "height": 8}, "layers": [{"circle": {"radius": 2}}]}"#,
                to: dir.appendingPathComponent("in"), as: "scene.json")
            let commands: [[String]] = [["encode", frames[0].path], ["render", config.path], ["preset", "dots"]]
            for command in commands {
                let empty = try Throbber.run(command + ["-o", ""], in: dir)
                expectUsage(empty, names: ["-o needs a file name"])
                for (out, example) in [("out", "out/out.gif"), ("out/", "out/out.gif"), ("/", "/out.gif")] {
                    for extra in [[], ["--format", "gif"]] {
                        let r = try Throbber.run(command + ["-o", out] + extra, in: dir)
                        expectFailure(r, status: 73, names: ["\(out): is a folder", "like \(example)"])
                        #expect(!r.stderrText.contains("cannot tell the format"), "\(r.stderrText)")
                    }
                }
                let missing = try Throbber.run(command + ["-o", "new/"], in: dir)
                expectUsage(missing, names: ["new/: names a folder", "like new/out.gif"])
                #expect(try listing(dir) == ["in", "out"])
                #expect(try listing(dir.appendingPathComponent("out")).isEmpty)
            }
        }
    }
}
