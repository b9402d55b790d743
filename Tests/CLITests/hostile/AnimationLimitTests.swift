import Foundation
import TestSupport
import Testing

/// Animations over Throbber's limits or the memory budget
/// (docs/reliability.md, "Memory"): the estimate counts only the frames
/// `--frames` keeps of a WebP, a valid file over a limit is never called
/// invalid or damaged, and a canvas over the decoding limits gets one
/// message whatever its size.
@Suite("Animated inputs: frame selection in the estimate, limit messages", .tags(.slow))
struct AnimationLimitTests {
    /// Writes an animated WebP by hand: a VP8X canvas of `width` x
    /// `height` and `frames` ANMF frames, each a 64x64 lossless image
    /// (Pillow's), red and blue in turn, at the top left; Pillow reads it
    /// as `frames` frames.
    static func webp(_ url: URL, frames: Int, width: Int, height: Int) throws {
        let script = """
            import sys, struct, io
            from PIL import Image
            def vp8l(color):
                b = io.BytesIO()
                Image.new('RGBA', (64, 64), color).save(b, 'WEBP', lossless=True)
                still = b.getvalue()
                assert still[12:16] == b'VP8L'
                n = struct.unpack('<I', still[16:20])[0]
                return still[12:20 + n + (n & 1)]
            def chunk(t, d): return t + struct.pack('<I', len(d)) + d + (b'\\0' if len(d) & 1 else b'')
            def u24(v): return struct.pack('<I', v)[:3]
            frames, w, h = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            body = chunk(b'VP8X', bytes([2, 0, 0, 0]) + u24(w - 1) + u24(h - 1))
            body += chunk(b'ANIM', struct.pack('<IH', 0, 0))
            images = [vp8l((200, 0, 0, 255)), vp8l((0, 0, 200, 255))]
            anmf = [chunk(b'ANMF', u24(0) + u24(0) + u24(63) + u24(63) + u24(40) + bytes([0]) + i) for i in images]
            body += b''.join(anmf[i % 2] for i in range(frames))
            open(sys.argv[1], 'wb').write(b'RIFF' + struct.pack('<I', 4 + len(body)) + b'WEBP' + body)
            """
        let made = try Command.run(
            Pillow.python, ["-c", script, url.path, "\(frames)", "\(width)", "\(height)"])
        guard made.status == 0 else { throw HarnessError("Pillow: \(made.stderrText)") }
    }

