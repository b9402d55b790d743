import Foundation
import TestSupport
import Testing

/// Lottie files whose work multiplies (nested repeaters, precompositions
/// shown by precompositions), whose images are bombs or lie outside the
/// file's folder, or whose header numbers are out of any range: each is
/// refused before rlottie reads it, naming the file and the JSON path, in
/// little memory (docs/reliability.md, "Lottie files").
@Suite("Hostile Lottie files: work bombs, image bombs, external images, huge headers", .tags(.slow))
struct LottieWorkTests {
    static let transform =
        #"{"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}"#
    static let layerTransform =
        #""ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}}"#

    /// A 64×64, 10-frame Lottie document with `layers` and `assets` (JSON text).
    static func document(layers: String, assets: String = "[]", w: String = "64", h: String = "64") -> String {
        #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": \#(w), "h": \#(h), "assets": \#(assets), "layers": \#(layers)}"#
    }

    /// One shape layer: a 4×4 red square inside `levels` nested groups, each
    /// followed by a repeater of `copies`.
    static func nestedRepeaters(levels: Int, copies: Int) -> String {
        var items =
            #"[{"ty": "rc", "p": {"a": 0, "k": [8, 8]}, "s": {"a": 0, "k": [4, 4]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}, \#(transform)]"#
        for _ in 0..<levels {
            let repeater =
                #"{"ty": "rp", "c": {"a": 0, "k": \#(copies)}, "o": {"a": 0, "k": 0}, "m": 1, "tr": {"ty": "tr", "p": {"a": 0, "k": [1, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}}"#
            items = #"[{"ty": "gr", "it": \#(items)}, \#(repeater), \#(transform)]"#
        }
        return document(
            layers: #"[{"ty": 4, "ind": 1, "ip": 0, "op": 10, "st": 0, \#(layerTransform), "shapes": \#(items)}]"#)
    }

    /// A precomposition layer showing asset `ref`.
    static func precompLayer(_ ref: String, _ index: Int) -> String {
        #"{"ty": 0, "ind": \#(index + 1), "refId": "\#(ref)", "ip": 0, "op": 10, "st": 0, "w": 64, "h": 64, \#(layerTransform)}"#
    }

    /// `depth` levels of precompositions, each showing the one below `fanOut` times.
    static func nestedPrecomps(depth: Int, fanOut: Int, height: Int = 64) -> String {
        var assets = [
            #"{"id": "c0", "layers": [{"ty": 4, "ind": 1, "ip": 0, "op": 10, "st": 0, \#(layerTransform), "shapes": [{"ty": "rc", "p": {"a": 0, "k": [8, 8]}, "s": {"a": 0, "k": [4, 4]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]}]}"#
        ]
        for d in 1...depth {
            let layers = (0..<fanOut).map { precompLayer("c\(d - 1)", $0) }.joined(separator: ", ")
            assets.append(#"{"id": "c\#(d)", "layers": [\#(layers)]}"#)
        }
        return document(
            layers: "[\(precompLayer("c\(depth)", 0))]", assets: "[\(assets.joined(separator: ", "))]", h: "\(height)")
    }

    /// An image layer showing asset "i", whose `u` and `p` are given.
    static func imageDocument(u: String, p: String, e: Int) -> String {
        document(
            layers: #"[{"ty": 2, "ind": 1, "refId": "i", "ip": 0, "op": 10, "st": 0, \#(layerTransform)}]"#,
            assets: #"[{"id": "i", "w": 8, "h": 8, "u": "\#(u)", "p": "\#(p)", "e": \#(e)}]"#)
    }

    /// A PNG of `width`×`height` opaque pixels of one color, made with
    /// Pillow; with `headerOnly`, only its signature and IHDR (a header
    /// that claims the size, no pixels).
    static func png(_ width: Int, _ height: Int, headerOnly: Bool = false) throws -> Data {
        let script = """
            import io, struct, sys, zlib
            from PIL import Image
            w, h, header = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == '1'
            if header:
                body = struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)
                chunk = struct.pack('>I', 13) + b'IHDR' + body + struct.pack('>I', zlib.crc32(b'IHDR' + body))
                sys.stdout.buffer.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk)
            else:
                out = io.BytesIO()
                Image.new('RGBA', (w, h), (0, 128, 255, 255)).save(out, 'PNG')
                sys.stdout.buffer.write(out.getvalue())
            """
        let r = try Command.run(Pillow.python, ["-c", script, "\(width)", "\(height)", headerOnly ? "1" : "0"])
        guard r.status == 0 else { throw HarnessError("Pillow: \(r.stderrText)") }
        return r.stdout
    }

    static func write(_ text: String, _ url: URL) throws { try text.write(to: url, atomically: true, encoding: .utf8) }

    @Test("nested repeaters (3 × 1000 copies) and precompositions (8 levels × 10): exit 65 at once in little memory")
    func workBombs() throws {
        try withTemporaryDirectory { dir in
            let repeaters = dir.appendingPathComponent("repeaters.json")
            try Self.write(Self.nestedRepeaters(levels: 3, copies: 1000), repeaters)
            var m = try APNGCLITests.measured([
                "encode", repeaters.path, "-o", dir.appendingPathComponent("r.gif").path,
            ])
            // The middle repeater is where 1000 × 1000 copies pass the limit.
            expectFailure(
                m.result, status: 65, names: ["repeaters.json", "layers[0].shapes[0].it[1]", "at most 400000"])
            #expect(m.seconds < 5 && m.kilobytes < 100_000, "\(m.seconds) s, \(m.kilobytes) KB")

            let precomps = dir.appendingPathComponent("precomps.json")
            try Self.write(Self.nestedPrecomps(depth: 8, fanOut: 10), precomps)
            m = try APNGCLITests.measured(["encode", precomps.path, "-o", dir.appendingPathComponent("p.gif").path])
            expectFailure(m.result, status: 65, names: ["precomps.json", "assets[", "precompositions multiply"])
            #expect(m.seconds < 5 && m.kilobytes < 100_000, "\(m.seconds) s, \(m.kilobytes) KB")

            // Two levels of 10 copies, and 3 levels of 3 precompositions, draw.
            try Self.write(Self.nestedRepeaters(levels: 2, copies: 10), repeaters)
            var r = try Throbber.run(["encode", repeaters.path, "-o", dir.appendingPathComponent("r.gif").path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            try Self.write(Self.nestedPrecomps(depth: 3, fanOut: 3), precomps)
            r = try Throbber.run(["encode", precomps.path, "-o", dir.appendingPathComponent("p.gif").path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            let red = try Pillow.decode(dir.appendingPathComponent("p.gif"))
            #expect(red.width == 64 && red.frames.count == 1)
            #expect(try listing(dir) == ["p.gif", "precomps.json", "r.gif", "repeaters.json"])
        }
    }

    @Test("a precomposition that shows itself (a → b → a): exit 65 naming the asset")
    func precompCycle() throws {
        try withTemporaryDirectory { dir in
            let cycle = dir.appendingPathComponent("cycle.json")
            try Self.write(
                Self.document(
                    layers: "[\(Self.precompLayer("a", 0))]",
                    assets:
                        #"[{"id": "a", "layers": [\#(Self.precompLayer("b", 0))]}, {"id": "b", "layers": [\#(Self.precompLayer("a", 0))]}]"#
                ), cycle)
            let r = try Throbber.run(["encode", cycle.path, "-o", dir.appendingPathComponent("c.gif").path])
            expectFailure(r, status: 65, names: ["cycle.json", "assets[0]", "\"a\" shows itself"])
            #expect(try listing(dir) == ["cycle.json"])
        }
    }

    @Test("a file within each limit but not within --max-memory: refused before rlottie builds it, in the budget")
    func workWithinMemoryBudget() throws {
        try withTemporaryDirectory { dir in
            // 2 levels of 300 copies: 360,000 items, about 115 MB an rlottie object.
            let file = dir.appendingPathComponent("many.json")
            try Self.write(Self.nestedRepeaters(levels: 2, copies: 300), file)
            let m = try APNGCLITests.measured([
                "encode", file.path, "-o", dir.appendingPathComponent("m.gif").path, "--max-memory", "100M",
            ])
            expectFailure(
                m.result, status: 65, names: ["many.json", "rlottie needs about", "(100 MB)", "--max-memory"])
            #expect(m.kilobytes < 100_000, "\(m.kilobytes) KB")
            #expect(try listing(dir) == ["many.json"])
        }
    }

    @Test("an embedded image whose header claims 16000x16000: exit 65 naming assets[0].p, nothing decoded")
    func embeddedImageBomb() throws {
        try withTemporaryDirectory { dir in
            let bomb = try Self.png(16000, 16000, headerOnly: true).base64EncodedString()
            let file = dir.appendingPathComponent("bomb.json")
            try Self.write(Self.imageDocument(u: "", p: "data:image/png;base64,\(bomb)", e: 1), file)
            let m = try APNGCLITests.measured([
                "encode", file.path, "-o", dir.appendingPathComponent("b.gif").path, "--max-memory", "200M",
            ])
            expectFailure(m.result, status: 65, names: ["bomb.json", "assets[0].p", "16000x16000", "larger than"])
            #expect(m.seconds < 5 && m.kilobytes < 100_000, "\(m.seconds) s, \(m.kilobytes) KB")

            // A real 4000×4000 image decodes to 64 MB: over a 50 MB budget.
            let big = try Self.png(4000, 4000).base64EncodedString()
            try Self.write(Self.imageDocument(u: "", p: "data:image/png;base64,\(big)", e: 1), file)
            let b = try APNGCLITests.measured([
                "encode", file.path, "-o", dir.appendingPathComponent("b.gif").path, "--max-memory", "50M",
            ])
            expectFailure(b.result, status: 65, names: ["bomb.json", "rlottie needs about 128 MB", "(50 MB)"])
            #expect(b.kilobytes < 50_000, "\(b.kilobytes) KB")
            #expect(try listing(dir) == ["bomb.json"])
        }
    }

    @Test(
        "image assets by path: drawn from the file's own folder; a path out of it, a missing file or a .tgs's are refused"
    )
    func externalImages() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("anim")
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
            try Self.png(8, 8).write(to: folder.appendingPathComponent("images/img.png"))
            try Self.png(8, 8).write(to: dir.appendingPathComponent("secret.png"))
            // rlottie looks for files relative to the working directory, under " ".
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(" "), withIntermediateDirectories: true)

            let inside = folder.appendingPathComponent("inside.json")
            try Self.write(Self.imageDocument(u: "images/", p: "img.png", e: 0), inside)
            var r = try Throbber.run(["encode", "inside.json", "-o", "inside.png", "-q"], in: folder)
            #expect(r.status == 0, "\(r.stderrText)")
            let pixel = try Command.run(
                Pillow.python,
                [
                    "-c",
                    "import sys; from PIL import Image; print(Image.open(sys.argv[1]).convert('RGBA').getpixel((3, 3)))",
                    folder.appendingPathComponent("inside.png").path,
                ])
            // rlottie draws the image with its edge filter: the color exact, alpha 253–255.
            #expect(pixel.stdoutText.hasPrefix("(0, 128, 255, 25"), "\(pixel.stdoutText)")

            for (name, u, p, why) in [
                ("escape.json", "/../../../../\(dir.path)/", "secret.png", "leads outside the Lottie file's folder"),
                ("dotdot.json", "images/", "../../secret.png", "leads outside the Lottie file's folder"),
                ("missing.json", "images/", "none.png", "no such file"),
            ] {
                try Self.write(Self.imageDocument(u: u, p: p, e: 0), folder.appendingPathComponent(name))
                r = try Throbber.run(["encode", name, "-o", "out.gif"], in: folder)
                expectFailure(r, status: 65, names: [name, "assets[0].p", why])
            }
            // A sticker has no folder: its images must be embedded.
            let tgs = try Command.run(
                Pillow.python,
                [
                    "-c", "import gzip, sys; sys.stdout.buffer.write(gzip.compress(open(sys.argv[1], 'rb').read()))",
                    inside.path,
                ])
            try tgs.stdout.write(to: folder.appendingPathComponent("s.tgs"))
            r = try Throbber.run(["encode", "s.tgs", "-o", "out.gif"], in: folder)
            expectFailure(r, status: 65, names: ["s.tgs", "assets[0].p", "not embedded"])
            #expect(try !listing(folder).contains("out.gif"))
        }
    }

    @Test(
        "huge or fractional w and h (1e19, 1e308, 2^63, 100.5): exit 65 naming the key and the value as written",
        arguments: [
            ("1e19", "larger than"), ("1e308", "larger than"), ("9223372036854775808", "larger than"),
            ("100.5", "whole number"), ("-1e19", "whole number"),
        ])
    func hugeSizes(_ w: String, _ why: String) throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("big.json")
            try Self.write(Self.document(layers: "[]", w: w), file)
            var r = try Throbber.run(["encode", file.path, "-o", dir.appendingPathComponent("o.gif").path])
            expectFailure(r, status: 65, names: ["big.json", "w: ", w, why])
            // The same file as a config's Lottie layer.
            let config = dir.appendingPathComponent("scene.json")
            try Self.write(
                #"{"version": 1, "canvas": {"width": 64, "height": 64}, "layers": [{"lottie": "big.json"}]}"#, config)
            r = try Throbber.run(["render", config.path, "-o", dir.appendingPathComponent("o.gif").path])
            expectFailure(r, status: 65, names: ["scene.json", "layers[0]", "big.json", w])
            #expect(try listing(dir) == ["big.json", "scene.json"])
        }
    }

    @Test("a .tgs of several gzip members reads as one file, as gzip -d reads it", .needsFixtures)
    func multiMemberSticker() throws {
        try withTemporaryDirectory { dir in
            let source = Fixtures.root.appendingPathComponent("lottie-android/simple_loader.json")
            let script = """
                import gzip, sys
                d = open(sys.argv[1], 'rb').read()
                open(sys.argv[2], 'wb').write(gzip.compress(d[:1000], mtime=0) + gzip.compress(d[1000:], mtime=0))
                open(sys.argv[3], 'wb').write(gzip.compress(d, mtime=0))
                """
            let made = try Command.run(
                Pillow.python, ["-c", script, source.path, "multi.tgs", "one.tgs"], workingDirectory: dir)
            #expect(made.status == 0, "\(made.stderrText)")
            for name in ["multi", "one"] {
                let r = try Throbber.run(["encode", "\(name).tgs", "-o", "\(name).gif", "-q"], in: dir)
                #expect(r.status == 0, "\(name): \(r.stderrText)")
            }
            let multi = try Data(contentsOf: dir.appendingPathComponent("multi.gif"))
            #expect(multi == (try Data(contentsOf: dir.appendingPathComponent("one.gif"))))
        }
    }

    @Test("a FIFO as a config's Lottie or image layer is refused at once, not waited on")
    func fifoLayer() throws {
        try withTemporaryDirectory { dir in
            try Hostile.mkfifo(dir.appendingPathComponent("pipe.json"))
            for layer in [#"{"lottie": "pipe.json"}"#, #"{"image": "pipe.json"}"#] {
                try Self.write(
                    #"{"version": 1, "canvas": {"width": 64, "height": 64}, "layers": [\#(layer)]}"#,
                    dir.appendingPathComponent("scene.json"))
                let started = Date()
                let r = try Hostile.shell("exec \"$THROBBER\" render scene.json -o o.gif", in: dir, timeout: 30)
                expectFailure(r, status: 66, names: ["scene.json", "layers[0]", "pipe.json", "not a regular file"])
                #expect(Date().timeIntervalSince(started) < 10)
            }
            #expect(try listing(dir) == ["pipe.json", "scene.json"])
        }
    }

    @Test(
        "check with a work-bomb entry: that entry fails, the others run, the JUnit report is written, nothing is left")
    func bombInsideCheck() throws {
        try withTemporaryDirectory { dir in
            let scratch = dir.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let project = dir.appendingPathComponent("project")
            try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
            try Self.write(Self.nestedRepeaters(levels: 3, copies: 1000), project.appendingPathComponent("bomb.json"))
            try Self.write(
                #"{"entries": [{"encode": ["bomb.json"], "output": "bomb.gif"}, {"preset": "dots", "output": "dots.gif"}]}"#,
                project.appendingPathComponent("m.json"))
            let r = try Throbber.run(
                ["check", "m.json", "--update", "--junit", "report.xml"], environment: ["TMPDIR": scratch.path],
                in: project)
            #expect(r.status == 1, "\(r.stderrText)")
            #expect(r.stdoutText.contains("FAILED  bomb.gif") && r.stdoutText.contains("at most 400000"))
            #expect(r.stdoutText.contains("1 passed, 1 failed"), "\(r.stdoutText)")
            let report = try String(contentsOf: project.appendingPathComponent("report.xml"), encoding: .utf8)
            #expect(report.contains("bomb.gif") && report.contains("<failure"))
            #expect(try listing(scratch).isEmpty)
        }
    }

    @Test("--fps over a slow file's long loop (fr 0.001: 10^7 s) is refused, not resampled into 5·10^8 frames")
    func resampledFrameCount() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("slow.json")
            try Self.write(#"{"v": "5.7.0", "fr": 0.001, "ip": 0, "op": 10000, "w": 8, "h": 8, "layers": []}"#, file)
            let m = try APNGCLITests.measured([
                "encode", file.path, "-o", dir.appendingPathComponent("s.gif").path, "--fps", "50",
            ])
            expectFailure(m.result, status: 65, names: ["slow.json", "50 fps", "10000 frames"])
            #expect(m.seconds < 5 && m.kilobytes < 100_000, "\(m.seconds) s, \(m.kilobytes) KB")
            #expect(try listing(dir) == ["slow.json"])
        }
    }

    @Test("a config's Lottie layer counts the layers and shapes it draws in the config's items a frame")
    func lottieLayerItems() throws {
        try withTemporaryDirectory { dir in
            // About 430 items a frame: 300 copies pass the config's 100,000, 100 do not.
            try Self.write(Self.nestedRepeaters(levels: 2, copies: 10), dir.appendingPathComponent("l.json"))
            for (copies, fails) in [(300, true), (100, false)] {
                try Self.write(
                    #"{"version": 1, "canvas": {"width": 64, "height": 64}, "layers": [{"lottie": "l.json", "repeat": {"count": \#(copies)}}]}"#,
                    dir.appendingPathComponent("scene.json"))
                let r = try Throbber.run(["render", "scene.json", "-o", "o.gif", "-q"], in: dir)
                if fails {
                    expectFailure(r, status: 65, names: ["scene.json", "layers[0].repeat.count", "more than 100000"])
                } else {
                    #expect(r.status == 0, "\(r.stderrText)")
                }
            }
        }
    }

    @Test("6,859 layers on a 2000-row canvas (3 levels of 19 precompositions): refused, as rlottie's row clips cost")
    func tallLayers() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("tall.json")
            try Self.write(Self.nestedPrecomps(depth: 3, fanOut: 19, height: 2000), file)
            let m = try APNGCLITests.measured(["encode", file.path, "-o", dir.appendingPathComponent("t.gif").path])
            expectFailure(m.result, status: 65, names: ["tall.json", "at most 400000"])
            #expect(m.seconds < 5 && m.kilobytes < 100_000, "\(m.seconds) s, \(m.kilobytes) KB")
            // The same layers on a 64-row canvas draw.
            try Self.write(Self.nestedPrecomps(depth: 3, fanOut: 19), file)
            let r = try Throbber.run(["encode", file.path, "-o", dir.appendingPathComponent("t.gif").path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
        }
    }

    @Test("40,000 items a frame over 200 frames (8·10^6 drawings) is refused; over 100 frames it draws")
    func drawingsOverTheLoop() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("long.json")
            for (frames, fails) in [(200, true), (100, false)] {
                let text = Self.nestedRepeaters(levels: 2, copies: 100).replacing(
                    #""op": 10"#, with: #""op": \#(frames)"#)
                try Self.write(text, file)
                let r = try Throbber.run(["encode", file.path, "-o", dir.appendingPathComponent("l.gif").path, "-q"])
                if fails {
                    expectFailure(r, status: 65, names: ["long.json", "over 200 frames", "at most 5000000"])
                } else {
                    #expect(r.status == 0, "\(r.stderrText)")
                }
            }
        }
    }
}
