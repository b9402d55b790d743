internal import CZlib
import ThrobberCore

/// Turns rows of pixels into PNG image data: a filter chosen per row, then
/// zlib deflate. Pure and thread-safe, so frames compress in parallel.
public struct PNGCompressor: Sendable {
    /// How hard deflate works: a trade of time for size.
    public enum Effort: String, Sendable, CaseIterable {
        /// zlib level 6, one filter strategy.
        case fast
        /// The smaller of zlib level 8 (memLevel 9) and fast's level 6: 2–3%
        /// smaller on photographic frames, and never larger than fast (zlib's
        /// levels are not monotonic on small frames). Level 9 would save 0.4%
        /// more at twice the time.
        case best
        /// zlib level 1: only to compare two encodings of a frame quickly.
        case trial
    }

    /// The deflate effort; default ``Effort/best``.
    public var effort: Effort = .best

    /// A compressor working at `effort`.
    public init(effort: Effort = .best) { self.effort = effort }

    /// `rows` holds `height` rows of `stride` bytes, `bpp` bytes per pixel
    /// (1 for palette indices). Returns the zlib stream for IDAT/fdAT.
    func compress(_ rows: [UInt8], stride: Int, height: Int, bpp: Int) throws -> [UInt8] {
        try compress(filtered: PNGCompressor.filter(rows, stride: stride, height: height, bpp: bpp))
    }

    /// The rows with PNG's filter bytes, as `compress` filters them (the
    /// filters do not depend on the effort): filter once to compress one
    /// image at several efforts.
    package static func filter(_ rows: [UInt8], stride: Int, height: Int, bpp: Int) -> [UInt8] {
        // Palette images: PNG's own advice is filter None.
        filtered(rows, stride: stride, height: height, bpp: bpp, adaptive: bpp > 1)
    }

    /// Filtered rows (from `filter`, or raw scanlines with their filter
    /// bytes) as a zlib stream.
    package func compress(filtered: [UInt8]) throws -> [UInt8] {
        guard effort == .best else { return try deflate(filtered) }
        let strong = try deflate(filtered)
        let fast = try PNGCompressor(effort: .fast).deflate(filtered)
        return fast.count < strong.count ? fast : strong
    }

    /// Applies PNG filters: per row the one with the smallest sum of
    /// absolute (signed) residuals when `adaptive` (libpng's heuristic), else None.
    static func filtered(_ src: [UInt8], stride: Int, height: Int, bpp: Int, adaptive: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (stride + 1) * height)
        var candidate = [UInt8](repeating: 0, count: stride)
        src.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                candidate.withUnsafeMutableBufferPointer { cand in
                    for y in 0..<height {
                        let row = s.baseAddress! + y * stride
                        let up: UnsafePointer<UInt8>? = y > 0 ? row - stride : nil
                        let dst = o.baseAddress! + y * (stride + 1)
                        var best: UInt8 = 0
                        if adaptive {
                            var bestCost = Int.max
                            for f in UInt8(0)...4 {
                                let cost = apply(f, row, up, cand.baseAddress!, stride, bpp, limit: bestCost)
                                if cost < bestCost {
                                    bestCost = cost
                                    best = f
                                }
                            }
                        }
                        dst[0] = best
                        _ = apply(best, row, up, dst + 1, stride, bpp, limit: Int.max)
                    }
                }
            }
        }
        return out
    }

    /// Writes filter `f` of one row to `dst`; returns the residual cost
    /// (stopping early once it exceeds `limit`).
    @inline(__always)
    private static func apply(
        _ f: UInt8, _ row: UnsafePointer<UInt8>, _ up: UnsafePointer<UInt8>?, _ dst: UnsafeMutablePointer<UInt8>,
        _ stride: Int, _ bpp: Int, limit: Int
    ) -> Int {
        var cost = 0
        for x in 0..<stride {
            let a = x >= bpp ? Int(row[x - bpp]) : 0
            let b = up.map { Int($0[x]) } ?? 0
            let c = (x >= bpp ? up.map { Int($0[x - bpp]) } : nil) ?? 0
            let predictor = PNGUnfilter.predict(f, a, b, c)
            let v = UInt8(truncatingIfNeeded: Int(row[x]) - predictor)
            dst[x] = v
            cost += Int(Int8(bitPattern: v).magnitude)
            if cost >= limit { return cost }
        }
        return cost
    }

    private func deflate(_ data: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        let level: Int32 = effort == .best ? 8 : effort == .fast ? 6 : 1
        guard throbber_deflate_init(&stream, level, 15, effort == .best ? 9 : 8, Z_DEFAULT_STRATEGY) == Z_OK else {
            throw ThrobberError(.software, "zlib: deflateInit failed")
        }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(data.count))))
        let status = data.withUnsafeBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { outBuf -> Int32 in
                stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                stream.avail_in = UInt32(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = UInt32(outBuf.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw ThrobberError(.software, "zlib: deflate failed (\(status))") }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }
}
