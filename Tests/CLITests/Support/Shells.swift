import Foundation
import TestSupport
import Testing

/// The shells whose completion scripts the tests load (Debian's bash, zsh
/// and fish; scripts/install-deps installs them).
enum Shells {
    static func path(_ name: String) -> URL? {
        ["/usr/bin/\(name)", "/bin/\(name)"].map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The shell, or a failure that says how to install it.
    static func require(_ name: String) throws -> URL {
        guard let url = path(name) else {
            throw HarnessError("\(name) is not installed; scripts/install-deps installs it (apt-get install \(name))")
        }
        return url
    }

    /// Runs `shell arguments…` with HOME and the XDG folders in `dir`, so no
    /// user configuration is read and nothing is written outside `dir`.
    static func run(
        _ shell: URL, _ arguments: [String], in dir: URL,
        environment extra: [String: String?] = [:]
    ) throws -> CommandResult {
        var environment: [String: String?] = [
            "HOME": dir.path, "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
            "XDG_DATA_HOME": dir.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
            "ZDOTDIR": dir.path, "TERM": "dumb", "BASH_ENV": nil, "ENV": nil,
        ]
        environment.merge(extra) { $1 }
        return try Command.run(shell, arguments, environment: environment, workingDirectory: dir, timeout: 60)
    }

    /// `throbber completions SHELL`, written to `dir/name`.
    static func script(_ shell: String, named name: String, in dir: URL) throws -> URL {
        let r = try Throbber.run(["completions", shell])
        guard r.status == 0, r.stderr.isEmpty else {
            throw HarnessError("throbber completions \(shell) exited \(r.status): \(r.stderrText)")
        }
        let url = dir.appendingPathComponent(name)
        try r.stdout.write(to: url)
        return url
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a test (with a message) when the shell is missing, unless
    /// CI=true, where the test runs and fails on it.
    static func needsShell(_ name: String) -> Self {
        .enabled(
            if: Shells.path(name) != nil || Fixtures.onCI,
            Comment(rawValue: "skipped: \(name) is not installed (scripts/install-deps installs it)"))
    }
}
