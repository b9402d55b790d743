/// Counts bytes and throws them away: for measuring which encoding is
/// smaller, or how large a file would get. Once `stop` is set it refuses
/// writes, so the encode writing to it ends with a write error.
package final class CountingSink: ByteSink {
    package private(set) var count = 0
    /// Refuse every write from now on.
    package var stop = false

    package init() {}

    package func write(_ b: UnsafeRawBufferPointer) -> Bool {
        guard !stop else { return false }
        count += b.count
        return true
    }
}
