import Foundation

/// Decodes one still image (PNG of any kind, Apple CgBI PNG, JPEG) into
/// straight RGBA, recognising the format by its signature, not its name.
public enum ImageDecoder {
    /// No side may be larger than this: a guard against decompression bombs
    /// and absurd inputs.
    public static let maxSide = 16384

    /// Reads and decodes `path`; errors name the file.
    public static func decode(fileAt path: String) throws -> RGBAImage {
        let bytes = try FileBytes.read(path)
        return try decode(bytes, name: path)
    }

    /// A whole file, with errors that name it (missing: .noInput; a
    /// folder: .data).
    public static func readFile(_ path: String) throws -> [UInt8] { try FileBytes.read(path) }

    /// Decodes an image held in memory; `name` is used in error messages.
    public static func decode(_ bytes: [UInt8], name: String) throws -> RGBAImage {
        switch ImageFormat.sniff(bytes) {
        case .png:
            if CgBIDecoder.isCgBI(bytes) { return try CgBIDecoder.decode(bytes, name: name) }
            return try PNGDecoder.decode(bytes, name: name)
        case .jpeg:
            return try JPEGDecoder.decode(bytes, name: name)
        case .gif:
            guard let first = try GIFDecoder.decode(bytes, name: name, maxFrames: 1).frames.first else {
                throw ThrobberError(.data, "\(name): GIF has no frames")
            }
            return first
        case nil:
            throw ThrobberError(.data, "\(name): not a PNG, JPEG or GIF image (unrecognised signature)")
        }
    }
}

/// Image formats Throbber recognises by their first bytes.
public enum ImageFormat: Sendable {
    case png, jpeg, gif

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        return nil
    }
}

/// File reads with errors that say which file and why.
enum FileBytes {
    /// The whole file.
    static func read(_ path: String) throws -> [UInt8] {
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
