import Foundation
import ThrobberCore

/// File reads with errors that say which file and why.
package enum FileBytes {
    /// The whole file.
    package static func read(_ path: String) throws -> [UInt8] {
        try reading(path) { [UInt8](try $0.readToEnd() ?? Data()) }
    }

    /// Whether the file holds an animation: a GIF, or a PNG whose acTL
    /// comes before its image data. A PNG is walked chunk header by chunk
    /// header, so however large its leading chunks, a still costs a few
    /// small reads here and is read whole only when decoded.
    static func isAnimation(_ path: String) throws -> Bool {
        try reading(path) { handle in
            switch ImageFormat.sniff([UInt8](try handle.read(upToCount: 8) ?? Data())) {
            case .gif: return true
            case .png:
                return try APNGDecoder.isAnimated { offset in
                    try handle.seek(toOffset: UInt64(offset))
                    return [UInt8](try handle.read(upToCount: 8) ?? Data())
                }
            default: return false
            }
        }
    }

    private static func reading<T>(_ path: String, _ body: (FileHandle) throws -> T) throws -> T {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ThrobberError(.noInput, "\(path): no such file")
        }
        if isDir.boolValue { throw ThrobberError(.data, "\(path): is a folder, expected an image file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ThrobberError(.noInput, "\(path): cannot be opened for reading (permission denied?)")
        }
        defer { try? handle.close() }
        do {
            return try body(handle)
        } catch {
            throw ThrobberError(.io, "\(path): read failed: \(error.localizedDescription)")
        }
    }
}
