/// Collects bytes in memory.
package final class MemorySink: ByteSink {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package func write(_ b: UnsafeRawBufferPointer) -> Bool {
        bytes.append(contentsOf: b)
        return true
    }
}
