import FoundationEssentials
import Glibc
import ThrobberCore

/// Decodes one still image (PNG of any kind, Apple CgBI PNG, JPEG, WebP;
/// the first frame of a GIF or animated WebP) into
/// straight RGBA, recognising the format by its signature, not its name.
public enum ImageDecoder {
    /// No side may be larger than this: a guard against decompression bombs
    /// and absurd inputs.
    public static let maxSide = 16384

    /// Reads and decodes `path`; errors name the file. A pipe or FIFO is
    /// refused unless `streams`. `memoryLimit` holds a decoder's own
    /// working memory (a progressive JPEG's coefficients), in bytes; nil:
    /// the machine's default budget.
    public static func decode(fileAt path: String, streams: Bool = true, memoryLimit: Int? = nil) throws
        -> RGBAImage
    {
        let bytes = try FileBytes.read(path, streams: streams)
        return try decode(bytes, name: path, memoryLimit: memoryLimit)
    }

    /// A whole file, with errors that name it (missing: .noInput; a
    /// folder: .data).
    public static func readFile(_ path: String) throws -> [UInt8] { try FileBytes.read(path) }

    /// Decodes an image held in memory; `name` is used in error messages,
    /// `memoryLimit` as in ``decode(fileAt:streams:memoryLimit:)``.
    public static func decode(_ bytes: [UInt8], name: String, memoryLimit: Int? = nil) throws -> RGBAImage {
        switch ImageFormat.sniff(bytes) {
        case .png:
            if CgBIDecoder.isCgBI(bytes) { return try CgBIDecoder.decode(bytes, name: name) }
            return try PNGDecoder.decode(bytes, name: name)
        case .jpeg:
            return try JPEGDecoder.decode(bytes, name: name, memoryLimit: memoryLimit)
        case .gif:
            guard let first = try GIFDecoder.decode(bytes, name: name, maxFrames: 1).frames.first else {
                throw ThrobberError(.data, "\(name): GIF has no frames")
            }
            return first
        case .webp:
            return try WebPDecoder.decode(bytes, name: name, keep: { $0 == 0 }).frames[0]
        case nil:
            throw ThrobberError(.data, "\(name): not a PNG, JPEG, GIF or WebP image (unrecognised signature)")
        }
    }
}
