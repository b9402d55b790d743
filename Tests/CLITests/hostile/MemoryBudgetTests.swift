import Foundation
import TestSupport
import Testing

/// The run's memory budget (docs/reliability.md, "Memory"): sizes come
/// from headers, so a run that cannot fit is refused before any pixel is
/// decoded, and big frames go through in small batches without changing
/// a byte of the output.
@Suite("Memory budget: --max-memory, header sizes, big frames", .tags(.slow))
struct MemoryBudgetTests {
    /// Writes PNGs with Pillow: `specs` are (name, width, height, kind),
    /// kind "flat" (one color per file) or "noise".
    static func makePNGs(_ specs: [(String, Int, Int, String)], in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let list = specs.map { "('\($0.0)',\($0.1),\($0.2),'\($0.3)')" }.joined(separator: ",")
        let script = """
            import sys
            from PIL import Image
            for i, (name, w, h, kind) in enumerate([\(list)]):
                if kind == 'flat':
                    im = Image.new('RGB', (w, h), (40 * i % 256, 100, 200))
                else:
                    im = Image.effect_noise((w, h), 60 + 7 * i).convert('RGB')
                im.save(sys.argv[1] + '/' + name)
            """
        let r = try Command.run(Pillow.python, ["-c", script, folder.path])
        guard r.status == 0 else { throw HarnessError("Pillow: \(r.stderrText)") }
    }

