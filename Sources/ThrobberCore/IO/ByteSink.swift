import Foundation

/// Where encoded bytes go: a file, stdout, memory, or just a byte count.
package protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool
}
