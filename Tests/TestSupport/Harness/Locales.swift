import Foundation

/// The locales tests run Throbber under, to show that its output does not
/// depend on them.
package enum Locales {
    /// Throws unless every locale of `names` ("de_DE.UTF-8") is installed
    /// (`locale -a`). A process asked for a missing locale runs in C
    /// instead, so a test of locale independence would pass without
    /// showing anything; `scripts/install-deps` compiles the ones the tests
    /// use.
    package static func require(_ names: String...) throws {
        let listed = try Command.run(URL(fileURLWithPath: "/usr/bin/locale"), ["-a"])
        func key(_ name: String) -> String { name.lowercased().replacingOccurrences(of: "-", with: "") }
        let installed = Set(listed.stdoutText.split(separator: "\n").map { key(String($0)) })
        for name in names where !installed.contains(key(name)) {
            throw HarnessError("the locale \(name) is not installed; run scripts/install-deps")
        }
    }
}
