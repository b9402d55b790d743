import Foundation

/// Where encoded bytes go: a file, stdout, memory, or just a byte count.
protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool
}

/// Collects bytes in memory.
final class MemorySink: ByteSink {
    var bytes: [UInt8] = []
    func write(_ b: UnsafeRawBufferPointer) -> Bool { bytes.append(contentsOf: b); return true }
}

/// Counts bytes and throws them away: for measuring which encoding is smaller.
final class CountingSink: ByteSink {
    var count = 0
    func write(_ b: UnsafeRawBufferPointer) -> Bool { count += b.count; return true }
}
