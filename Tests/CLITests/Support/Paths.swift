import Foundation
import TestSupport
import Testing

/// Paths found from this source file, never from the working directory.
enum Paths {
    /// The package root (…/Tests/CLITests/Support/Paths.swift → …).
    static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let tools = repository.appendingPathComponent("Tests/tools")
    static let manPage = repository.appendingPathComponent("man/throbber.1")
}

/// The shared, read-only image fixtures (../shared/fixtures from the repo root).
enum Fixtures {
    static let root = Paths.repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    static var available: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("SOURCES.md").path)
    }
    /// On CI a missing fixture folder is a failure, not a skip.
    static var onCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    static func url(_ relative: String) throws -> URL {
        let url = root.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw HarnessError("fixture \(url.path) is missing (see ../shared/fixtures/SOURCES.md)")
        }
        return url
    }

    /// The 60 CgBI frames dropdown_anim__0001@2x.png … dropdown_anim__00060@2x.png,
    /// and their standard-PNG conversions (readable by Pillow), in frame order.
    static let mjAnimGlob = "dropdown_anim__*"
    static func mjFrameName(_ n: Int) -> String { "dropdown_anim__000\(n)@2x.png" }
    static func mjNormalized(_ n: Int) throws -> URL { try url("mjrefresh-dropdown_anim/normalized/\(mjFrameName(n))") }
}

extension Trait where Self == ConditionTrait {
    /// Skips a test (with a message) when ../shared/fixtures is absent,
    /// unless CI=true, where the test runs and fails on the missing files.
    static var needsFixtures: Self {
        .enabled(
            if: Fixtures.available || Fixtures.onCI,
            Comment(rawValue: "skipped: image fixtures not found at \(Fixtures.root.path)"))
    }
}
