import ThrobberKit

extension Arguments {
    /// `--max-memory SIZE` as a budget; nil when not given (the machine's
    /// default applies). Throws a usage error for a size it cannot read.
    func memoryBudget() throws -> MemoryBudget? {
        guard let text = string("max-memory") else { return nil }
        guard let bytes = ByteSize.parse(text) else {
            throw ThrobberError(
                .usage, "--max-memory expects a size like 2G, 512M (1000-based) or 1.5GiB (1024-based), got '\(text)'")
        }
        return MemoryBudget(limit: bytes)
    }
}
