import ThrobberKit

/// A file size as `--max-bytes` takes it: a number of bytes, optionally
/// with a unit. k, M and G (also kB, MB, GB) count in thousands, as disk
/// and upload limits do; KiB, MiB and GiB in 1024s; B is bytes. Decimals
/// are allowed (1.5M); the result is rounded down to whole bytes.
enum ByteSize {
    static let units: [(suffix: String, factor: Double)] = [
        ("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024),
        ("kB", 1e3), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9),
        ("k", 1e3), ("K", 1e3), ("M", 1e6), ("G", 1e9), ("B", 1),
    ]

    /// The size in bytes, or nil when `text` is not one (or is 0 or more
    /// than 2^53).
    static func parse(_ text: String) -> Int? {
        var number = text.trimmedWhitespace()
        var factor = 1.0
        if let unit = units.first(where: { number.hasSuffix($0.suffix) }) {
            number = String(number.dropLast(unit.suffix.count)).trimmedWhitespace()
            factor = unit.factor
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.filter({ $0 == "." }).count <= 1, let value = Double(number)
        else { return nil }
        let bytes = (value * factor).rounded(.down)
        guard bytes >= 1, bytes <= 9_007_199_254_740_992 else { return nil }
        return Int(bytes)
    }

    /// "1.98 MB", "245.3 kB" or "900 bytes" (thousands, as the units above).
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1_000_000 { return cFormat("%.2f MB", Double(bytes) / 1e6) }
        if bytes >= 1000 { return cFormat("%.1f kB", Double(bytes) / 1e3) }
        return "\(bytes) bytes"
    }
}
