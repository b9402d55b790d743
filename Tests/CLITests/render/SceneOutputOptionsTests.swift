import Foundation
import TestSupport
import Testing

/// `render` and `preset` take encode's output options (size and quality,
/// alpha, transforms, timing) over the config's own values; the files are
/// read back with Pillow.
@Suite("Output options of render and preset", .tags(.slow))
struct SceneOutputOptionsTests {
    /// What Pillow reads from a GIF: size, loop, per-frame durations, and
    /// per frame the RGBA pixel at each of `points` plus a hash of the frame.
    struct Decoded: Decodable {
        var size: [Int]
        var loop: Int?
        var durations: [Int]
        var hashes: [String]
        /// Per frame, the RGBA of each point asked for.
        var points: [[[Int]]]
        /// Every opaque pixel of every frame that is not within 8 levels of
        /// the loader color asked for (the soft edges), as RGB.
        var edges: [[Int]]
    }

    static let decoder = """
        import sys, json, hashlib
        from PIL import Image
        path, points, color = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
        im = Image.open(path)
        out = {"size": list(im.size), "loop": im.info.get("loop"), "durations": [], "hashes": [], "points": [],
               "edges": []}
        for i in range(getattr(im, "n_frames", 1)):
            im.seek(i)
            out["durations"].append(im.info.get("duration", 0))
            rgba = im.convert("RGBA")
            out["hashes"].append(hashlib.sha256(rgba.tobytes()).hexdigest())
            out["points"].append([list(rgba.getpixel(tuple(p))) for p in points])
            if color:
                for p in rgba.getdata():
                    if p[3] == 255 and max(abs(p[k] - color[k]) for k in range(3)) > 8:
                        out["edges"].append(list(p[:3]))
        print(json.dumps(out))
        """

    static func decode(_ file: URL, points: [[Int]] = [], color: [Int]? = nil) throws -> Decoded {
        let args = [
            "-c", decoder, file.path, String(decoding: try JSONEncoder().encode(points), as: UTF8.self),
            color.map { "\($0)" } ?? "null",
        ]
        let r = try Command.run(Pillow.python, args)
        guard r.status == 0 else { throw HarnessError("Pillow could not read \(file.path): \(r.stderrText)") }
        return try JSONDecoder().decode(Decoded.self, from: r.stdout)
    }

    /// Runs throbber and expects success.
    @discardableResult
    static func make(_ args: [String]) throws -> CommandResult {
        let r = try Throbber.run(args + ["-q"])
        #expect(r.status == 0, "throbber \(args.joined(separator: " ")): \(r.stderrText)")
        return r
    }

    static func bytes(_ file: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    }

    /// A scene of 10 frames (1 s at 10 fps, 80x40 pixels): a blue disc that
    /// moves right and back, and an orange arc that turns; their soft edges
    /// need more than a small palette.
    static let scene = """
        {"version": 1, "canvas": {"width": 40, "height": 20, "scale": 2}, "timing": {"fps": 10},
         "layers": [
           {"circle": {"radius": 8}, "fill": "#0a84ff", "center": [10, 10],
            "animate": [{"kind": "keyframes", "property": "translateX", "period": 1,
                         "keys": [{"at": 0, "value": 0}, {"at": 0.5, "value": 20}]}]},
           {"arc": {"radius": 7, "end": 300, "width": 3}, "stroke": "#ff6a00", "center": [30, 10],
            "animate": [{"kind": "keyframes", "property": "rotate", "period": 1,
                         "keys": [{"at": 0, "value": 0}, {"at": 0.9, "value": 324}]}]}]}
        """

    /// The scene's blue disc alone, still.
    static let disc = """
        {"version": 1, "canvas": {"width": 40, "height": 20, "scale": 2}, "timing": {"fps": 10},
         "layers": [{"circle": {"radius": 8}, "fill": "#0a84ff", "center": [10, 10]}]}
        """

