internal import CDeflate
internal import CZopfli
import ThrobberCore

/// The deflate implementations PNG streams are made with (zlib's own
/// deflate lost to libdeflate on size and time: docs/benchmarks.md), each
/// returning a complete zlib stream (header, data, Adler-32).
enum Deflate {
    /// libdeflate at `level` (1–12): whole-buffer, faster than zlib at the
    /// same size, and smaller at its levels 10–12 (docs/benchmarks.md).
    static func libdeflate(_ data: [UInt8], level: Int32) throws -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(level) else {
            throw ThrobberError(.software, "libdeflate: could not allocate a level \(level) compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        var out = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, data.count))
        let n = data.withUnsafeBytes { inBuf in
            out.withUnsafeMutableBytes { outBuf in
                libdeflate_zlib_compress(compressor, inBuf.baseAddress, inBuf.count, outBuf.baseAddress, outBuf.count)
            }
        }
        guard n > 0 else { throw ThrobberError(.software, "libdeflate: output did not fit its bound") }
        out.removeSubrange(n...)
        return out
    }

    /// zopfli with `iterations` rounds of its optimal parser: the smallest
    /// deflate streams, at about a hundred times libdeflate's time.
    static func zopfli(_ data: [UInt8], iterations: Int32) -> [UInt8] {
        var options = ZopfliOptions()
        ZopfliInitOptions(&options)
        options.numiterations = iterations
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        data.withUnsafeBufferPointer { inBuf in
            ZopfliCompress(&options, ZOPFLI_FORMAT_ZLIB, inBuf.baseAddress, inBuf.count, &out, &size)
        }
        defer { throbber_zopfli_free(out) }
        guard let out else { return [] }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
