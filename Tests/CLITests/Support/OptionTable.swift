import Foundation

/// The options a help page or the man page lists, read back from the text
/// a user sees: long name → the default it states (nil when it states none).
struct OptionTable: Equatable, CustomStringConvertible {
    var defaults: [String: String?] = [:]
    /// Short aliases, long name → letter.
    var shorts: [String: String] = [:]

    var names: Set<String> { Set(defaults.keys) }

    var description: String {
        defaults.keys.sorted().map {
            "--\($0)" + (shorts[$0].map { " (-\($0))" } ?? "") + ": "
                + (defaults[$0]!.map { "default \($0)" } ?? "no default")
        }
        .joined(separator: "\n")
    }

    /// The OPTIONS section of `--help`: an entry starts with "  -", its
    /// wrapped lines are indented further; `(default: …)` ends its text.
    init(help text: String) {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "OPTIONS:") else { return }
        var entries: [String] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("  -") {
                entries.append(line.trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("   "), !entries.isEmpty {
                entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            } else if !line.isEmpty {
                break
            }
        }
        for entry in entries {
            let words = entry.split(separator: " ").map(String.init)
            guard let long = words.prefix(3).first(where: { $0.hasPrefix("--") }) else { continue }
            let name = String(long.dropFirst(2))
            if words[0].count == 3, words[0].hasPrefix("-"), words[0].hasSuffix(",") {
                shorts[name] = String(words[0].dropFirst().dropLast())
            }
            defaults[name] = Self.match(#"\(default: (.*)\)$"#, in: entry)
        }
    }

    /// One subsection of the man page's OPTIONS (`nil`: the list before
    /// the first .Ss, throbber's own options), read from the mdoc source:
    /// `.It Fl o , -output Ar file`, then text lines, one `Default: ….`
    init?(mdoc source: String, subsection: String?) {
        var inOptions = false
        var current: String? = nil
        var found = subsection == nil
        var entries: [(head: String, text: String)] = []
        for line in source.components(separatedBy: "\n") {
            if line.hasPrefix(".Sh ") {
                inOptions = line == ".Sh OPTIONS"
                current = nil
                continue
            }
            guard inOptions else { continue }
            if line.hasPrefix(".Ss ") {
                current = String(line.dropFirst(4))
                if current == subsection { found = true }
                continue
            }
            guard current == subsection else { continue }
            if line.hasPrefix(".It ") {
                entries.append((line, ""))
            } else if line.hasPrefix(".El") || line.hasPrefix(".Bl") {
                continue
            } else if !line.hasPrefix("."), !entries.isEmpty {
                let text = line.replacingOccurrences(of: "\\&", with: "").replacingOccurrences(of: "\\e", with: "\\")
                entries[entries.count - 1].text += (entries[entries.count - 1].text.isEmpty ? "" : " ") + text
            }
        }
        guard found else { return nil }
        for entry in entries {
            let words = entry.head.split(separator: " ").map(String.init)
            guard words.count > 2, words[1] == "Fl" else { continue }  // `.It Ar NAME`: an argument
            let flags = words.dropFirst(2).prefix { $0 != "Ar" && $0 != "Cm" }.filter { $0 != "," }
            guard let long = flags.first(where: { $0.hasPrefix("-") }) else { continue }
            let name = String(long.dropFirst())
            if let short = flags.first(where: { !$0.hasPrefix("-") }) { shorts[name] = short }
            defaults[name] = Self.match(#"(?:^|\. )Default: (.*)\.$"#, in: entry.text)
        }
    }

    private static func match(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let m = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let r = Range(m.range(at: 1), in: text)
        else { return nil }
        return String(text[r])
    }
}
