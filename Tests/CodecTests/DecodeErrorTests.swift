import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// Bad input is refused with a ThrobberError of the right kind whose
/// message starts with the file it is about. (Corrupt PngSuite files are
/// in PNGSuiteDecodeTests.)
@Suite("Refusing bad input")
struct DecodeErrorTests {
    /// A fixture file; fails the test if its folder is missing.
    static func fixture(_ relative: String) throws -> URL {
        try Fixtures.folder(String(relative.split(separator: "/")[0])).appendingPathComponent(
            String(relative.split(separator: "/")[1]))
    }

    @Test(
        "a truncated JPEG is refused as bad data, not padded with gray", Fixtures.needed, arguments: [0.5, 0.9, 0.99])
    func truncatedJPEG(keep fraction: Double) throws {
        let original = [UInt8](try Data(contentsOf: try Self.fixture("photo-seq-dlib-bobot/frame_000100.jpg")))
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("cut.jpg").path
            let cut = Int(Double(original.count) * fraction)
            try Data(original[..<cut]).write(to: URL(fileURLWithPath: path))
            let error = throbberError { _ = try ImageDecoder.decode(fileAt: path) }
            #expect(error?.kind == .data, "\(cut) of \(original.count) bytes: \(String(describing: error))")
            #expect(error?.message.hasPrefix(path + ": ") == true, "\(error?.message ?? "")")
        }
    }

    @Test("a valid PNG larger than 16384 pixels on a side is refused naming its size and the limit, not 'Invalid IHDR'")
    func oversizedPNG() throws {
        try withTemporaryDirectory { dir in
            // 20000x20000 gray, all zero: 390 kB of deflate, written by Python's zlib.
            let path = dir.appendingPathComponent("huge.png").path
            let script = """
                import struct, sys, zlib
                def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
                c = zlib.compressobj(9); rows = b''.join(c.compress(b'\\0' * 20001) for _ in range(20000)) + c.flush()
                ihdr = struct.pack('>IIBBBBB', 20000, 20000, 8, 0, 0, 0, 0)
                open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', rows) + chunk(b'IEND', b''))
                """
            let r = try Command.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, path])
            #expect(r.status == 0, "\(r.stderrText)")
            let error = throbberError { _ = try ImageDecoder.decode(fileAt: path) }
            #expect(error?.kind == .data)
            #expect(
                error?.message == "\(path): not a valid PNG: image is 20000x20000, larger than 16384 pixels on a side",
                "\(error?.message ?? "")")
        }
    }

    @Test("a truncated PNG is refused as bad data", Fixtures.needed)
    func truncatedPNG() throws {
        let original = [UInt8](try Data(contentsOf: try Self.fixture("pngsuite/basn6a08.png")))
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("cut.png").path
            try Data(original[..<(original.count * 2 / 3)]).write(to: URL(fileURLWithPath: path))
            let error = throbberError { _ = try ImageDecoder.decode(fileAt: path) }
            #expect(error?.kind == .data)
            #expect(error?.message.hasPrefix(path + ": ") == true, "\(error?.message ?? "")")
        }
    }

    @Test(
        "a file that is no image is refused as bad data, a still GIF decodes to its picture; a missing file is 'no input'",
        Fixtures.needed)
    func notAnImage() throws {
        try withTemporaryDirectory { dir in
            let text = dir.appendingPathComponent("notes.png").path
            try Data("not an image\n".utf8).write(to: URL(fileURLWithPath: text))
            let e1 = throbberError { _ = try ImageDecoder.decode(fileAt: text) }
            #expect(e1?.kind == .data && e1?.message.hasPrefix(text + ": ") == true, "\(String(describing: e1))")

            // solid2.gif: one 640x400 frame, no transparency.
            let gif = try ImageDecoder.decode(fileAt: try Self.fixture("gif-giflib/solid2.gif").path)
            #expect(gif.width == 640 && gif.height == 400)
            #expect(stride(from: 3, to: gif.pixels.count, by: 4).allSatisfy { gif.pixels[$0] == 255 })

            let missing = dir.appendingPathComponent("missing.png").path
            let e3 = throbberError { _ = try ImageDecoder.decode(fileAt: missing) }
            #expect(e3?.kind == .noInput && e3?.message.hasPrefix(missing + ": ") == true, "\(String(describing: e3))")
        }
    }

    @Test("frames of different sizes are refused as bad data, naming the odd file and the first", Fixtures.needed)
    func framesOfDifferentSizes() throws {
        let first = try Self.fixture("pngsuite/basn6a08.png").path  // 32x32
        let second = try Self.fixture("pngsuite/basn2c08.png").path  // 32x32
        let odd = try Self.fixture("photo-seq-dlib-bobot/frame_000100.jpg").path  // 320x240
        let source = try FileFrameSource(files: [first, second, odd])
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.gif").path
            let error = throbberError {
                let output = try OutputFile(path: out)
                _ = try AnimationEncoder(format: .gif, settings: .with { $0.jobs = 1 }).encode(source, to: output)
                try output.commit()
            }
            #expect(error?.kind == .data, "\(String(describing: error))")
            #expect(error?.message.hasPrefix(odd + ": ") == true, "\(error?.message ?? "")")
            #expect(
                error?.message.contains("320x240") == true && error?.message.contains(first) == true,
                "the message should give both sizes and the first file: \(error?.message ?? "")")
            // A failed encode leaves nothing behind in the output folder.
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }

    @Test("in-memory frames of different sizes are refused too, naming the frame by its 1-based number")
    func memoryFramesOfDifferentSizes() throws {
        let frames = [Synth.solid(1, 2, 3), Synth.solid(4, 5, 6, width: 17, height: 16)]
        try withTemporaryDirectory { dir in
            let output = try OutputFile(path: dir.appendingPathComponent("out.gif").path)
            let error = throbberError {
                _ = try AnimationEncoder(format: .gif, settings: .with { $0.jobs = 2 }).encode(
                    MemoryFrameSource(frames), to: output)
            }
            output.discard()
            #expect(error?.kind == .data)
            // The second frame is the one of another size: frame 2.
            #expect(error?.message.hasPrefix("frame 2: ") == true, "\(error?.message ?? "")")
        }
    }
}
