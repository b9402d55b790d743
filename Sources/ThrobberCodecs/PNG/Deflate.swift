internal import CDeflate
internal import CZopfli
import Synchronization
import ThrobberCore

/// The deflate implementations PNG streams are made with (zlib's own
/// deflate lost to libdeflate on size and time: docs/tuning.md, "APNG:
/// choosing the deflate"), each returning a complete zlib stream (header,
/// data, Adler-32).
enum Deflate {
    /// libdeflate at `level` (1–12): whole-buffer, faster than zlib at the
    /// same size, and smaller at its levels 10–12 (docs/tuning.md, "APNG:
    /// choosing the deflate").
    static func libdeflate(_ data: [UInt8], level: Int32) throws -> [UInt8] {
        try withLibdeflate(data, level: level) { Array($0) }
    }

    /// The size of `data`'s libdeflate stream at `level`, for comparing
    /// encodings of a frame: nothing is kept.
    static func libdeflateSize(_ data: [UInt8], level: Int32) throws -> Int {
        try withLibdeflate(data, level: level) { $0.count }
    }

    private static func withLibdeflate<T: Sendable>(
        _ data: [UInt8], level: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) throws -> T {
        let compressor = try compressors.take(level)
        defer { compressors.give(compressor, level) }
        return try compressor.compress(data, body)
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

    /// A libdeflate compressor and an output buffer. The pool hands each to
    /// one caller at a time; the lock around them costs an uncontended take
    /// per frame and lets the compiler check that no two threads share them.
    final class Compressor: Sendable {
        private let state: Mutex<State>

        /// A compressor at `level`, or nil when libdeflate cannot allocate one.
        init?(level: Int32) {
            guard let pointer = libdeflate_alloc_compressor(level) else { return nil }
            state = Mutex(State(pointer: pointer))
        }

        deinit {
            state.withLock { state in
                libdeflate_free_compressor(state.pointer)
                state.buffer?.deallocate()
            }
        }

        /// `body` of `data`'s zlib stream, made in the compressor's buffer.
        func compress<T: Sendable>(_ data: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> T) throws -> T {
            try state.withLock { state in
                let bound = libdeflate_zlib_compress_bound(state.pointer, data.count)
                let out = state.scratch(bound)
                let n = data.withUnsafeBytes { inBuf in
                    libdeflate_zlib_compress(state.pointer, inBuf.baseAddress, inBuf.count, out, bound)
                }
                guard n > 0 else { throw ThrobberError(.software, "libdeflate: output did not fit its bound") }
                return body(UnsafeBufferPointer(start: out, count: n))
            }
        }

        /// Lets go of a buffer too large to keep for the next frame: the
        /// memory plan counts a frame's compression only while it runs.
        func trim() { state.withLock { $0.trim() } }

        /// The libdeflate compressor and its output buffer.
        private struct State {
            let pointer: OpaquePointer
            var buffer: UnsafeMutablePointer<UInt8>? = nil
            var capacity = 0

            /// At least `count` bytes to compress into.
            mutating func scratch(_ count: Int) -> UnsafeMutablePointer<UInt8> {
                if let buffer, capacity >= count { return buffer }
                buffer?.deallocate()
                let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
                buffer = fresh
                capacity = count
                return fresh
            }

            /// Frees a buffer over ``Deflate/keptBuffer``.
            mutating func trim() {
                guard capacity > Deflate.keptBuffer else { return }
                buffer?.deallocate()
                buffer = nil
                capacity = 0
            }
        }
    }

    /// Output buffers up to this size stay with their compressor.
    static let keptBuffer = 8 << 20

    /// Compressors kept for the next frame: at levels 10–12 one holds about
    /// a megabyte of match-finder tables, which the command line's heap
    /// policy would otherwise map and fault in afresh for every frame, and
    /// the output buffer is as large as the frame. At most one per level
    /// for each thread that compressed at once.
    private static let compressors = Pool()

    final class Pool: Sendable {
        private let idle = Mutex<[Int32: [Compressor]]>([:])

        func take(_ level: Int32) throws -> Compressor {
            if let kept = idle.withLock({ $0[level]?.popLast() }) { return kept }
            guard let fresh = Compressor(level: level) else {
                throw ThrobberError(.software, "libdeflate: could not allocate a level \(level) compressor")
            }
            return fresh
        }

        func give(_ compressor: Compressor, _ level: Int32) {
            compressor.trim()
            idle.withLock { $0[level, default: []].append(compressor) }
        }
    }
}
