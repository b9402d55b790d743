import Foundation
import TestSupport
import Testing

/// Reading exported vector files and their reference APNG on the test side,
/// with code of its own (no ThrobberKit): the APNG's chunks, the SVG's root
/// size and CSS durations, and vector_render.py's comparisons.
enum VectorSupport {
    /// An APNG's size and loop length: the sum of its fcTL delays, exact
    /// (numerator, denominator), a delay denominator 0 read as 100.
    static func apngLoop(_ url: URL) throws -> (seconds: (Int, Int), width: Int, height: Int) {
        let b = [UInt8](try Data(contentsOf: url))
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        func u16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        var (num, den) = (0, 1)
        var (width, height) = (0, 0)
        var i = 8
        while i + 8 <= b.count {
            let length = u32(i)
            let type = String(decoding: b[i + 4..<i + 8], as: UTF8.self)
            let body = i + 8
            if type == "IHDR" { (width, height) = (u32(body), u32(body + 4)) }
            if type == "fcTL" {
                let n = u16(body + 20)
                let d = u16(body + 22) == 0 ? 100 : u16(body + 22)
                (num, den) = (num * d + n * den, den * d)
                let g = gcd(num, den)
                (num, den) = (num / g, den / g)
            }
            i = body + length + 4
        }
        return ((num, den), width, height)
    }

    /// The root `<svg>`'s width and height attributes (points).
    static func svgSize(_ text: String) throws -> (Double, Double) {
        func attribute(_ name: String) -> Double? {
            guard let r = text.range(of: " \(name)=\""), let end = text[r.upperBound...].firstIndex(of: "\"") else {
                return nil
            }
            return Double(text[r.upperBound..<end])
        }
        guard let w = attribute("width"), let h = attribute("height") else {
            throw HarnessError("the SVG has no width and height: \(text.prefix(200))")
        }
        return (w, h)
    }

    /// The duration in seconds of every CSS `animation` shorthand of an SVG.
    static func cssDurations(_ text: String) -> [Double] {
        // The reduced motion plays slower on purpose: left out.
        var text = text
        if let block = text.range(of: "@media (prefers-reduced-motion:reduce){"),
            let end = text.range(of: "}}", range: block.upperBound..<text.endIndex)
        {
            text.removeSubrange(block.lowerBound..<end.upperBound)
        }
        return text.components(separatedBy: "animation:").dropFirst().flatMap { rest -> [Double] in
            let value = rest.prefix { $0 != "\"" && $0 != "}" && $0 != ";" }
            return value.split(separator: ",").compactMap { one in
                let words = one.split(separator: " ")
                guard words.count > 1, words[1].hasSuffix("s") else { return nil }
                return Double(words[1].dropLast())
            }
        }
    }

    /// vector_render.py compare of `ref` laid out as `frames` loop frames
    /// with the PNG frames in `dir`.
    struct Comparison: Decodable {
        struct Entry: Decodable {
            var frame: Int
            var psnr: Double
            var badPixels: Int
        }
        var entries: [Entry]
        var minPsnr: Double
        /// Frames in the reference as compared, and PNG frames found.
        var refFrames: Int
        var pngFrames: Int

        /// The lowest frame, for messages.
        var worst: String {
            guard let e = entries.min(by: { $0.psnr < $1.psnr }) else { return "no frames" }
            return "frame \(e.frame + 1) of \(entries.count): \(e.psnr) dB, \(e.badPixels) pixels off by more than 32"
        }
    }

    /// `dir`'s frames against `ref`: an APNG laid out as `frames` equal
    /// frames of its loop, or with `loopFrames` false a folder of frames;
    /// both composited on `on`, an opaque color "R,G,B".
    static func compare(
        _ ref: URL, _ dir: URL, frames: Int, loopFrames: Bool = true, on: String = "255,255,255"
    ) throws -> Comparison {
        let json = try Pillow.script(
            "vector_render.py",
            ["compare", ref.path, dir.path, "--on", on] + (loopFrames ? ["--loop-frames", "\(frames)"] : []))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let result = try decoder.decode(Comparison.self, from: json)
        #expect(result.entries.count == frames, "compared \(result.entries.count) of \(frames) frames")
        return result
    }
}
