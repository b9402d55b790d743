/// Counts bytes and throws them away: for measuring which encoding is smaller.
package final class CountingSink: ByteSink {
    package private(set) var count = 0

    package init() {}

    package func write(_ b: UnsafeRawBufferPointer) -> Bool {
        count += b.count
        return true
    }
}
