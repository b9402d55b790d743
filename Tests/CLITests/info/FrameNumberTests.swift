import Foundation
import TestSupport
import Testing

/// Frame numbers people read are 1-based, as `--frames` and
/// `--poster-frame` count: in `info`'s table and `--json`, and in the
/// messages that name a frame of an input.
@Suite("1-based frame numbers in info and messages")
struct FrameNumberTests {
    /// Runs a Python program (with Pillow) given as text, with `arguments`.
    static func python(_ program: String, _ arguments: [String]) throws {
        let r = try Command.run(Pillow.python, ["-c", program] + arguments)
        #expect(r.status == 0, "\(r.stderrText)")
    }

    /// A GIF of `frames` 1x1 images on a 2x2 canvas, written byte by byte;
    /// the image descriptor of frame `farFrame` (1-based) places it at
    /// x = 65000, 1000 pixels wide: beyond any GIF canvas.
    static func gif(frames: Int, farFrame: Int) -> [UInt8] {
        var b = Array("GIF89a".utf8) + [2, 0, 2, 0, 0x80, 0, 0]  // 2x2, a global table of 2 colors
        b += [0, 0, 0, 255, 255, 255]
        for n in 1...frames {
            let (x, w): (Int, Int) = n == farFrame ? (65000, 1000) : (0, 1)
            b += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]  // graphic control: 10 cs
            b += [0x2C, UInt8(x & 0xFF), UInt8(x >> 8), 0, 0, UInt8(w & 0xFF), UInt8(w >> 8), 1, 0, 0]
            // LZW, minimum code size 2: clear (4), index 0, end (5) in 3-bit codes.
            b += [2, 2, 0x44, 0x01, 0]
        }
        return b + [0x3B]
    }

    @Test("info counts frames from 1: the table's first row is 1, and every --json frame has \"frame\": 1, 2, 3")
    func info() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let folder = dir.appendingPathComponent("frames")
            _ = try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png", "c.png"], width: 6, height: 4), in: folder)
            let out = dir.appendingPathComponent("three.gif")
            let made = try Throbber.run(["encode", folder.path, "-o", out.path, "-q"])
            #expect(made.status == 0, "\(made.stderrText)")

            let text = try Throbber.run(["info", out.path])
            #expect(text.status == 0, "\(text.stderrText)")
            let lines = text.stdoutText.split(separator: "\n").map(String.init)
            let header = try #require(lines.firstIndex { $0.hasPrefix("  #") }, "\(text.stdoutText)")
            // The table's rows run until the first line that is not a row (the trim box).
            let rows = lines[(header + 1)...].prefix { $0.hasPrefix("  ") }
            let numbers = rows.map { $0.split(separator: " ").first.map(String.init) ?? "" }
            #expect(numbers == ["1", "2", "3"], "\(text.stdoutText)")

            let json = try Throbber.run(["info", out.path, "--json"])
            #expect(json.status == 0, "\(json.stderrText)")
            #expect(json.stdoutText.contains("{\"frame\": 1, \"x\": 0, \"y\": 0, "), "\(json.stdoutText)")
            let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
            let frames = try #require(object["frames"] as? [[String: Any]])
            #expect(frames.map { $0["frame"] as? Int } == [1, 2, 3])
        }
    }

    @Test("a GIF whose 3rd frame lies beyond any canvas: info and encode exit 65 naming frame 3")
    func gifThirdFrame() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let good = dir.appendingPathComponent("good.gif")
            try Data(Self.gif(frames: 3, farFrame: 0)).write(to: good)
            #expect(
                try Throbber.run(["info", good.path]).status == 0, "the hand-built GIF is valid without the far frame")
            let bad = dir.appendingPathComponent("bad.gif")
            try Data(Self.gif(frames: 3, farFrame: 3)).write(to: bad)
            expectFailure(
                try Throbber.run(["info", bad.path]), status: 65,
                names: ["bad.gif: frame 3 at 65000,0 reaches beyond the largest GIF canvas"])
            let out = dir.appendingPathComponent("out.png")
            expectFailure(
                try Throbber.run(["encode", bad.path, "-o", out.path]), status: 65,
                names: ["bad.gif: frame 3 at 65000,0"])
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test("an APNG whose 3rd fcTL places the frame outside the canvas: exit 65 naming frame 3")
    func apngThirdFrame() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let bad = dir.appendingPathComponent("bad.png")
            // Pillow writes three 8x6 frames; the third fcTL's x offset becomes 8 (the canvas width), CRC redone.
            try Self.python(
                """
                import struct, sys, zlib
                from PIL import Image
                frames = [Image.new("RGBA", (8, 6), c) for c in ((255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255))]
                frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=100, loop=0)
                data = bytearray(open(sys.argv[1], "rb").read())
                pos, seen = 8, 0
                while pos < len(data):
                    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
                    if kind == b"fcTL":
                        seen += 1
                        if seen == 3:
                            body = data[pos + 8:pos + 8 + length]
                            body[12:16] = struct.pack(">I", 8)
                            data[pos + 8:pos + 8 + length] = body
                            data[pos + 8 + length:pos + 12 + length] = struct.pack(">I", zlib.crc32(b"fcTL" + body))
                    pos += 12 + length
                assert seen == 3, seen
                open(sys.argv[1], "wb").write(data)
                """, [bad.path])
            expectFailure(
                try Throbber.run(["info", bad.path]), status: 65,
                names: ["bad.png: not a valid APNG: frame 3 region ", "+8+0 is outside the 8x6 canvas"])
        }
    }

    @Test(
        "frames of an animated input are named by their 1-based number in the file: --frames 1,4 of a still and a 3-frame GIF names the GIF's frame 3"
    )
    func fileFrameNames() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let small = dir.appendingPathComponent("small.png")
            let anim = dir.appendingPathComponent("anim.gif")
            try Self.python(
                """
                import sys
                from PIL import Image
                Image.new("RGBA", (8, 8), (255, 0, 0, 255)).save(sys.argv[1])
                frames = [Image.new("RGB", (12, 10), c) for c in ((0, 0, 255), (0, 255, 0), (255, 255, 0))]
                frames[0].save(sys.argv[2], save_all=True, append_images=frames[1:], duration=100, loop=0)
                """, [small.path, anim.path])
            let out = dir.appendingPathComponent("out.gif")
            // Frame 4 of the run is the GIF's third frame.
            expectFailure(
                try Throbber.run(["encode", small.path, anim.path, "--frames", "1,4", "-o", out.path]), status: 65,
                names: ["anim.gif frame 3: frame is 12x10, but ", "small.png is 8x8"])
            expectFailure(
                try Throbber.run(["encode", small.path, anim.path, "-o", out.path]), status: 65,
                names: ["anim.gif frame 1: frame is 12x10"])
        }
    }
}
