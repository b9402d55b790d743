import FoundationEssentials
import Glibc
import ThrobberKit

/// What `check` found, entry by entry: printed for people (names with
/// control characters escaped, so a manifest cannot forge lines of the
/// report) and, with `--junit FILE`, written as JUnit XML for CI systems.
struct CheckReport {
    /// What became of one entry.
    enum Status: Equatable {
        /// Its hash is the recorded one.
        case passed
        /// `--update` recorded this hash, in place of another.
        case updated(String)
        /// `--update` made the recorded hash again.
        case unchanged
        /// `--update` recorded this hash for an entry that had none.
        case added(String)
        /// Its hash is not the recorded one.
        case mismatch
        /// Its command failed or wrote nothing.
        case cannotBeMade
        /// It has no recorded hash yet: made, but nothing to compare with.
        case new

        /// The word that starts the entry's line, padded so names line up
        /// ("unchanged", one letter longer, is followed by one space).
        var word: String {
            switch self {
            case .passed: "ok      "
            case .updated: "updated "
            case .unchanged: "unchanged "
            case .added: "new     "
            case .mismatch, .cannotBeMade: "FAILED  "
            case .new: "NEW     "
            }
        }

        /// The JUnit `<failure>` type, nil for an entry that passed.
        var failureType: String? {
            switch self {
            case .passed, .updated, .unchanged, .added: nil
            case .mismatch: "mismatch"
            case .cannotBeMade: "cannot-be-made"
            case .new: "new"
            }
        }
    }

    /// One entry's result.
    struct Result {
        var name: String
        var status: Status
        /// What the terminal says after the name, line by line: why it
        /// failed, then what a mismatch's pixels show; empty when it passed.
        var details: [String]
        var seconds: Double

        /// The entry's lines for the terminal: its status, name and first
        /// detail, the other details indented below.
        var terminalText: String {
            var head = status.word + CheckReport.printable(name)
            if case .updated(let hash) = status { head += "  \(hash)" }
            if case .added(let hash) = status { head += "  \(hash)" }
            guard let first = details.first else { return head }
            return ([head + ": " + first] + details.dropFirst().map { "        " + $0 }).joined(separator: "\n")
        }
    }

    /// The manifest, for the suite's name.
    let manifest: String
    private(set) var results: [Result] = []

    init(manifest: String) { self.manifest = manifest }

    /// Records an entry's result, and returns it.
    @discardableResult
    mutating func add(_ name: String, status: Status, details: [String] = [], seconds: Double) -> Result {
        results.append(Result(name: name, status: status, details: details, seconds: seconds))
        return results[results.count - 1]
    }

    /// Entries that failed (a mismatch or one that cannot be made).
    var failed: Int { results.filter { $0.status == .mismatch || $0.status == .cannotBeMade }.count }
    /// Entries without a recorded hash.
    var new: Int { results.filter { $0.status == .new }.count }

    /// The last line: "3 passed, 1 failed", with ", 2 new" when some
    /// entries have no hash recorded.
    var summary: String {
        let passed = results.count - failed - new
        return "\(passed) passed, \(failed) failed" + (new > 0 ? ", \(new) new" : "")
    }

    /// 1 when an entry failed; else 2 when an entry has no recorded hash
    /// (CI fails, distinguishably, until `--update` records it); else 0.
    var exitStatus: Int32 { failed > 0 ? 1 : new > 0 ? 2 : 0 }

    /// `s` with control characters, DEL and backslashes escaped (`\n`,
    /// `\x1b`, `\\`), so it prints on one line as what it is.
    static func printable(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u.value {
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029:
                out += "\\u{" + String(u.value, radix: 16) + "}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// The report as JUnit XML: one test suite, a test case per entry. An
    /// entry that did not pass has a `<failure>` whose `type` is
    /// `mismatch`, `cannot-be-made` or `new` (no hash recorded yet, a
    /// failure as the exit status is, so the report shows why CI failed);
    /// its `message` holds what the terminal says about it on one line
    /// (details joined by "; "), its text the same lines one per line.
    func junit() -> String {
        let failures = results.filter { $0.status.failureType != nil }.count
        let total = results.reduce(0) { $0 + $1.seconds }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" time=\"\(Self.time(total))\">\n"
        xml +=
            "  <testsuite name=\"\(Self.xml(manifest))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" time=\"\(Self.time(total))\">\n"
        for r in results {
            let head =
                "    <testcase classname=\"throbber check\" name=\"\(Self.xml(r.name))\" time=\"\(Self.time(r.seconds))\""
            if let type = r.status.failureType {
                let message = Self.xml(r.details.joined(separator: "; "))
                let text = r.details.map(Self.xml).joined(separator: "\n")
                xml +=
                    head
                    + ">\n      <failure type=\"\(type)\" message=\"\(message)\">\(text)</failure>\n    </testcase>\n"
            } else {
                xml += head + "/>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    private static func time(_ s: Double) -> String { cFormat("%.3f", s) }

    /// Text safe in XML 1.0 attributes and content: markup characters as
    /// entities, characters XML cannot hold escaped as by ``printable(_:)``.
    static func xml(_ s: String) -> String {
        var out = ""
        for c in printable(s) {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