    static func writeScene(in dir: URL, _ json: String = scene) throws -> URL {
        let file = dir.appendingPathComponent("scene.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// A failure with `status` whose first line of standard error contains `text`.
    static func expectError(
        _ r: CommandResult, status: Int32, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(r.status == status, "exit status; stderr: \(r.stderrText)", sourceLocation: sourceLocation)
        let line = r.stderrLines.first ?? ""
        #expect(line.hasPrefix("throbber: error: ") && line.contains(text), "\(line)", sourceLocation: sourceLocation)
    }

    // MARK: size and quality

    @Test(
        "--quality 60, --colors 16 and --lossy 80 each make a smaller GIF than without; --max-bytes fits",
        arguments: ["render", "preset"])
    func smaller(_ command: String) throws {
        try withTemporaryDirectory { dir in
            let input = command == "render" ? try Self.writeScene(in: dir).path : "spinner"
            let base = [command, input] + (command == "preset" ? ["--size", "96"] : [])
            let plain = dir.appendingPathComponent("plain.gif")
            try Self.make(base + ["-o", plain.path])
            let plainBytes = try Self.bytes(plain)
            for option in [["--quality", "60"], ["--colors", "16"], ["--lossy", "80"]] {
                let out = dir.appendingPathComponent("\(option[0].dropFirst(2)).gif")
                try Self.make(base + option + ["-o", out.path])
                let bytes = try Self.bytes(out)
                #expect(bytes < plainBytes, "\(command) \(option): \(bytes) bytes, without it \(plainBytes)")
                #expect(try Self.decode(out).hashes.count == Self.decode(plain).hashes.count)
            }
            // A budget two thirds of the plain file's: written, and it fits.
            let budget = plainBytes * 2 / 3
            let fitted = dir.appendingPathComponent("fitted.gif")
            let r = try Throbber.run(base + ["--max-bytes", "\(budget)", "-o", fitted.path])
            #expect(r.status == 0, "\(r.stderrText)")
            let fittedBytes = try Self.bytes(fitted)
            #expect(fittedBytes > 0 && fittedBytes <= budget, "--max-bytes \(budget) wrote \(fittedBytes) bytes")
            #expect(r.stderrText.hasPrefix("wrote \(fitted.path): GIF "), "\(r.stderrText)")
            #expect(r.stderrText.contains("; --max-bytes \(budget): "), "\(r.stderrText)")
        }
    }

    @Test("--colors 4 leaves at most 4 colors in every frame of a rendered GIF")
    func colors() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("four.gif")
            try Self.make(["render", try Self.writeScene(in: dir).path, "--colors", "4", "-o", out.path])
            let r = try Command.run(
                Pillow.python,
                [
                    "-c",
                    "import sys\nfrom PIL import Image\nim=Image.open(sys.argv[1])\nn=0\nfor i in range(im.n_frames):\n im.seek(i); n=max(n,len(set(im.convert('RGBA').getdata())))\nprint(n)",
                    out.path,
                ])
            let colors = Int(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            // 4 palette colors, plus transparency.
            #expect(colors > 1 && colors <= 5, "\(colors) colors in a frame")
        }
    }

    // MARK: alpha

    @Test("preset --matte '#1e1e1e': soft edges blended toward the dark matte, none toward white")
    func presetMatte() throws {
        try withTemporaryDirectory { dir in
            let blue = [10, 132, 255]
            let light = dir.appendingPathComponent("light.gif")
            let dark = dir.appendingPathComponent("dark.gif")
            try Self.make(["preset", "spinner", "--size", "48", "--color", "#0A84FF", "-o", light.path])
            try Self.make([
                "preset", "spinner", "--size", "48", "--color", "#0A84FF", "--matte", "#1e1e1e", "-o", dark.path,
            ])
            let lightEdges = try Self.decode(light, color: blue).edges
            let darkEdges = try Self.decode(dark, color: blue).edges
            // Blue blended onto #1e1e1e: red stays between 0x0a and 0x1e, green
            // below 0x84; onto white every channel rises toward 255.
            #expect(darkEdges.count > 50, "the dark GIF has \(darkEdges.count) soft-edge pixels")
            let halos = darkEdges.filter { $0[0] > 0x30 || $0[1] > 0x90 }
            #expect(halos.isEmpty, "\(halos.count) light edge pixels on the dark matte, e.g. \(halos.prefix(5))")
            let towardDark = darkEdges.filter { $0[2] < 0xC0 }
            #expect(towardDark.count * 2 > darkEdges.count, "edges not darker than the loader: \(darkEdges.prefix(5))")
            #expect(
                lightEdges.contains { $0[0] > 0x80 && $0[1] > 0xB0 },
                "the default (white matte) has no light edges: \(lightEdges.prefix(5))")
        }
    }

