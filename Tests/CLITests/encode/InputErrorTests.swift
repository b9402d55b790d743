import Foundation
import TestSupport
import Testing

/// Checks a non-usage failure: the given exit status, nothing on stdout, and
/// exactly one stderr line `throbber: error: <what>: <why>` containing `names`.
func expectFailure(
    _ r: CommandResult, status: Int32, names: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(r.status == status, "exit status; stderr: \(r.stderrText)", sourceLocation: sourceLocation)
    #expect(r.stdout.isEmpty, "stdout: \(r.stdoutText)", sourceLocation: sourceLocation)
    #expect(r.stderrLines.count == 1, "stderr: \(r.stderrText)", sourceLocation: sourceLocation)
    let line = r.stderrLines.first ?? ""
    #expect(line.hasPrefix("throbber: error: "), "\(line)", sourceLocation: sourceLocation)
    #expect(line.count > "throbber: error: ".count + 10, "no reason given: \(line)", sourceLocation: sourceLocation)
    for name in names {
        #expect(line.contains(name), "error does not name '\(name)': \(line)", sourceLocation: sourceLocation)
    }
}

/// The files of `dir`, sorted (temporary files included: nothing is hidden).
func listing(_ dir: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
}

@Suite("Exit codes for bad inputs and outputs")
struct InputErrorTests {
    /// The 14 intentionally corrupt PngSuite images.
    static let corruptPNGs = [
        "xc1n0g08", "xc9n2c08", "xcrn0g04", "xcsn0g01", "xd0n2c08", "xd3n2c08", "xd9n2c08",
        "xdtn0g01", "xhdn0g08", "xlfn0g04", "xs1n0g01", "xs2n0g01", "xs4n0g01", "xs7n0g01",
    ]

    @Test("an empty folder exits 66 (no input) naming the folder")
    func emptyFolder() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
            let r = try Throbber.run(["encode", empty.path, "-o", dir.appendingPathComponent("out.gif").path])
            expectFailure(r, status: 66, names: [empty.path])
            #expect(try listing(dir) == ["empty"])
        }
    }

    @Test("a folder with no PNG or JPEG files, or none matching --glob, exits 66")
    func folderWithoutFrames() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            try Pillow.makeFrames(Pillow.distinctFrames(["a.png"]), in: folder)
            try Data("not a frame".utf8).write(to: folder.appendingPathComponent("notes.txt"))
            let out = dir.appendingPathComponent("out.gif").path
            expectFailure(
                try Throbber.run(["encode", folder.path, "--glob", "*.jpg", "-o", out]), status: 66,
                names: [folder.path])
            try FileManager.default.removeItem(at: folder.appendingPathComponent("a.png"))
            expectFailure(try Throbber.run(["encode", folder.path, "-o", out]), status: 66, names: [folder.path])
        }
    }

    @Test("a missing folder or file exits 66 naming it", arguments: ["no-such-folder", "no-such-frame.png"])
    func missingInput(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png"]), in: dir.appendingPathComponent("in"))
            let missing = dir.appendingPathComponent(name).path
            let r = try Throbber.run([
                "encode", frames[0].path, missing, "-o", dir.appendingPathComponent("out.gif").path,
            ])
            expectFailure(r, status: 66, names: [missing])
            #expect(try listing(dir) == ["in"])
        }
    }

    @Test("an output in a folder that does not exist exits 73 naming the output")
    func missingOutputFolder() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png"]), in: dir.appendingPathComponent("in"))
            let out = dir.appendingPathComponent("no-such-dir/out.gif").path
            expectFailure(try Throbber.run(["encode", frames[0].path, "-o", out]), status: 73, names: [out])
            #expect(try listing(dir) == ["in"])
        }
    }

    @Test("an output path that is an existing folder exits 73")
    func outputIsFolder() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(Pillow.distinctFrames(["a.png"]), in: dir.appendingPathComponent("in"))
            let out = dir.appendingPathComponent("taken.gif")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
            expectFailure(try Throbber.run(["encode", frames[0].path, "-o", out.path]), status: 73, names: [out.path])
            #expect(try listing(out) == [])
        }
    }

    @Test("each corrupt PngSuite x*.png exits 65 (bad data) naming the file", .needsFixtures, arguments: corruptPNGs)
    func corruptPNG(_ name: String) throws {
        let file = try Fixtures.url("pngsuite/\(name).png")
        try withTemporaryDirectory { dir in
            let r = try Throbber.run(["encode", file.path, "-o", dir.appendingPathComponent("out.gif").path])
            expectFailure(r, status: 65, names: ["\(name).png"])
            #expect(try listing(dir) == [])
        }
    }

    @Test("a truncated JPEG exits 65 naming the file", .needsFixtures)
    func truncatedJPEG() throws {
        let whole = try Data(contentsOf: Fixtures.url("photo-seq-dlib-bobot/frame_000100.jpg"))
        try withTemporaryDirectory { dir in
            let cut = dir.appendingPathComponent("cut.jpg")
            try whole.prefix(whole.count / 2).write(to: cut)
            let r = try Throbber.run(["encode", cut.path, "-o", dir.appendingPathComponent("out.gif").path])
            expectFailure(r, status: 65, names: [cut.path])
            #expect(try listing(dir) == ["cut.jpg"])
        }
    }

    @Test("a file that is not an image at all exits 65 naming the file")
    func notAnImage() throws {
        try withTemporaryDirectory { dir in
            let text = dir.appendingPathComponent("frame.png")
            try Data("hello, not a png\n".utf8).write(to: text)
            let r = try Throbber.run(["encode", text.path, "-o", dir.appendingPathComponent("out.gif").path])
            expectFailure(r, status: 65, names: [text.path])
        }
    }

    @Test("frames of different sizes exit 65 naming the odd file and both sizes")
    func differentSizes() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("in")
            try Pillow.makeFrames(
                Pillow.distinctFrames(["f1.png", "f2.png"], width: 8, height: 6)
                    + [Pillow.Frame("f3.png", width: 9, height: 6, color: [1, 2, 3, 255])], in: folder)
            let r = try Throbber.run(["encode", folder.path, "-o", dir.appendingPathComponent("out.gif").path])
            expectFailure(r, status: 65, names: ["f3.png", "9x6", "8x6"])
            #expect(try listing(dir) == ["in"])
        }
    }
}
