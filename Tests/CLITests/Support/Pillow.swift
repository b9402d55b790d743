import Foundation
import TestSupport

/// The independent side of every check: Debian's Python with Pillow
/// (python3-pil), running the scripts in Tests/tools.
enum Pillow {
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    static func script(_ name: String, _ arguments: [String]) throws -> Data {
        let result = try Command.run(python, [Paths.tools.appendingPathComponent(name).path] + arguments)
        guard result.status == 0 else {
            throw HarnessError(
                "/usr/bin/python3 \(name) failed (\(result.status)); it needs Debian's python3-pil: \(result.stderrText)"
            )
        }
        return result.stdout
    }

    /// One test frame for `make_frames.py`.
    struct Frame: Encodable {
        var name: String
        var size: [Int]
        var color: [Int]
        var marks: [[Int]] = []
        var mode = "RGBA"

        init(_ name: String, width: Int = 8, height: Int = 8, color: [Int], marks: [[Int]] = [], mode: String = "RGBA")
        {
            self.name = name
            self.size = [width, height]
            self.color = color
            self.marks = marks
            self.mode = mode
        }
    }

    /// A distinct opaque color for frame `i` (few colors overall, so encoding is lossless).
    static func color(_ i: Int) -> [Int] {
        [(i * 53 + 20) % 256, (i * 97 + 60) % 256, (i * 31 + 140) % 256, 255]
    }

    /// Distinct small opaque frames named `names`, each a solid color with a
    /// dark mark whose position depends on the index.
    static func distinctFrames(_ names: [String], width: Int = 8, height: Int = 8) -> [Frame] {
        names.enumerated().map { i, name in
            Frame(
                name, width: width, height: height, color: color(i),
                marks: [[i % width, (i / width) % height, 2, 2, 0, 0, 0, 255]])
        }
    }

    /// Writes `frames` into `folder` with Pillow; returns their URLs in the given order.
    @discardableResult
    static func makeFrames(_ frames: [Frame], in folder: URL) throws -> [URL] {
        let spec = String(decoding: try JSONEncoder().encode(frames), as: UTF8.self)
        _ = try script("make_frames.py", [folder.path, spec])
        return frames.map { folder.appendingPathComponent($0.name) }
    }

    /// Writes `count` opaque 96x64 frames of three sine gradients moving
    /// at different speeds (thousands of colors a frame) into `folder`,
    /// with numpy, named 00.png, 01.png …; with `hole`, a 24x24 square at
    /// (36, 20) fully transparent in every frame. Returns them in order.
    static func movingGradients(in folder: URL, count: Int = 24, hole: Bool = false) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = """
            import sys
            import numpy as np
            from PIL import Image
            h, w = 64, 96
            count, hole = int(sys.argv[2]), sys.argv[3] == "1"
            y, x = np.mgrid[0:h, 0:w].astype(float)
            for i in range(count):
                t = i / 24 * 2 * np.pi
                r = 128 + 127 * np.sin(x / w * 2 * np.pi + t)
                g = 128 + 127 * np.sin(y / h * 2 * np.pi - t)
                b = 128 + 127 * np.cos((x + y) / (w + h) * 2 * np.pi + 2 * t)
                rgb = np.clip(np.stack([r, g, b], -1), 0, 255).astype(np.uint8)
                if not hole:
                    Image.fromarray(rgb, "RGB").save("%s/%02d.png" % (sys.argv[1], i))
                    continue
                alpha = np.full((h, w), 255, np.uint8)
                alpha[20:44, 36:60] = 0
                rgba = np.dstack([rgb, alpha])
                rgba[alpha == 0] = 0
                Image.fromarray(rgba, "RGBA").save("%s/%02d.png" % (sys.argv[1], i))
            """
        let r = try Command.run(python, ["-c", script, folder.path, "\(count)", hole ? "1" : "0"])
        guard r.status == 0 else { throw HarnessError("making gradient frames: \(r.stderrText)") }
        return (0..<count).map { folder.appendingPathComponent(String(format: "%02d.png", $0)) }
    }

    /// Pillow's SHA-256 of each image's RGBA bytes (see image_hashes.py).
    static func hashes(of images: [URL]) throws -> [String] {
        try JSONDecoder().decode([String].self, from: script("image_hashes.py", images.map(\.path)))
    }

    struct DecodedGIF: Decodable {
        struct Frame: Decodable {
            var duration: Int?
            var sha256: String
        }
        var width: Int
        var height: Int
        var frames: [Frame]
        /// Pillow's `info["loop"]`; nil when the GIF has no NETSCAPE loop extension.
        var loop: Int?

        var durations: [Int] { frames.map { $0.duration ?? -1 } }
        var hashes: [String] { frames.map(\.sha256) }
    }

    /// Decodes every frame as a viewer shows it (decode_gif.py).
    static func decode(_ gif: URL) throws -> DecodedGIF {
        try JSONDecoder().decode(DecodedGIF.self, from: script("decode_gif.py", [gif.path]))
    }

    struct Match: Decodable {
        struct Frame: Decodable {
            var duration: Int?
            var psnr: [Double]
        }
        var frames: [Frame]
        var refs: [[Double]]?
    }

    /// PSNR of each GIF frame against references (match_frames.py).
    static func match(_ gif: URL, against refs: [URL], sameIndex: Bool = false, refsMatrix: Bool = false) throws
        -> Match
    {
        var args = [gif.path] + refs.map(\.path)
        if sameIndex { args.append("--same-index") }
        if refsMatrix { args.append("--refs") }
        return try JSONDecoder().decode(Match.self, from: script("match_frames.py", args))
    }
}

extension Pillow.DecodedGIF {
    /// The frame shown in each `slot`-ms step of one loop: a frame lasting
    /// k slots (identical neighbours merged) fills k steps.
    func framesPerSlot(_ slot: Int) -> [String]? {
        var shown: [String] = []
        for f in frames {
            guard let d = f.duration, d > 0, d % slot == 0 else { return nil }
            shown += Array(repeating: f.sha256, count: d / slot)
        }
        return shown
    }
}