    @Test("render --matte and --background: edges blended onto the matte; the background fills the canvas")
    func renderAlpha() throws {
        try withTemporaryDirectory { dir in
            // The disc alone: its edges are blue on nothing.
            let config = try Self.writeScene(in: dir, Self.disc)
            let matted = dir.appendingPathComponent("matted.gif")
            try Self.make(["render", config.path, "--matte", "#1e1e1e", "-o", matted.path])
            let edges = try Self.decode(matted, color: [10, 132, 255]).edges.filter { $0[2] > $0[0] + 40 }
            #expect(
                !edges.isEmpty && edges.allSatisfy { $0[0] <= 0x30 },
                "edges: \(edges.filter { $0[0] > 0x30 }.prefix(9))")
            // Without a matte a scene's GIF has transparent corners; --background red fills them.
            let plain = dir.appendingPathComponent("plain.gif")
            let red = dir.appendingPathComponent("red.gif")
            try Self.make(["render", config.path, "-o", plain.path])
            try Self.make(["render", config.path, "--background", "red", "-o", red.path])
            #expect(try Self.decode(plain, points: [[0, 0]]).points.allSatisfy { $0[0][3] == 0 })
            #expect(
                try Self.decode(red, points: [[0, 0], [79, 39]]).points.allSatisfy {
                    $0 == [[255, 0, 0, 255], [255, 0, 0, 255]]
                })
        }
    }

    // MARK: transforms

    @Test(
        "transforms: --width, --height, --scale, --crop, --frames and --reverse on render",
        arguments: [
            (["--width", "40"], [40, 20]), (["--height", "10"], [20, 10]), (["--scale", "0.5"], [40, 20]),
            (["--crop", "30x20+10+5"], [30, 20]), (["--width", "30", "--height", "30", "--fit", "stretch"], [30, 30]),
        ])
    func renderResize(_ options: [String], _ size: [Int]) throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.gif")
            try Self.make(["render", try Self.writeScene(in: dir).path, "-o", out.path] + options)
            let decoded = try Self.decode(out)
            #expect(decoded.size == size, "\(options): \(decoded.size)")
            // All of one second; identical neighbours of a crop merge.
            #expect(decoded.durations.reduce(0, +) == 1000, "\(decoded.durations)")
        }
    }

    @Test("render and preset --frames pick frames of one cycle; --reverse plays them backward")
    func pickAndReverse() throws {
        try withTemporaryDirectory { dir in
            let config = try Self.writeScene(in: dir).path
            let all = dir.appendingPathComponent("all.gif")
            let picked = dir.appendingPathComponent("picked.gif")
            let reversed = dir.appendingPathComponent("reversed.gif")
            try Self.make(["render", config, "-o", all.path])
            try Self.make(["render", config, "--frames", "2-4", "-o", picked.path])
            try Self.make(["render", config, "--frames", "2-4", "--reverse", "-o", reversed.path])
            let allHashes = try Self.decode(all).hashes
            #expect(allHashes.count == 10)
            #expect(try Self.decode(picked).hashes == Array(allHashes[1...3]))
            #expect(try Self.decode(reversed).hashes == Array(allHashes[1...3].reversed()))

            let spinner = dir.appendingPathComponent("spinner.gif")
            let spinnerPicked = dir.appendingPathComponent("spinner-picked.gif")
            try Self.make(["preset", "spinner", "-o", spinner.path])
            try Self.make(["preset", "spinner", "--frames", "1-:2", "--width", "32", "-o", spinnerPicked.path])
            let full = try Self.decode(spinner)
            let half = try Self.decode(spinnerPicked)
            #expect(half.size == [32, 32], "\(half.size)")
            #expect(half.hashes.count == (full.hashes.count + 1) / 2, "\(full.hashes.count) → \(half.hashes.count)")
        }
    }

    // MARK: timing

    @Test("timing on render: --fps, --speed, --duplicate, --bounce, --loop and --poster-frame")
    func renderTiming() throws {
        try withTemporaryDirectory { dir in
            let config = try Self.writeScene(in: dir).path
            func run(_ options: [String]) throws -> Decoded {
                let out = dir.appendingPathComponent("t.gif")
                try Self.make(["render", config, "-o", out.path] + options)
                return try Self.decode(out)
            }
            let plain = try run([])
            #expect(plain.durations == Array(repeating: 100, count: 10))
            // --fps 20 draws 20 frames of 5 cs: the config's 10 fps is overridden.
            // (The arc holds still after 0.9 s: the last two frames merge.)
            let fast = try run(["--fps", "20"])
            #expect(fast.durations == Array(repeating: 50, count: 18) + [100])
            #expect(try run(["--speed", "2"]).durations == Array(repeating: 50, count: 10))
            // --duplicate 2 shows every frame twice: identical neighbours merge, 20 cs each.
            #expect(try run(["--duplicate", "2"]).durations == Array(repeating: 200, count: 10))
            let bounced = try run(["--bounce"])
            #expect(bounced.hashes == plain.hashes + plain.hashes[1...8].reversed())
            #expect(try run(["--loop", "3"]).loop == 2, "GIF stores 3 plays as 2 repeats")
            #expect(plain.loop == 0)
            #expect(try run(["--poster-frame", "4"]).hashes == Array(plain.hashes[3...] + plain.hashes[..<3]))
        }
    }

    @Test("timing on preset: --duplicate, --bounce, --loop and --reverse")
    func presetTiming() throws {
        try withTemporaryDirectory { dir in
            func run(_ options: [String]) throws -> Decoded {
                let out = dir.appendingPathComponent("t.gif")
                try Self.make(["preset", "dots", "-o", out.path] + options)
                return try Self.decode(out)
            }
            let plain = try run([])
            let n = plain.hashes.count
            let tripled = try run(["--duplicate", "3"])
            #expect(tripled.hashes == plain.hashes)
            // Each frame's exact time tripled (GIF rounds 7.5 cs to 8 and 7 by turns).
            #expect(
                tripled.durations.reduce(0, +) == 3 * plain.durations.reduce(0, +),
                "\(plain.durations) → \(tripled.durations)")
            #expect(try run(["--bounce"]).hashes == plain.hashes + plain.hashes[1..<(n - 1)].reversed())
            #expect(try run(["--loop", "1"]).loop == nil, "a GIF played once has no NETSCAPE loop")
            #expect(try run(["--reverse"]).hashes == plain.hashes.reversed() || n < 2)
        }
    }

    // MARK: messages

    @Test("errors from command-line values name the option; errors from the config name its JSON path")
    func errorNames() throws {
        try withTemporaryDirectory { dir in
            let config = try Self.writeScene(in: dir)
            let out = dir.appendingPathComponent("out.gif").path
            let r1 = try Throbber.run(["render", config.path, "--quality", "0", "-o", out])
            Self.expectError(r1, status: 64, "--quality: must be 1…100, got 0")
            let r2 = try Throbber.run(["render", config.path, "--fps", "60", "-o", out])
            Self.expectError(r2, status: 64, "--fps: 60 fps is too fast for GIF")
            let fast = try Self.writeScene(
                in: dir, Self.scene.replacingOccurrences(of: #""fps": 10"#, with: #""fps": 60"#))
            let r3 = try Throbber.run(["render", fast.path, "--quality", "50", "-o", out])
            Self.expectError(r3, status: 65, "scene.json: timing.fps: 60 fps is too fast for GIF")
            // The command line wins: the config's 60 fps gives way to --fps 25.
            let r4 = try Throbber.run(["render", fast.path, "--fps", "25", "-o", out, "-q"])
            #expect(r4.status == 0, "\(r4.stderrText)")
            let r5 = try Throbber.run(["preset", "spinner", "--print-config", "--matte", "black"])
            Self.expectError(r5, status: 64, "--matte is an output option; --print-config prints")
            let r6 = try Throbber.run([
                "preset", "spinner", "--lossy", "20", "-o", dir.appendingPathComponent("s.webp").path,
            ])
            Self.expectError(r6, status: 64, "--lossy: lossy LZW is for GIF; WebP is made smaller with --quality")
        }
    }
}
