internal import CFFmpeg
import ThrobberCore

/// Frames of more than 8 bits a sample (10- and 12-bit HEVC, VP9, ProRes)
/// brought to 8 bits.
///
/// By default swscale converts them straight to 8-bit RGBA, each level
/// rounded to the nearest: the smallest files and the closest to the
/// source (docs/tuning.md, "Video: 10- and 12-bit clips"). Asked to
/// dither (`--dither`), the frame is converted to 16 bits a channel and
/// reduced here with an ordered 8×8 pattern fixed in place, so a still
/// area stays still from frame to frame and the output does not depend on
/// threads or frame order.
extension VideoPicture {
    /// The most bits of any sample of `format` (8 when unknown).
    static func sampleBits(_ format: AVPixelFormat, ff: FFmpegLibrary) -> Int {
        guard let desc = ff.fn.av_pix_fmt_desc_get(format) else { return 8 }
        let count = Int(desc.pointee.nb_components)
        return withUnsafeBytes(of: desc.pointee.comp) { raw in
            let comps = raw.bindMemory(to: AVComponentDescriptor.self)
            return (0..<min(count, comps.count)).map { Int(comps[$0].depth) }.max() ?? 8
        }
    }

    /// The 8×8 Bayer matrix, row by row: each of 0…63 once, every 2×2,
    /// 4×4 and 8×8 block as even as it can be.
    static let bayer: [Int] = {
        var m = [0]
        var n = 1
        while n < 8 {
            var next = [Int](repeating: 0, count: 4 * n * n)
            for y in 0..<n {
                for x in 0..<n {
                    let v = 4 * m[y * n + x]
                    next[y * 2 * n + x] = v
                    next[y * 2 * n + x + n] = v + 2
                    next[(y + n) * 2 * n + x] = v + 3
                    next[(y + n) * 2 * n + x + n] = v + 1
                }
            }
            m = next
            n *= 2
        }
        return m
    }()

    /// Little-endian 16-bit RGBA (swscale's `rgba64le`, which writes color
    /// at 256 times the 8-bit level: white is 65280) reduced to 8 bits.
    /// Color adds a threshold from ``bayer`` before it is cut to whole
    /// levels: `strength` 1 spreads the thresholds evenly over the level,
    /// 0 makes them all one half (rounding). Alpha (full scale, 65535
    /// opaque) is rounded.
    static func reducedDithered(_ samples: [UInt8], width: Int, height: Int, strength: Double) -> RGBAImage {
        let s = max(0, min(1, strength))
        // In 1/256 of a level: pattern value k sits at the middle of the k-th 64th.
        let thresholds = bayer.map { UInt32((128 + s * (Double($0 * 4 + 2) - 128)).rounded()) }
        var image = RGBAImage(width: width, height: height)
        image.withMutablePackedPixels { out in
            samples.withUnsafeBytes { raw in
                for y in 0..<height {
                    let row = (y & 7) * 8
                    for x in 0..<width {
                        let t = thresholds[row + (x & 7)]
                        let i = y * width + x
                        func sample(_ c: Int) -> UInt32 {
                            UInt32(
                                UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8 + 2 * c, as: UInt16.self)))
                        }
                        let r = min(255, (sample(0) + t) >> 8)
                        let g = min(255, (sample(1) + t) >> 8)
                        let b = min(255, (sample(2) + t) >> 8)
                        let a = (sample(3) * 255 + 32767) / 65535
                        out[i] = r | g << 8 | b << 16 | a << 24
                    }
                }
            }
        }
        return image
    }
}
