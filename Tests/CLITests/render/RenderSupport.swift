import Foundation
import TestSupport
import Testing

/// Helpers for the `render` and `preset` tests: writing configs, running the
/// binary, and the Pillow/numpy measurements in Tests/tools/scene_*.py.
enum SceneCLI {
    static let examples = Paths.repository.appendingPathComponent("examples")
    static let schema = Paths.repository.appendingPathComponent("schema/throbber.schema.json")

    /// Writes `text` to `dir/name` and returns its URL.
    @discardableResult
    static func write(_ text: String, to dir: URL, as name: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// `throbber render CONFIG -o OUT -q`, expecting success and silence.
    @discardableResult
    static func render(
        _ config: URL, to out: URL, extra: [String] = [], in cwd: URL? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        let r = try Throbber.run(["render", config.path, "-o", out.path, "-q"] + extra, in: cwd)
        #expect(
            r.status == 0, "render \(config.lastPathComponent) failed: \(r.stderrText)", sourceLocation: sourceLocation)
        #expect(r.stderr.isEmpty, "unexpected stderr: \(r.stderrText)", sourceLocation: sourceLocation)
        return r
    }

    /// Names listed by `throbber presets` (the first word of each line).
    static func presetNames() throws -> [String] {
        let r = try Throbber.run(["presets"])
        guard r.status == 0 else { throw HarnessError("throbber presets failed: \(r.stderrText)") }
        return r.stdoutText.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Centisecond frame starts of a cycle of `frames` frames lasting
    /// `numerator/denominator` seconds: floor(100·k·duration/N + 1/2),
    /// computed here in integers (man throbber, CONFIG FORMAT: timing).
    static func starts(frames n: Int, durationNumerator p: Int, denominator q: Int) -> [Int] {
        // floor(100·k·p/(q·n) + 1/2) = floor((200·k·p + q·n) / (2·q·n))
        (0...n).map { k in (200 * k * p + q * n) / (2 * q * n) }
    }

    /// Delays in ms that the config format's formula gives for such a cycle.
    static func expectedDelaysMs(frames n: Int, durationNumerator p: Int, denominator q: Int) -> [Int] {
        let s = starts(frames: n, durationNumerator: p, denominator: q)
        return (0..<n).map { (s[$0 + 1] - s[$0]) * 10 }
    }
}

/// Ink profiles of every GIF frame (scene_profiles.py).
struct InkProfiles: Decodable {
    struct Frame: Decodable {
        var duration: Int?
        var columns: [Int]
        var rows: [Int]
        /// Most common ink colors: [r, g, b, a, count].
        var colors: [[Int]]

        /// Ink pixels with x in `range`.
        func area(_ range: Range<Int>) -> Int { columns[range].reduce(0, +) }
        var area: Int { columns.reduce(0, +) }

        /// Maximal runs of columns holding ink: (first, last, tallest column).
        var columnRuns: [(first: Int, last: Int, height: Int)] {
            var runs: [(Int, Int, Int)] = []
            var x = 0
            while x < columns.count {
                guard columns[x] > 0 else {
                    x += 1
                    continue
                }
                let start = x
                while x < columns.count && columns[x] > 0 { x += 1 }
                runs.append((start, x - 1, columns[start..<x].max()!))
            }
            return runs
        }

        /// Width and height of the box around all ink (0 when none).
        var inkWidth: Int { extent(columns) }
        var inkHeight: Int { extent(rows) }
        private func extent(_ profile: [Int]) -> Int {
            guard let a = profile.firstIndex(where: { $0 > 0 }), let b = profile.lastIndex(where: { $0 > 0 }) else {
                return 0
            }
            return b - a + 1
        }
    }
    var width: Int
    var height: Int
    var frames: [Frame]
    var durations: [Int] { frames.map { $0.duration ?? -1 } }

    static func measure(_ gif: URL, inkBelowWhite: Int? = nil) throws -> InkProfiles {
        var args = [gif.path]
        if let inkBelowWhite { args += ["--ink-below-white", String(inkBelowWhite)] }
        return try JSONDecoder().decode(InkProfiles.self, from: Pillow.script("scene_profiles.py", args))
    }
}
