import Foundation
import TestSupport
import Testing

/// Tests/tools/trim_oracle.py: frames made and boxes measured by Pillow.
enum TrimOracle {
    static func run(_ arguments: [String]) throws -> String {
        String(decoding: try Pillow.script("trim_oracle.py", arguments), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Pillow's union box (getbbox) over every composited frame of `files`.
    static func bbox(_ files: [URL]) throws -> String { try run(["bbox"] + files.map(\.path)) }

    struct Same: Decodable {
        var frames: Int
        var inputs: Int
        var size: [Int]
        var differing: [Int]
    }

    /// How many pixels of each frame of `output` differ from the `box` crop
    /// of the matching frame of `inputs`.
    static func same(_ output: URL, box: String, _ inputs: [URL]) throws -> Same {
        try JSONDecoder().decode(
            Same.self, from: Data(try run(["same", output.path, box] + inputs.map(\.path)).utf8))
    }

    /// `box` (WxH+X+Y) grown by `m` a side within a `w`×`h` canvas.
    static func grow(_ box: String, by m: Int, within w: Int, _ h: Int) -> String {
        let parts = box.split(whereSeparator: { $0 == "x" || $0 == "+" }).map { Int($0)! }
        let (x0, y0) = (max(0, parts[2] - m), max(0, parts[3] - m))
        let (x1, y1) = (min(w, parts[2] + parts[0] + m), min(h, parts[3] + parts[1] + m))
        return "\(x1 - x0)x\(y1 - y0)+\(x0)+\(y0)"
    }

    /// The six moving-dot frames (200x200, transparent) in `dir`/frames.
    static func dots(in dir: URL) throws -> [URL] {
        let frames = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        _ = try run(["dots", frames.path])
        return (1...6).map { frames.appendingPathComponent("dot-\($0).png") }
    }

    /// A 200x200 Lottie file, 10 frames at 10 fps, drawing a 40x40 rect at
    /// 150…190 (its bottom-right corner) that turns; with `background`, a
    /// full-canvas solid layer of that color under it.
    static func lottie(background: String? = nil) -> String {
        let transform =
            #""ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}}"#
        let rect =
            #"{"ty": 4, "ind": 1, "ip": 0, "op": 10, "st": 0, \#(transform), "shapes": [{"ty": "gr", "it": [{"ty": "rc", "p": {"a": 0, "k": [170, 170]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 1, "k": [{"t": 0, "s": [0, 0.5, 1, 1], "i": {"x": [1], "y": [1]}, "o": {"x": [0], "y": [0]}}, {"t": 10, "s": [1, 0.5, 0, 1]}]}, "o": {"a": 0, "k": 100}}, {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}]}"#
        let solid = background.map {
            #", {"ty": 1, "ind": 2, "ip": 0, "op": 10, "st": 0, \#(transform), "sc": "\#($0)", "sw": 200, "sh": 200}"#
        }
        return
            #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 200, "h": 200, "layers": [\#(rect)\#(solid ?? "")]}"#
    }
}

@Suite("encode --trim: crop to what the frames draw")
struct TrimCLITests {
    @Test("a folder of PNG frames with a moving dot: the output is Pillow's union box, each frame its crop")
    func folder() throws {
        try withTemporaryDirectory { dir in
            let frames = try TrimOracle.dots(in: dir)
            let box = try TrimOracle.bbox(frames)
            #expect(box == "87x47+40+60")
            for jobs in ["1", "3"] {
                let out = dir.appendingPathComponent("out-\(jobs).png")
                let r = try Throbber.run(
                    ["encode", dir.appendingPathComponent("frames").path, "-o", out.path, "--trim", "--jobs", jobs])
                #expect(r.status == 0, "\(r.stderrText)")
                let same = try TrimOracle.same(out, box: box, frames)
                #expect(same.size == [87, 47] && same.frames == 6, "\(same)")
                #expect(same.differing == Array(repeating: 0, count: 6), "\(same)")
            }
            let bytes1 = try Data(contentsOf: dir.appendingPathComponent("out-1.png"))
            #expect(bytes1 == (try Data(contentsOf: dir.appendingPathComponent("out-3.png"))), "same for any --jobs")
        }
    }

    @Test("--trim-margin 10 grows the box 10 pixels a side; 100 stops at the canvas")
    func margin() throws {
        try withTemporaryDirectory { dir in
            let frames = try TrimOracle.dots(in: dir)
            let box = try TrimOracle.bbox(frames)
            for (margin, size) in [(10, [107, 67]), (100, [200, 200])] {
                let out = dir.appendingPathComponent("out-\(margin).gif")
                let r = try Throbber.run(
                    ["encode"] + frames.map(\.path) + ["-o", out.path, "--trim", "--trim-margin", "\(margin)"])
                #expect(r.status == 0, "\(r.stderrText)")
                let same = try TrimOracle.same(out, box: TrimOracle.grow(box, by: margin, within: 200, 200), frames)
                #expect(same.size == size, "\(same)")
                #expect(same.differing == Array(repeating: 0, count: 6), "\(same)")
            }
        }
    }

    @Test("--trim with --crop trims inside the crop; with --width it trims before resizing")
    func withCropAndResize() throws {
        try withTemporaryDirectory { dir in
            let frames = try TrimOracle.dots(in: dir)
            let cropped = dir.appendingPathComponent("cropped.png")
            var r = try Throbber.run(
                ["encode"] + frames.map(\.path) + ["-o", cropped.path, "--crop", "100x100+0+0", "--trim"])
            #expect(r.status == 0, "\(r.stderrText)")
            // Inside 100x100+0+0 the first four dots span x 40…96 and y 60…92;
            // the last two are outside, so the last frames are blank (merged).
            var same = try TrimOracle.same(cropped, box: "57x33+40+60", frames)
            #expect(same.size == [57, 33] && same.frames == 5, "\(same)")
            #expect(same.differing == Array(repeating: 0, count: 5), "\(same)")
            let resized = dir.appendingPathComponent("resized.png")
            r = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", resized.path, "--trim", "--width", "174"])
            #expect(r.status == 0, "\(r.stderrText)")
            same = try TrimOracle.same(resized, box: "174x94+0+0", [resized])
            #expect(same.size == [174, 94], "87x47 at twice the width: \(same)")
        }
    }

    @Test("opaque frames (--background white) are trimmed against the corners' color: the same box")
    func opaque() throws {
        try withTemporaryDirectory { dir in
            let frames = try TrimOracle.dots(in: dir)
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(
                ["encode"] + frames.map(\.path) + ["-o", out.path, "--trim", "--background", "white"])
            #expect(r.status == 0, "\(r.stderrText)")
            let full = dir.appendingPathComponent("full.gif")
            #expect(
                try Throbber.run(["encode"] + frames.map(\.path) + ["-o", full.path, "--background", "white"]).status
                    == 0)
            #expect(try TrimOracle.bbox([full]) == "87x47+40+60")
            let same = try TrimOracle.same(out, box: "87x47+40+60", [full])
            #expect(same.size == [87, 47] && same.differing == Array(repeating: 0, count: 6), "\(same)")
        }
    }

    @Test("a GIF input: the output is Pillow's box of its composited frames")
    func gifInput() throws {
        try withTemporaryDirectory { dir in
            let gif = dir.appendingPathComponent("in.gif")
            _ = try TrimOracle.run(["gif", gif.path])
            let box = try TrimOracle.bbox([gif])
            #expect(box == "87x47+40+60")
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", gif.path, "-o", out.path, "--trim"])
            #expect(r.status == 0, "\(r.stderrText)")
            // Compared with the frames the GIF was made of (4 colors: lossless);
            // Pillow 9.4 keeps disposed dots when it composites this GIF.
            let same = try TrimOracle.same(out, box: box, try TrimOracle.dots(in: dir))
            #expect(same.size == [87, 47] && same.differing == Array(repeating: 0, count: 6), "\(same)")
        }
    }

    @Test("a PNG stream on standard input ('-'): the output is the frames' box")
    func stream() throws {
        try withTemporaryDirectory { dir in
            let frames = try TrimOracle.dots(in: dir)
            let stream = dir.appendingPathComponent("stream.bin")
            try Data(frames.map { try Data(contentsOf: $0) }.joined()).write(to: stream)
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run(["encode", "-", "-o", out.path, "--trim", "--fps", "10"], stdin: stream)
            #expect(r.status == 0, "\(r.stderrText)")
            let same = try TrimOracle.same(out, box: TrimOracle.bbox(frames), frames)
            #expect(same.size == [87, 47] && same.differing == Array(repeating: 0, count: 6), "\(same)")
        }
    }

    @Test("a Lottie file drawing in its corner: trimmed to the 40x40 rect, each frame the crop of the untrimmed one")
    func lottie() throws {
        try withTemporaryDirectory { dir in
            let json = dir.appendingPathComponent("corner.json")
            try TrimOracle.lottie().write(to: json, atomically: true, encoding: .utf8)
            let full = dir.appendingPathComponent("full.png")
            var r = try Throbber.run(["encode", json.path, "-o", full.path])
            #expect(r.status == 0, "\(r.stderrText)")
            let box = try TrimOracle.bbox([full])
            #expect(box == "40x40+150+150", "the rect as drawn")
            let out = dir.appendingPathComponent("out.png")
            r = try Throbber.run(["encode", json.path, "-o", out.path, "--trim"])
            #expect(r.status == 0, "\(r.stderrText)")
            let same = try TrimOracle.same(out, box: box, [full])
            #expect(same.size == [40, 40] && same.frames == same.inputs, "\(same)")
            #expect(same.differing == Array(repeating: 0, count: same.frames), "\(same)")
        }
    }

    @Test(
        "--background on a Lottie file with its own opaque background: a note (not with --quiet); --trim finds the drawing"
    )
    func lottieOwnBackground() throws {
        try withTemporaryDirectory { dir in
            let json = dir.appendingPathComponent("boxed.json")
            try TrimOracle.lottie(background: "#ffffff").write(to: json, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent("out.gif")
            var r = try Throbber.run(["encode", json.path, "-o", out.path, "--background", "red"])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(
                r.stderrLines.contains(
                    "note: \(json.path) draws its own opaque background, so --background has no visible effect; --trim crops to the drawing"
                ), "\(r.stderrText)")
            r = try Throbber.run(["encode", json.path, "-o", out.path, "--background", "red", "--quiet"])
            #expect(r.status == 0 && r.stderrText.isEmpty, "\(r.stderrText)")
            // Without its own background, no note.
            let plain = dir.appendingPathComponent("plain.json")
            try TrimOracle.lottie().write(to: plain, atomically: true, encoding: .utf8)
            r = try Throbber.run(["encode", plain.path, "-o", out.path, "--background", "red"])
            #expect(r.status == 0 && !r.stderrText.contains("note:"), "\(r.stderrText)")
            // The white background is the border: the rect's box is kept.
            let trimmed = dir.appendingPathComponent("trimmed.png")
            r = try Throbber.run(["encode", json.path, "-o", trimmed.path, "--trim"])
            #expect(r.status == 0, "\(r.stderrText)")
            let same = try TrimOracle.same(trimmed, box: "40x40+150+150", [trimmed])
            #expect(same.size == [40, 40], "\(same)")
        }
    }

    @Test("frames that draw nothing keep their top-left pixel, with a note, as ImageMagick's -trim")
    func blank() throws {
        try withTemporaryDirectory { dir in
            let frames = try Pillow.makeFrames(
                [Pillow.Frame("a.png", width: 30, height: 20, color: [0, 0, 0, 0])], in: dir)
            let out = dir.appendingPathComponent("out.png")
            let r = try Throbber.run(["encode", frames[0].path, "-o", out.path, "--trim"])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(r.stderrLines.contains("note: no frame draws anything, so --trim kept the top-left pixel"))
            #expect(try TrimOracle.same(out, box: "1x1+0+0", frames).size == [1, 1])
        }
    }

    @Test("--trim-margin needs --trim; a negative margin is refused (exit 64)")
    func usage() throws {
        try withTemporaryDirectory { dir in
            let frames = try TrimOracle.dots(in: dir)
            let out = dir.appendingPathComponent("out.gif").path
            var r = try Throbber.run(["encode", frames[0].path, "-o", out, "--trim-margin", "4"])
            #expect(r.status == 64)
            #expect(r.stderrLines.first == "throbber: error: --trim-margin goes with --trim", "\(r.stderrText)")
            r = try Throbber.run(["encode", frames[0].path, "-o", out, "--trim", "--trim-margin", "-1"])
            #expect(r.status == 64)
            #expect(
                r.stderrLines.first == "throbber: error: --trim-margin: must be 0…65535 pixels, got -1",
                "\(r.stderrText)")
        }
    }
}
