import Foundation
import TestSupport
import Testing

/// Helpers for the APNG command-line tests: the structure of a written file
/// (Tests/tools/apng_chunks.py, struct + zlib), composited frames from the
/// independent decoders of Tests/tools/anim_reference.py (its own APNG spec
/// decoder, its own GIF decoder with browser compositing, Pillow, ffmpeg),
/// pngcheck, and exact fractions for comparing timelines.
enum APNGCLI {
    /// An exact, reduced fraction of seconds.
    struct Fraction: Equatable, CustomStringConvertible {
        var num: Int, den: Int
        init(_ num: Int, _ den: Int) {
            precondition(den != 0)
            func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? max(1, abs(a)) : gcd(b, a % b) }
            let g = gcd(num, den)
            self.num = num / g
            self.den = den / g
        }
        static func + (a: Fraction, b: Fraction) -> Fraction { Fraction(a.num * b.den + b.num * a.den, a.den * b.den) }
        var seconds: Double { Double(num) / Double(den) }
        var description: String { "\(num)/\(den)" }
    }

    struct Structure: Decodable {
        struct Chunk: Decodable {
            var type: String
            var length: Int
            var crcOk: Bool
        }
        struct Header: Decodable { var width, height, depth, color, interlace: Int }
        struct AnimationControl: Decodable {
            var numFrames: Int
            var numPlays: Int
        }
        struct FrameControl: Decodable {
            var seq, width, height, x, y, delayNum, delayDen, dispose, blend: Int
            var delay: Fraction { Fraction(delayNum, delayDen == 0 ? 100 : delayDen) }
        }
        var signatureOk: Bool
        var chunks: [Chunk]
        var ihdr: Header?
        var actl: AnimationControl?
        var fctl: [FrameControl]
        var plteEntries: Int?
        var trns: [Int]?
        var sequence: [Int]
        var problems: [String]
    }

    /// apng_chunks.py's reading of `url`.
    static func structure(_ url: URL) throws -> Structure {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Structure.self, from: Pillow.script("apng_chunks.py", [url.path]))
    }

    /// A file written by throbber that must be a well-formed APNG: checked
    /// by apng_chunks.py and pngcheck. Returns its structure.
    @discardableResult
    static func expectAPNG(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> Structure {
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(
            bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            "\(url.lastPathComponent) is not a PNG",
            sourceLocation: sourceLocation)
        let s = try structure(url)
        #expect(s.actl != nil, "\(url.lastPathComponent) has no acTL", sourceLocation: sourceLocation)
        #expect(s.problems.isEmpty, "\(url.lastPathComponent): \(s.problems)", sourceLocation: sourceLocation)
        #expect(s.chunks.allSatisfy { $0.crcOk }, sourceLocation: sourceLocation)
        let check = try Command.run(URL(fileURLWithPath: "/usr/bin/pngcheck"), ["-q", url.path])
        #expect(
            check.status == 0, "pngcheck \(url.lastPathComponent): \(check.stdoutText)\(check.stderrText)",
            sourceLocation: sourceLocation)
        return s
    }

    static func isGIF(_ url: URL) -> Bool {
        guard let data = try? Data(contentsOf: url) else { return false }
        return data.starts(with: Array("GIF89a".utf8)) || data.starts(with: Array("GIF87a".utf8))
    }

    /// Composited frames from anim_reference.py (`spec`, `pillow`, `ffmpeg`, `gifspec`).
    struct Decoded {
        var width: Int, height: Int
        var frames: [[UInt8]]
        var info: [String: Any]
        /// spec: delay_num/delay_den; gifspec: cs/100; nil when unknown.
        var fractions: [Fraction?]
        /// pillow: ms/1000; ffmpeg: seconds; others: from `fractions`.
        var seconds: [Double?]
        var loop: Int? { info["loop"] as? Int }
    }

    static func decode(_ mode: String, _ url: URL) throws -> Decoded {
        try decode([mode, url.path])
    }

    /// Still images through Pillow, one frame each.
    static func stills(_ urls: [URL]) throws -> Decoded {
        try decode(["stills"] + urls.map(\.path), outdirFirst: true)
    }

    private static func decode(_ args: [String], outdirFirst: Bool = false) throws -> Decoded {
        try withTemporaryDirectory { dir in
            let arguments = outdirFirst ? [args[0], dir.path] + args.dropFirst() : args + [dir.path]
            let json = try Pillow.script("anim_reference.py", arguments)
            let info = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".rgba") }
                .sorted()
            let frames = try names.map { [UInt8](try Data(contentsOf: dir.appendingPathComponent($0))) }
            guard frames.count == info["count"] as? Int else {
                throw HarnessError("anim_reference.py \(args[0]): frame count mismatch")
            }
            let durations = info["durations"] as? [Any] ?? []
            var fractions: [Fraction?] = []
            var seconds: [Double?] = []
            switch args[0] {
            case "spec":
                fractions = durations.map { ($0 as? [Int]).map { Fraction($0[0], $0[1]) } }
                seconds = fractions.map { $0?.seconds }
            case "gifspec":
                fractions = durations.map { Fraction(($0 as? Int) ?? 0, 100) }
                seconds = fractions.map { $0?.seconds }
            case "pillow":
                seconds = durations.map { ($0 as? NSNumber).map { $0.doubleValue / 1000 } }
            default:
                seconds = durations.map { ($0 as? NSNumber)?.doubleValue }
            }
            return Decoded(
                width: info["width"] as? Int ?? 0, height: info["height"] as? Int ?? 0, frames: frames,
                info: info, fractions: fractions, seconds: seconds)
        }
    }

    /// One stretch of time showing one picture.
    struct Shown {
        var pixels: [UInt8]
        var duration: Fraction
    }

    /// Frames with durations, identical neighbours merged (what a viewer shows).
    static func shown(_ frames: [[UInt8]], _ durations: [Fraction]) -> [Shown] {
        var out: [Shown] = []
        for (f, d) in zip(frames, durations) {
            if let last = out.last, last.pixels == f {
                out[out.count - 1].duration = last.duration + d
            } else {
                out.append(Shown(pixels: f, duration: d))
            }
        }
        return out
    }

    /// Two viewers' timelines must be the same pictures for the same exact times.
    static func expectSameShow(
        _ actual: [Shown], _ expected: [Shown], width: Int, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            actual.count == expected.count,
            "\(what): \(actual.count) distinct stretches, expected \(expected.count) (durations \(actual.map(\.duration)) vs \(expected.map(\.duration)))",
            sourceLocation: sourceLocation)
        for (i, (a, e)) in zip(actual, expected).enumerated() {
            #expect(
                a.duration == e.duration, "\(what): stretch \(i) lasts \(a.duration) s, expected \(e.duration) s",
                sourceLocation: sourceLocation)
            if a.pixels != e.pixels {
                let n = stride(from: 0, to: min(a.pixels.count, e.pixels.count), by: 4).filter {
                    a.pixels[$0..<$0 + 4] != e.pixels[$0..<$0 + 4]
                }.count
                let first = stride(from: 0, to: min(a.pixels.count, e.pixels.count), by: 4).first {
                    a.pixels[$0..<$0 + 4] != e.pixels[$0..<$0 + 4]
                }
                let at =
                    first.map {
                        "(\($0 / 4 % max(1, width)), \($0 / 4 / max(1, width))): \(Array(a.pixels[$0..<$0 + 4])) vs \(Array(e.pixels[$0..<$0 + 4]))"
                    } ?? "size \(a.pixels.count) vs \(e.pixels.count)"
                Issue.record(
                    "\(what): stretch \(i): \(n) pixels differ; first at \(at)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// What an independent quantizer (Pillow, undithered) reaches with `colors` colors.
    static func quantizeBaseline(_ pixels: [UInt8], width: Int, height: Int, colors: Int) throws -> Double {
        try withTemporaryDirectory { dir in
            let raw = dir.appendingPathComponent("f.rgba")
            try Data(pixels).write(to: raw)
            let out = try Pillow.script("apng_quantize_baseline.py", [raw.path, "\(width)", "\(height)", "\(colors)"])
            return Double(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
        }
    }

    /// `throbber ARGS -q`, expecting success and a quiet stderr.
    @discardableResult
    static func run(_ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
        let r = try Throbber.run(args + ["-q"])
        #expect(
            r.status == 0, "throbber \(args.joined(separator: " ")) exited \(r.status): \(r.stderrText)",
            sourceLocation: sourceLocation)
        #expect(r.stderr.isEmpty, "stderr: \(r.stderrText)", sourceLocation: sourceLocation)
        return r
    }

    /// A config whose translateX steps every 0.25 s (20 fps, steps(1)): six
    /// distinct pictures, each shown 0.25 s.
    static let stepConfig = """
        {"version": 1,
         "canvas": {"width": 40, "height": 40},
         "timing": {"step": 0.25, "fps": 20},
         "layers": [
           {"rect": {"width": 8, "height": 8}, "fill": "red", "center": [8, 20],
            "animate": [{"kind": "step", "property": "translateX", "from": 0, "by": 8, "ease": "steps(1)", "bounce": [0, 24]}]}]}
        """

}
