import FoundationEssentials
import Glibc
import ThrobberKit

/// An error that is not a ``ThrobberError`` (one from Foundation, which
/// should have been caught where it happened), said in our words: the
/// file it names and the errno text, never a Foundation error domain.
enum ForeignError {
    /// `error` as an internal error (exit 70): "PATH: Not a directory".
    static func converted(_ error: Error) -> ThrobberError {
        let cocoa = error as? CocoaError
        let posix = error as? POSIXError ?? cocoa?.underlying as? POSIXError
        let path = cocoa?.filePath ?? cocoa?.url?.path
        let why =
            posix.map { String(cString: strerror($0.code.rawValue)) }
            ?? cocoa.flatMap { cocoaReasons[$0.code.rawValue] } ?? "failed"
        return ThrobberError(.software, (path.map { "\($0): " } ?? "") + why)
    }

    /// Foundation's file error codes (CocoaError.Code) that carry no errno.
    private static let cocoaReasons: [Int: String] = [
        4: "No such file or directory", 260: "No such file or directory", 257: "Permission denied",
        513: "Permission denied", 516: "File exists", 640: "No space left on device",
        256: "cannot be read", 512: "cannot be created or written",
    ]
}
