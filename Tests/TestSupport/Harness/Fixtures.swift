import Foundation
import Testing
import ThrobberKit

/// The real-world images in `../shared/fixtures` (beside the repository),
/// found from this file's path, never from the working directory.
package enum Fixtures {
    /// The package root: Tests/TestSupport/Harness/Fixtures.swift → ../../..
    package static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// ../shared/fixtures beside the package root.
    package static let root = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    package static var isPresent: Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDir) && isDir.boolValue
    }

    package static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Skips a test when the fixtures are missing, except on CI, where the
    /// test runs and fails at `folder(_:)`.
    package static let needed: ConditionTrait = .enabled(
        if: isPresent || isCI, "../shared/fixtures is not beside the repository; fixture tests skipped")

    /// A fixture folder; records a failure (and throws) if it is missing.
    package static func folder(_ name: String) throws -> URL {
        let url = root.appendingPathComponent(name)
        var isDir: ObjCBool = false
        try #require(
            FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue,
            "fixture folder missing: \(url.path)")
        return url
    }

    /// Sorted file names in a fixture folder with the given suffix and
    /// prefix; empty if the folder is missing (usable in `arguments:`).
    package static func names(in folder: String, prefix: String = "", suffix: String) -> [String] {
        let dir = root.appendingPathComponent(folder).path
        let all = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
    }
}

/// Runs a helper from Tests/tools with Debian's python3 (which has Pillow;
/// a `python3` on PATH may not). Returns stdout; a non-zero exit is a
/// recorded failure and a thrown error.
package enum ToolRunner {
    package static let python = "/usr/bin/python3"
    package static let tools = Fixtures.repository.appendingPathComponent("Tests/tools")

    package struct Failed: Error, CustomStringConvertible { package var description: String }

    package static func python(_ script: String, _ arguments: [String]) throws -> Data {
        let r = try Command.run(URL(fileURLWithPath: python), [tools.appendingPathComponent(script).path] + arguments)
        guard r.status == 0 else {
            Issue.record("\(script) failed (\(r.status)): \(r.stderrText)")
            throw Failed(description: "\(script) failed: \(r.stderrText)")
        }
        return r.stdout
    }
}

/// What an independent decoder produced for one image.
package struct ReferenceImage {
    package var width: Int, height: Int
    package var pixels: [UInt8]
    /// "pillow", or "raw16" for the 16-bit reader of reference_decode.py.
    package var via: String
}

/// Decodes `files` with Tests/tools/reference_decode.py (Pillow, or its own
/// 16-bit PNG reader), keyed by file name.
package func referenceDecode(_ files: [String]) throws -> [String: ReferenceImage] {
    try withTemporaryDirectory { dir in
        let json = try ToolRunner.python("reference_decode.py", [dir.path] + files)
        let manifest = try JSONDecoder().decode([String: [String: JSONScalar]].self, from: json)
        var result: [String: ReferenceImage] = [:]
        for (name, info) in manifest {
            let pixels = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name + ".rgba")))
            result[name] = ReferenceImage(
                width: info["width"]!.int!, height: info["height"]!.int!,
                pixels: pixels, via: info["via"]!.string!)
        }
        return result
    }
}

/// Pillow's decode of each file (reference_decode.py), as images in the
/// order given: the expected pixels of a file, never ThrobberKit's decode.
package func referenceImages(_ files: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [RGBAImage]
{
    let decoded = try referenceDecode(files)
    return try files.map { file in
        let r = try #require(
            decoded[URL(fileURLWithPath: file).lastPathComponent], "no reference decode for \(file)",
            sourceLocation: sourceLocation)
        return RGBAImage(width: r.width, height: r.height, pixels: r.pixels)
    }
}

/// A JSON number or string (enough for the tools' small manifests).
package enum JSONScalar: Decodable {
    case int(Int)
    case string(String)
    case null
    package init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let i = try? c.decode(Int.self) {
            self = .int(i)
        } else {
            self = .string(try c.decode(String.self))
        }
    }
    package var int: Int? {
        if case .int(let i) = self { return i }
        return nil
    }
    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

/// Compares two RGBA buffers of one size, allowing `tolerance` per channel.
/// On a mismatch, records one issue saying how many pixels differ and where
/// the first one is, and returns false.
@discardableResult
package func expectPixels(
    _ actual: [UInt8], _ expected: [UInt8], width: Int, tolerance: Int = 0,
    _ what: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard actual.count == expected.count else {
        Issue.record(
            "\(what()): \(actual.count / 4) pixels, expected \(expected.count / 4)",
            sourceLocation: sourceLocation)
        return false
    }
    var bad = 0
    var first = -1
    var worst = 0
    for p in stride(from: 0, to: actual.count, by: 4) {
        var d = 0
        for c in 0..<4 { d = max(d, abs(Int(actual[p + c]) - Int(expected[p + c]))) }
        if d > tolerance {
            bad += 1
            if first < 0 { first = p }
        }
        worst = max(worst, d)
    }
    guard bad > 0 else { return true }
    let i = first / 4
    Issue.record(
        """
        \(what()): \(bad) of \(actual.count / 4) pixels differ by more than \(tolerance) (worst \(worst)); \
        first at (\(i % width), \(i / width)): got \(Array(actual[first..<first + 4])), \
        expected \(Array(expected[first..<first + 4]))
        """, sourceLocation: sourceLocation)
    return false
}

/// The error a call throws, as a ThrobberError; records a failure if it
/// returns normally or throws something else.
package func throbberError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation)
    -> ThrobberError?
{
    do {
        try body()
        Issue.record("expected a ThrobberError, but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as ThrobberError {
        return error
    } catch {
        Issue.record("expected a ThrobberError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
