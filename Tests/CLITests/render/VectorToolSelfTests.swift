import Foundation
import TestSupport
import Testing

/// The vector renderers of Tests/tools/vector_render.py must be able to pass
/// and to fail: a hand-written SVG and a hand-written Lottie file of one tiny
/// config (a 24×8 rect turning 90° in 1 s, linear, 10 fps, on a 40×40 pt
/// canvas at scale 2) match Throbber's lossless APNG of that config, frame by
/// frame, when Chromium and rlottie draw them; the same files with one
/// deliberate mistake do not.
@Suite("Vector renderers: hand-written SVG and Lottie match the APNG; wrong ones do not", .tags(.slow))
struct VectorToolSelfTests {
    /// Reads the tools' snake_case JSON.
    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }()

    /// What `vector_render.py compare` prints.
    typealias Comparison = VectorSupport.Comparison

    /// What `vector_render.py lottie-python` prints.
    struct PythonLottie: Decodable {
        var available: Bool
        var why: String?
        var warnings: [String]
        var dropped: [String]?
    }

    static let chromium = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    static let pythonLottie = FileManager.default.fileExists(
        atPath: Paths.repository.appendingPathComponent(".build/pylib/lottie").path)

    /// The output frame times: frame k of the APNG is the scene at k/10 s.
    static let times = "[" + (0..<10).map { "[\($0), 10]" }.joined(separator: ", ") + "]"
    static let frames = "[" + (0..<10).map(String.init).joined(separator: ", ") + "]"

    static let config = """
        {"version": 1, "canvas": {"width": 40, "height": 40, "scale": 2}, "timing": {"fps": 10},
         "layers": [{"rect": {"width": 24, "height": 8}, "fill": "#3366cc", "center": [20, 20],
           "animate": [{"kind": "keyframes", "property": "rotate", "period": 1,
             "keys": [{"at": 0, "value": 0, "ease": "linear"}, {"at": 1, "value": 90}]}]}]}
        """

    /// The config as CSS keyframes on a <g> inside a translated <g>
    /// (transform-origin left at 0 0), turning from `from` to `to` degrees.
    static func svg(from: Int, to: Int) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">
        <style>@keyframes r{from{transform:rotate(\(from)deg)}to{transform:rotate(\(to)deg)}}
        .a{animation:r 1s linear infinite}</style>
        <g transform="translate(20 20)"><g class="a"><rect x="-12" y="-4" width="24" height="8" fill="#3366cc"/></g></g>
        </svg>
        """
    }

    /// The config as a minimal Lottie file whose rotation reaches 90° at
    /// frame `end` (10 is right). "ddd": 0 is needed: without it rlottie 0.1
    /// ignores the layer's rotation.
    static func lottie(end: Int) -> String {
        let still = #""p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}"#
        let turn = #"{"t":0,"s":[0],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":\#(end),"s":[90]}"#
        return """
            {"v":"5.7.0","fr":10,"ip":0,"op":10,"w":40,"h":40,"layers":[{"ddd":0,"ty":4,"ind":1,"ip":0,"op":10,"st":0,
             "ks":{"a":{"a":0,"k":[0,0]},"p":{"a":0,"k":[20,20]},"s":{"a":0,"k":[100,100]},"o":{"a":0,"k":100},
              "r":{"a":1,"k":[\(turn)]}},
             "shapes":[{"ty":"gr","it":[{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[24,8]},"r":{"a":0,"k":0}},
              {"ty":"fl","c":{"a":0,"k":[0.2,0.4,0.8,1]},"o":{"a":0,"k":100}},
              {"ty":"tr",\(still),"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}]}
            """
    }

    /// Renders the config's reference APNG with the built throbber.
    static func reference(in dir: URL) throws -> URL {
        let config = dir.appendingPathComponent("turn.json")
        try config.write(Self.config)
        let ref = dir.appendingPathComponent("ref.png")
        let r = try Throbber.run(["render", config.path, "-o", ref.path, "-q"])
        guard r.status == 0 else { throw HarnessError("throbber render exited \(r.status): \(r.stderrText)") }
        return ref
    }

    /// Draws `file` with one vector_render.py subcommand into a fresh folder
    /// and compares the frames with `ref`.
    static func compare(_ command: String, _ file: URL, ref: URL, in dir: URL) throws -> Comparison {
        let out = dir.appendingPathComponent("\(command)-\(file.deletingPathExtension().lastPathComponent)")
        let arguments =
            command == "svg"
            ? [command, file.path, "40", "40", "2", times, out.path]
            : [command, file.path, frames, "80", "80", out.path]
        _ = try Pillow.script("vector_render.py", arguments)
        let json = try Pillow.script("vector_render.py", ["compare", ref.path, out.path])
        let result = try Self.decoder.decode(Comparison.self, from: json)
        #expect(result.refFrames == 10 && result.pngFrames == 10, "frames: \(result.refFrames), \(result.pngFrames)")
        return result
    }

    @Test(
        "Chromium's frames of the right SVG reach 35 dB on all 10 frames; turned 45° off, every frame is under 25 dB",
        .enabled(if: chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"))
    func svgInChromium() throws {
        try withTemporaryDirectory { dir in
            let ref = try Self.reference(in: dir)
            let good = dir.appendingPathComponent("good.svg")
            let wrong = dir.appendingPathComponent("wrong.svg")
            try good.write(Self.svg(from: 0, to: 90))
            try wrong.write(Self.svg(from: 45, to: 135))
            for e in try Self.compare("svg", good, ref: ref, in: dir).entries {
                #expect(e.psnr >= 35, "good SVG frame \(e.frame): \(e.psnr) dB, \(e.badPixels) bad pixels")
            }
            for e in try Self.compare("svg", wrong, ref: ref, in: dir).entries {
                #expect(e.psnr < 25, "wrong SVG frame \(e.frame): \(e.psnr) dB")
            }
        }
    }

    @Test("rlottie's frames of the right Lottie reach 35 dB; turning twice as fast, frames 1–9 fall under 25 dB")
    func lottieInRlottie() throws {
        try withTemporaryDirectory { dir in
            let ref = try Self.reference(in: dir)
            let good = dir.appendingPathComponent("good.json")
            let wrong = dir.appendingPathComponent("wrong.json")
            try good.write(Self.lottie(end: 10))
            try wrong.write(Self.lottie(end: 5))
            for e in try Self.compare("lottie-rlottie", good, ref: ref, in: dir).entries {
                #expect(e.psnr >= 35, "good Lottie frame \(e.frame): \(e.psnr) dB, \(e.badPixels) bad pixels")
            }
            for e in try Self.compare("lottie-rlottie", wrong, ref: ref, in: dir).entries {
                // Frame 0 is the same in both files: 0°.
                if e.frame == 0 {
                    #expect(e.psnr >= 35, "wrong Lottie frame 0: \(e.psnr) dB")
                } else {
                    #expect(e.psnr < 25, "wrong Lottie frame \(e.frame): \(e.psnr) dB")
                }
            }
        }
    }

    @Test(
        "python-lottie loads the right Lottie without a warning and draws it at 35 dB or more",
        .enabled(if: pythonLottie || Fixtures.onCI, "skipped: python-lottie is not in .build/pylib"))
    func lottieInPython() throws {
        try withTemporaryDirectory { dir in
            let ref = try Self.reference(in: dir)
            let good = dir.appendingPathComponent("good.json")
            try good.write(Self.lottie(end: 10))
            let out = dir.appendingPathComponent("python")
            let info = try Self.decoder.decode(
                PythonLottie.self,
                from: Pillow.script(
                    "vector_render.py", ["lottie-python", good.path, Self.frames, "80", "80", out.path]))
            try #require(info.available, "python-lottie cannot be imported: \(info.why ?? "")")
            #expect(info.warnings.isEmpty, "\(info.warnings)")
            #expect(info.dropped == [], "python-lottie ignores \(info.dropped ?? [])")
            let json = try Pillow.script("vector_render.py", ["compare", ref.path, out.path])
            for e in try Self.decoder.decode(Comparison.self, from: json).entries {
                #expect(e.psnr >= 35, "python-lottie frame \(e.frame): \(e.psnr) dB")
            }
        }
    }

    @Test("a missing file is exit 2 with its name on stderr")
    func missingFile() throws {
        let r = try Command.run(
            Pillow.python,
            [
                Paths.tools.appendingPathComponent("vector_render.py").path, "lottie-rlottie", "/nonexistent.json",
                "[0]",
                "8", "8", "/tmp",
            ])
        #expect(r.status == 2)
        #expect(r.stderrText.contains("/nonexistent.json: no such file"), "\(r.stderrText)")
    }
}

extension URL {
    /// Writes `text` as UTF-8.
    fileprivate func write(_ text: String) throws {
        try Data(text.utf8).write(to: self)
    }
}
