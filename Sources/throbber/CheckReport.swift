import FoundationEssentials
import Glibc
import ThrobberKit

/// What `check` found, entry by entry: printed for people (names with
/// control characters escaped, so a manifest cannot forge lines of the
/// report) and, with `--junit FILE`, written as JUnit XML for CI systems.
struct CheckReport {
    /// One entry's result.
    struct Result {
        var name: String
        /// nil: it passed; else why not.
        var failure: String?
        var seconds: Double
    }

    /// The manifest, for the suite's name.
    let manifest: String
    private(set) var results: [Result] = []

    init(manifest: String) { self.manifest = manifest }

    mutating func add(_ name: String, failure: String?, seconds: Double) {
        results.append(Result(name: name, failure: failure, seconds: seconds))
    }

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

    /// The report as JUnit XML: one test suite, a test case per entry.
    func junit() -> String {
        let failures = results.filter { $0.failure != nil }.count
        let total = results.reduce(0) { $0 + $1.seconds }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" time=\"\(Self.time(total))\">\n"
        xml +=
            "  <testsuite name=\"\(Self.xml(manifest))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" time=\"\(Self.time(total))\">\n"
        for r in results {
            let head =
                "    <testcase classname=\"throbber check\" name=\"\(Self.xml(r.name))\" time=\"\(Self.time(r.seconds))\""
            if let f = r.failure {
                xml += head + ">\n      <failure message=\"\(Self.xml(f))\">\(Self.xml(f))</failure>\n    </testcase>\n"
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
