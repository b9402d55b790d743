import Foundation
import Testing
@testable import ThrobberKit

/// Helpers for the Scene* tests, all under one name so they cannot collide
/// with other test files of this target.
enum SceneTestKit {
    /// The package root (…/Tests/ThrobberKitTests/SceneTestSupport.swift → …).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examples = repository.appendingPathComponent("examples")
    /// ../shared/fixtures from the repository root (read-only).
    static let fixtures = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    static var fixturesAvailable: Bool { FileManager.default.fileExists(atPath: fixtures.appendingPathComponent("SOURCES.md").path) }
    static var onCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Decodes config text as if read from `file` in `base`.
    static func config(_ json: String, file: String = "test.json", base: String = NSTemporaryDirectory()) throws -> SceneConfig {
        try ConfigDecoder.decode(Array(json.utf8), file: file, baseDirectory: base)
    }

    static func layers(_ config: SceneConfig) throws -> [Layer] {
        guard case .layers(let l) = config.content else { throw SceneTestError("not a scene config") }
        return l
    }

    static func clock(_ config: SceneConfig) throws -> SceneClock {
        try SceneClock(config: config, layers: try layers(config))
    }

    static func renderer(_ config: SceneConfig) throws -> SceneRenderer {
        SceneRenderer(config: config, layers: try layers(config))
    }

    /// A scene on a `w`×`h` canvas with the given layers (JSON text) and extra top-level members.
    static func scene(width w: Int = 60, height h: Int = 60, scale: Int = 1, background: String = "transparent",
                      timing: String = "{}", layers: String, extra: String = "") -> String {
        #"{"version": 1, "canvas": {"width": \#(w), "height": \#(h), "scale": \#(scale), "background": "\#(background)"}, "timing": \#(timing), "layers": [\#(layers)]\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    /// The `ThrobberError` that `body` throws, or nil.
    static func error(_ body: () throws -> Void) -> ThrobberError? {
        do { try body(); return nil } catch let e as ThrobberError { return e } catch { return ThrobberError(.software, "not a ThrobberError: \(error)") }
    }

    /// Runs `body` with a fresh folder, removed afterwards.
    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-scenetests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try body(dir)
    }

    /// Exact rational from a decimal or "p/q" text (test side).
    static func q(_ text: String) -> Rational { Rational(parsing: text)! }
}

struct SceneTestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

extension Trait where Self == ConditionTrait {
    /// Skips when ../shared/fixtures is absent, except under CI=true (then it fails).
    static var sceneFixtures: Self {
        .enabled(if: SceneTestKit.fixturesAvailable || SceneTestKit.onCI,
                 Comment(rawValue: "skipped: image fixtures not found at \(SceneTestKit.fixtures.path)"))
    }
}

/// An independent cubic Bézier timing function (CSS): x(s) inverted by
/// bisection to 1e-13, no tables, no code shared with Throbber's Easing.
struct SceneBezier {
    var x1: Double, y1: Double, x2: Double, y2: Double

    static let ease = SceneBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
    static let easeIn = SceneBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
    static let easeOut = SceneBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
    static let easeInOut = SceneBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)

    private static func coordinate(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
    }

    func callAsFunction(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var lo = 0.0, hi = 1.0
        while hi - lo > 1e-13 {
            let mid = (lo + hi) / 2
            if SceneBezier.coordinate(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return SceneBezier.coordinate((lo + hi) / 2, y1, y2)
    }

    /// GQCircleLoadView's dot scale `u` seconds into its own 0.75 s cycle
    /// (SEEDS.md 3): 1 → 1.5 → 1, 0.25 s each way, ease-out, then rest.
    static func gqScale(_ u: Double) -> Double {
        var p = u.truncatingRemainder(dividingBy: 0.75)
        if p < 0 { p += 0.75 }
        if p < 0.25 { return 1 + 0.5 * easeOut(p / 0.25) }
        if p < 0.5 { return 1.5 - 0.5 * easeOut((p - 0.25) / 0.25) }
        return 1
    }
}

/// Measurements on rendered images (straight-alpha RGBA).
extension RGBAImage {
    func alpha(_ x: Int, _ y: Int) -> Int { Int(pixels[(y * width + x) * 4 + 3]) }
    func rgba(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(pixels[(y * width + x) * 4 + $0]) } }

    /// Coverage in pixels (alpha / 255 summed) over columns `xs` and rows `ys`.
    func coverage(xs: Range<Int>? = nil, ys: Range<Int>? = nil) -> Double {
        var sum = 0
        for y in ys ?? 0..<height { for x in xs ?? 0..<width { sum += alpha(x, y) } }
        return Double(sum) / 255
    }

    /// The alpha-weighted center of the ink in the given region, in pixels
    /// (pixel centers at +0.5).
    func centroid(xs: Range<Int>? = nil, ys: Range<Int>? = nil) -> (x: Double, y: Double)? {
        var sx = 0.0, sy = 0.0, s = 0.0
        for y in ys ?? 0..<height {
            for x in xs ?? 0..<width {
                let a = Double(alpha(x, y))
                sx += a * (Double(x) + 0.5); sy += a * (Double(y) + 0.5); s += a
            }
        }
        return s > 0 ? (sx / s, sy / s) : nil
    }

    /// The box around pixels with alpha ≥ `threshold`: (minX, minY, maxX, maxY) inclusive.
    func inkBox(threshold: Int = 128) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)? = nil
        for y in 0..<height {
            for x in 0..<width where alpha(x, y) >= threshold {
                if let b = box { box = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y)) } else { box = (x, y, x, y) }
            }
        }
        return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
    }
}
