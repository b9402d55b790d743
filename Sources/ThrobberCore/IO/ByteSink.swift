import Foundation

/// Where encoded bytes go: a file, stdout, memory, or just a byte count.
package protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Why a write failed (the file and the errno text), once one has;
    /// nil for sinks that cannot fail.
    var failure: ThrobberError? { get }
}

extension ByteSink {
    /// Memory and counting sinks never fail.
    package var failure: ThrobberError? { nil }
}
