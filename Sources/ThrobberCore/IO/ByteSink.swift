import FoundationEssentials
import Glibc

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

extension ByteSink {
    /// Writes all of `bytes`; throws the sink's own error (an
    /// ``OutputFile`` names its file and the reason) when it fails.
    package func put(_ bytes: [UInt8]) throws {
        if let file = self as? OutputFile {
            try file.write(bytes)
        } else if !bytes.withUnsafeBytes({ write($0) }) {
            throw failure ?? ThrobberError(.io, "write failed")
        }
    }
}
