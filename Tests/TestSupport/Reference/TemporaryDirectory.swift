import Foundation

/// Fresh folders for tests, made with mkdtemp (unique even across
/// processes running at once).
public enum TemporaryDirectory {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func make(prefix: String) throws -> URL {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/throbber-tests-\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw Failure(description: "mkdtemp failed in \(base): errno \(errno)") }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}

/// Runs `body` with a fresh empty folder that is deleted afterwards, even
/// when `body` throws.
public func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let dir = try TemporaryDirectory.make(prefix: "work")
    defer { try? FileManager.default.removeItem(at: dir) }
    return try body(dir)
}
