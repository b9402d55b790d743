import Foundation
import TestSupport
import Testing

/// The test side of Lottie input: a file's header read with Foundation,
/// the frames and times it should give (the rules of issue 13, written
/// here from the file's numbers, not taken from Throbber), and the
/// comparison with rlottie's own frames by Tests/tools/rlottie_render.py.
struct LottieExpectation {
    var width: Int
    var height: Int
    /// fr as an exact fraction (num, den): 29.97… → 30000/1001.
    var rate: (num: Int, den: Int)
    /// Frames in one loop, as rlottie 0.1 counts them: ⌊op⌋ − ⌊ip⌋.
    var count: Int

    init(_ file: URL) throws {
        let top = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        func number(_ key: String) -> Double { (top[key] as! NSNumber).doubleValue }
        width = Int(number("w"))
        height = Int(number("h"))
        count = Int(number("op").rounded(.down)) - Int(number("ip").rounded(.down))
        let fr = number("fr")
        if abs(fr - fr.rounded()) < 1e-4 {
            rate = (Int(fr.rounded()), 1)
        } else {
            let ntsc = (fr * 1001 / 1000).rounded()
            precondition(abs(fr - ntsc * 1000 / 1001) < 1e-4, "fixture rate \(fr) is neither whole nor NTSC")
            rate = (Int(ntsc) * 1000, 1001)
        }
    }

    /// Shown frames as [rlottie frame, start num, start den] and a closing
    /// [null, end num, end den]. `maxFPS` (GIF: 50): every k-th frame, k the
    /// smallest step with fr/k ≤ maxFPS; the last shown frame lasts until
    /// count/fr. `fps`: round(count/fr·fps) evenly spaced frames.
    func entries(maxFPS: Int?, fps: Int? = nil) -> [[Int?]] {
        // Times in units of 1/(rate.num) seconds: frame i starts at i·den.
        let (num, den) = rate
        if let fps {
            // m = round(count·den·fps / num), half up.
            let m = max(1, (2 * count * den * fps + num) / (2 * num))
            // frame j starts at j/m of the loop (count·den/num s) and shows the
            // file's frame nearest that time: j·count/m rounded half up.
            let shown: [[Int?]] = (0..<m).map { (j: Int) -> [Int?] in
                let nearest: Int = min(count - 1, (2 * j * count + m) / (2 * m))
                return [nearest, j * count * den, m * num]
            }
            return shown + [[nil, count * den, num]]
        }
        var k = 1
        if let maxFPS { while num > maxFPS * k * den { k += 1 } }
        let m = max(1, count / k)
        return (0..<m).map { [$0 * k, $0 * k * den, num] } + [[nil, count * den, num]]
    }

    struct Comparison: Decodable {
        struct Entry: Decodable {
            var frame: Int
            var decoded: Int
            var diff: Int
            var psnr: Double
        }
        var width: Int
        var height: Int
        var decoded: Int
        var startsOK: Bool
        var total: String
        var entries: [Entry]

        enum CodingKeys: String, CodingKey {
            case width, height, decoded, total, entries
            case startsOK = "starts_ok"
        }
    }

    /// rlottie_render.py's comparison of `animation` with rlottie's frames
    /// of `lottie` drawn at `width`×`height`.
    static func compare(_ animation: URL, _ lottie: URL, width: Int, height: Int, entries: [[Int?]]) throws
        -> Comparison
    {
        let spec = String(
            decoding: try JSONSerialization.data(withJSONObject: entries.map { $0.map { $0 ?? NSNull() as Any } }),
            as: UTF8.self)
        return try JSONDecoder().decode(
            Comparison.self,
            from: Pillow.script(
                "rlottie_render.py", ["compare", animation.path, lottie.path, String(width), String(height), spec]))
    }

    /// The ten loaders of ../shared/fixtures/lottie-android.
    static let fixtures = [
        "autoconnect_loading", "cube_loader", "glow_loading", "iphone_x_loading", "loading_semicircle",
        "material_loading_2", "preloader", "simple_loader", "soda_loader", "trail_loading",
    ]

    static func fixture(_ name: String) throws -> URL { try Fixtures.url("lottie-android/\(name).json") }
}