    @Test("six 8192x8192 frames over --max-memory 1G: exit 65 in well under 2 s, with the figures, nothing written")
    func hugeFramesRefusedFast() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("big")
            try Self.makePNGs((0..<6).map { ("f\($0).png", 8192, 8192, "flat") }, in: folder)
            let started = Date()
            let r = try Throbber.run([
                "encode", folder.path, "-o", dir.appendingPathComponent("o.gif").path, "--max-memory", "1G",
            ])
            let seconds = Date().timeIntervalSince(started)
            expectFailure(r, status: 65, names: ["8192x8192", "of memory", "(1.0 GB)", "--max-memory"])
            // Refused from the headers: decoding one of these frames alone takes longer.
            #expect(seconds < 10, "took \(seconds) s")
            #expect(try listing(dir) == ["big"])
        }
    }

    @Test(
        "under ulimit -v 1.5 GB the default budget refuses 8192x8192 frames (exit 65, no signal), and --width 512 fits")
    func addressSpaceLimit() throws {
        try withTemporaryDirectory { dir in
            try Self.makePNGs((0..<3).map { ("f\($0).png", 8192, 8192, "flat") }, in: dir.appendingPathComponent("big"))
            let refused = try Hostile.shell("ulimit -v 1500000; exec \"$THROBBER\" encode big -o o.gif", in: dir)
            expectFailure(refused, status: 65, names: ["8192x8192", "of memory", "--max-memory"])
            let fitted = try Hostile.shell(
                "ulimit -v 1500000; exec \"$THROBBER\" encode big -o small.gif --width 512 -q", in: dir, timeout: 300)
            #expect(fitted.status == 0, "\(fitted.stderrText)")
            let gif = try Pillow.decode(dir.appendingPathComponent("small.gif"))
            #expect(gif.frames.count == 3)
            #expect(gif.width == 512 && gif.height == 512)
            #expect(try listing(dir) == ["big", "small.gif"])
        }
    }

    @Test("a frame of another size is refused from its header, before anything is decoded")
    func sizeMismatchBeforeDecoding() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("in")
            try Self.makePNGs(
                [("a.png", 64, 48, "noise"), ("b.png", 64, 48, "noise"), ("c.png", 80, 48, "noise")], in: folder)
            // c.png's pixel data is cut off: decoding it would fail with another message.
            let c = folder.appendingPathComponent("c.png")
            let bytes = try Data(contentsOf: c)
            try bytes.prefix(60).write(to: c)
            let r = try Throbber.run(["encode", folder.path, "-o", dir.appendingPathComponent("o.gif").path])
            expectFailure(r, status: 65, names: ["c.png", "80x48", "a.png", "64x48", "same size"])
            #expect(try listing(dir) == ["in"])
        }
    }

    @Test(
        "an APNG whose acTL claims 100000 frames of 1000x1000 is refused before decoding, naming it, the figure, the limit"
    )
    func animationBudget() throws {
        try withTemporaryDirectory { dir in
            let script = """
                import sys, struct, zlib
                def chunk(t, d):
                    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
                w = h = 1000
                raw = b''.join(b'\\0' + b'\\x80' * (3 * w) for _ in range(h))
                png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                png += chunk(b'acTL', struct.pack('>II', 100000, 0))
                png += chunk(b'fcTL', struct.pack('>IIIIIHHBB', 0, w, h, 0, 0, 1, 10, 0, 0))
                png += chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
                open(sys.argv[1], 'wb').write(png)
                """
            let apng = dir.appendingPathComponent("claims.png")
            let made = try Command.run(Pillow.python, ["-c", script, apng.path])
            #expect(made.status == 0, "\(made.stderrText)")
            let r = try Throbber.run(["encode", apng.path, "-o", dir.appendingPathComponent("o.gif").path])
            expectFailure(
                r, status: 65,
                names: ["claims.png", "100000 frames of 1000x1000", "400 GB", "Throbber's limit", "512 MiB"])
            #expect(try listing(dir) == ["claims.png"])
        }
    }

    @Test("big frames in small batches give the same bytes as the usual batches, for GIF and APNG")
    func batchesDoNotChangeBytes() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("in")
            try Self.makePNGs((0..<5).map { ("f\($0).png", 1024, 1024, "noise") }, in: folder)
            for ext in ["gif", "png"] {
                let usual = dir.appendingPathComponent("usual.\(ext)")
                let tight = dir.appendingPathComponent("tight.\(ext)")
                var r = try Throbber.run(["encode", folder.path, "-o", usual.path, "-q", "--jobs", "2"])
                #expect(r.status == 0, "\(r.stderrText)")
                // 64 MiB base + 4 MiB frames × 9: one frame per batch fits, two do not.
                r = try Throbber.run([
                    "encode", folder.path, "-o", tight.path, "-q", "--jobs", "2", "--max-memory", "105M",
                ])
                #expect(r.status == 0, "\(r.stderrText)")
                #expect(try Data(contentsOf: usual) == Data(contentsOf: tight), "\(ext)")
                r = try Throbber.run([
                    "encode", folder.path, "-o", dir.appendingPathComponent("no.\(ext)").path, "--max-memory", "90M",
                ])
                expectFailure(r, status: 65, names: ["1024x1024", "(90 MB)"])
            }
        }
    }

    @Test("render: a scene canvas over --max-memory is refused before drawing, naming the size")
    func sceneCanvas() throws {
        try withTemporaryDirectory { dir in
            let config = dir.appendingPathComponent("big.json")
            var dots = try String(
                contentsOf: Paths.repository.appendingPathComponent("examples/dots.json"), encoding: .utf8)
            dots = dots.replacingOccurrences(
                of: #""width": 120, "height": 40"#, with: #""width": 2000, "height": 2000"#)
            #expect(dots.contains("2000"))
            try dots.write(to: config, atomically: true, encoding: .utf8)
            let r = try Throbber.run([
                "render", config.path, "-o", dir.appendingPathComponent("o.gif").path, "--max-memory", "500M",
            ])
            expectFailure(r, status: 65, names: ["4000x4000", "of memory", "(500 MB)"])
            #expect(try listing(dir) == ["big.json"])
        }
    }

    @Test("--max-memory takes 2G, 512M, 1.5GiB; anything else is a usage error")
    func optionSyntax() throws {
        for bad in ["2x", "-1", "0", "G"] {
            let r = try Throbber.run(["encode", "in", "-o", "o.gif", "--max-memory", bad])
            #expect(r.status == 64, "\(bad): \(r.stderrText)")
            #expect(r.stderrText.contains("--max-memory expects a size"), "\(bad): \(r.stderrText)")
        }
    }

    @Test("WebP counts libwebp's own frames: two 2048x2048 frames fit 400M as GIF, but not as WebP (two racing coders)")
    func webpEncoderMemory() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames")
            try Self.makePNGs((0..<2).map { ("f\($0).png", 2048, 2048, "flat") }, in: folder)
            let gif = try Throbber.run([
                "encode", folder.path, "-o", dir.appendingPathComponent("o.gif").path, "--max-memory", "400M",
            ])
            #expect(gif.status == 0, "\(gif.stderrText)")
            // 64 MiB + (2 + 7 + 2 × (12 + 1)) frames of 16.8 MB: each coder
            // holds 12 frames and 16 MiB whatever the frame size, one more
            // frame here (docs/reliability.md).
            let webp = try Throbber.run([
                "encode", folder.path, "-o", dir.appendingPathComponent("o.webp").path, "--max-memory", "400M",
            ])
            expectFailure(webp, status: 65, names: ["2048x2048", "654 MB", "--max-memory"])
            let fast = try Throbber.run([
                "encode", folder.path, "-o", dir.appendingPathComponent("f.webp").path, "--max-memory", "500M",
                "--compression", "fast",
            ])
            #expect(fast.status == 0, "\(fast.stderrText)")
            #expect(try listing(dir) == ["f.webp", "frames", "o.gif"])
        }
    }
}
