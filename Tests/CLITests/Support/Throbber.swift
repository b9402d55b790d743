import Foundation
import TestSupport

/// The built `throbber` executable under test.
enum Throbber {
    /// Where the binary was looked for, for the failure message.
    private static var candidates: [URL] {
        var list: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["THROBBER_BIN"], !explicit.isEmpty {
            return [URL(fileURLWithPath: explicit)]
        }
        // `swift test` on Linux runs <scratch>/<config>/<Package>PackageTests.xctest,
        // an executable that sits next to the products it depends on.
        if let exe = Bundle.main.executableURL {
            list.append(exe.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        list.append(argv0.deletingLastPathComponent())
        // On Darwin the tests are a bundle: <dir>/X.xctest/Contents/MacOS/X.
        list.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            list.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return list.map { $0.appendingPathComponent("throbber") }
    }

    static let binary: Result<URL, HarnessError> = {
        let tried = candidates
        if let found = tried.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return .success(found)
        }
        let names = tried.map(\.path).joined(separator: ", ")
        return .failure(
            HarnessError(
                "cannot find the built 'throbber' executable (looked at: \(names)); build with 'swift build --build-tests' or set THROBBER_BIN"
            ))
    }()

    /// Runs `throbber arguments...` and returns its exit status and output;
    /// standard input is `stdin`'s content, or empty (/dev/null).
    static func run(
        _ arguments: [String], environment: [String: String?] = [:],
        in workingDirectory: URL? = nil, stdin: URL? = nil
    ) throws -> CommandResult {
        try Command.run(
            binary.get(), arguments, environment: environment, workingDirectory: workingDirectory, stdin: stdin)
    }
}