    /// How many frames Pillow reads in `url`, and its size.
    static func pillowFrames(_ url: URL) throws -> String {
        let r = try Command.run(
            Pillow.python,
            [
                "-c", "import sys; from PIL import Image; im = Image.open(sys.argv[1]); print(im.n_frames, im.size)",
                url.path,
            ])
        return r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a valid 1000-frame 1024x1024 WebP: --frames 1-2 --width 16 keeps two frames; more is refused honestly")
    func webpSelection() throws {
        try withTemporaryDirectory { dir in
            let input = dir.appendingPathComponent("k.webp")
            try Self.webp(input, frames: 1000, width: 1024, height: 1024)
            #expect(try Self.pillowFrames(input) == "1000 (1024, 1024)")
            let out = dir.appendingPathComponent("o.gif")
            // All 1000 frames decoded would be 4.2 GB.
            let m = try APNGCLITests.measured([
                "encode", input.path, "-o", out.path, "--width", "16", "--frames", "1-2", "-q",
            ])
            #expect(m.result.status == 0, "\(m.result.stderrText)")
            #expect(m.kilobytes < 300 * 1024, "peak RSS \(m.kilobytes) KB")
            #expect(try Self.pillowFrames(out) == "2 (16, 16)")
            try FileManager.default.removeItem(at: out)

            // Over Throbber's limit for one animation: a valid file, and no
            // --max-memory makes it fit.
            for extra in [["--frames", "1-200"], ["--max-memory", "8G"]] {
                let r = try Throbber.run(["encode", input.path, "-o", out.path] + extra)
                expectFailure(r, status: 65, names: [input.path, "of 1024x1024", "Throbber's limit", "512 MiB"])
                #expect(!r.stderrText.contains("valid WebP"), "\(r.stderrText)")
                #expect(!r.stderrText.contains("--max-memory"), "\(r.stderrText)")
            }
            let picked = try Throbber.run(["encode", input.path, "-o", out.path, "--frames", "1-200"])
            #expect(picked.stderrText.contains("200 of its 1000 frames"), "\(picked.stderrText)")
            // Under the limit, over the budget: the budget's message, for the frames kept.
            let budget = try Throbber.run([
                "encode", input.path, "-o", out.path, "--frames", "1-100", "--max-memory", "300M",
            ])
            expectFailure(
                budget, status: 65, names: [input.path, "100 of its 1000 frames of 1024x1024", "of memory", "(300 MB)"])
            #expect(try listing(dir) == ["k.webp"])
        }
    }

    @Test("--frames picks the same frames of a WebP kept in part, after a GIF, in any order")
    func webpSelectionPicksRightFrames() throws {
        try withTemporaryDirectory { dir in
            // A 3-frame GIF, then a 6-frame lossless WebP: frame n (across
            // both) is gray level 30 n.
            let script = """
                import sys
                from PIL import Image
                def frames(levels): return [Image.new('RGB', (16, 16), (v, v, v)) for v in levels]
                g = frames([0, 30, 60])
                g[0].save(sys.argv[1] + '/a.gif', save_all=True, append_images=g[1:], duration=40)
                w = frames([90, 120, 150, 180, 210, 240])
                w[0].save(sys.argv[1] + '/b.webp', save_all=True, append_images=w[1:], duration=40, lossless=True)
                """
            let made = try Command.run(Pillow.python, ["-c", script, dir.path])
            try #require(made.status == 0, "Pillow: \(made.stderrText)")
            let out = dir.appendingPathComponent("o.png")
            let r = try Throbber.run([
                "encode", dir.appendingPathComponent("a.gif").path, dir.appendingPathComponent("b.webp").path,
                "-o", out.path, "--frames", "9,2,5-6", "--reverse", "-q",
            ])
            #expect(r.status == 0, "\(r.stderrText)")
            let read = try Command.run(
                Pillow.python,
                [
                    "-c",
                    "import sys; from PIL import Image, ImageSequence; im = Image.open(sys.argv[1]); print(' '.join(str(f.convert('RGB').getpixel((8, 8))[0]) for f in ImageSequence.Iterator(im)))",
                    out.path,
                ])
            // 9,2,5-6 reversed: frames 6, 5, 2, 9.
            #expect(read.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "150 120 30 240")
        }
    }

    @Test("info reads a valid 100000-frame WebP (no frame is decoded; the trim box is said to be not measured)")
    func infoManyFrames() throws {
        try withTemporaryDirectory { dir in
            let input = dir.appendingPathComponent("many.webp")
            try Self.webp(input, frames: 100_000, width: 64, height: 64)
            let r = try Throbber.run(["info", input.path])
            #expect(r.status == 0, "\(r.stderrText)")
            #expect(r.stdoutText.hasPrefix("\(input.path): WebP 64x64, lossless, 100000 frames"), "\(r.stdoutText)")
            // The trim box needs every frame decoded, over the limits: not measured, said so.
            #expect(r.stdoutText.hasSuffix("trim box not measured: the frames are over Throbber's decoding limits\n"))
            let json = try Throbber.run(["info", input.path, "--json"])
            #expect(json.status == 0, "\(json.stderrText)")
            #expect(
                json.stdoutText.contains(#""trim_box": null, "draws_nothing": null"#), "\(json.stdoutText.prefix(400))")
        }
    }

    @Test(
        "a canvas over the decoding limits gets one message, however large, for encode and info",
        arguments: [16384, 16_777_216])
    func canvasOverLimits(side: Int) throws {
        try withTemporaryDirectory { dir in
            let input = dir.appendingPathComponent("big.webp")
            try Self.webp(input, frames: 2, width: side, height: side)
            for args in [
                ["encode", input.path, "-o", dir.appendingPathComponent("o.gif").path], ["info", input.path],
            ] {
                let r = try Throbber.run(args)
                expectFailure(
                    r, status: 65,
                    names: [
                        input.path, "\(side)x\(side)", "larger than Throbber decodes", "at most 16384 pixels a side",
                    ])
                #expect(!r.stderrText.contains("--max-memory"), "\(r.stderrText)")
            }
            #expect(try listing(dir) == ["big.webp"])
        }
    }
}
