import Foundation
import Testing
import ThrobberKit

/// Helpers for the Scene* tests, all under one name so they cannot collide
/// with other test files of this target.
package enum SceneTestKit {
    /// The package root.
    package static let repository = Fixtures.repository
    package static let examples = repository.appendingPathComponent("examples")

    /// Decodes config text as if read from `file` in `base`.
    package static func config(_ json: String, file: String = "test.json", base: String = NSTemporaryDirectory()) throws
        -> SceneConfig
    {
        try ConfigDecoder.decode(Array(json.utf8), file: file, baseDirectory: base)
    }

    package static func layers(_ config: SceneConfig) throws -> [Layer] {
        guard case .layers(let l) = config.content else { throw SceneTestError("not a scene config") }
        return l
    }

    package static func clock(_ config: SceneConfig) throws -> SceneClock {
        try SceneClock(config: config, layers: try layers(config))
    }

    package static func renderer(_ config: SceneConfig) throws -> SceneRenderer {
        SceneRenderer(config: config, layers: try layers(config))
    }

    /// A scene on a `w`×`h` canvas with the given layers (JSON text) and extra top-level members.
    package static func scene(
        width w: Int = 60, height h: Int = 60, scale: Int = 1, background: String = "transparent",
        timing: String = "{}", layers: String, extra: String = ""
    ) -> String {
        #"{"version": 1, "canvas": {"width": \#(w), "height": \#(h), "scale": \#(scale), "background": "\#(background)"}, "timing": \#(timing), "layers": [\#(layers)]\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    /// The `ThrobberError` that `body` throws, or nil.
    package static func error(_ body: () throws -> Void) -> ThrobberError? {
        do {
            try body()
            return nil
        } catch let e as ThrobberError { return e } catch {
            return ThrobberError(.software, "not a ThrobberError: \(error)")
        }
    }

    /// Exact rational from a decimal or "p/q" text (test side).
    package static func q(_ text: String) -> Rational { Rational(parsing: text)! }
}

package struct SceneTestError: Error, CustomStringConvertible {
    package var description: String
    package init(_ d: String) { description = d }
}

/// Measurements on rendered images (straight-alpha RGBA).
extension RGBAImage {
    package func alpha(_ x: Int, _ y: Int) -> Int { Int(pixels[(y * width + x) * 4 + 3]) }
    package func rgba(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(pixels[(y * width + x) * 4 + $0]) } }

    /// Coverage in pixels (alpha / 255 summed) over columns `xs` and rows `ys`.
    package func coverage(xs: Range<Int>? = nil, ys: Range<Int>? = nil) -> Double {
        var sum = 0
        for y in ys ?? 0..<height { for x in xs ?? 0..<width { sum += alpha(x, y) } }
        return Double(sum) / 255
    }

    /// The alpha-weighted center of the ink in the given region, in pixels
    /// (pixel centers at +0.5).
    package func centroid(xs: Range<Int>? = nil, ys: Range<Int>? = nil) -> (x: Double, y: Double)? {
        var sx = 0.0
        var sy = 0.0
        var s = 0.0
        for y in ys ?? 0..<height {
            for x in xs ?? 0..<width {
                let a = Double(alpha(x, y))
                sx += a * (Double(x) + 0.5)
                sy += a * (Double(y) + 0.5)
                s += a
            }
        }
        return s > 0 ? (sx / s, sy / s) : nil
    }

    /// The box around pixels with alpha ≥ `threshold`: (minX, minY, maxX, maxY) inclusive.
    package func inkBox(threshold: Int = 128) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)? = nil
        for y in 0..<height {
            for x in 0..<width where alpha(x, y) >= threshold {
                if let b = box {
                    box = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y))
                } else {
                    box = (x, y, x, y)
                }
            }
        }
        return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
    }
}
