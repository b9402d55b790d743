import CSwscale
import ThrobberCore

/// Lanczos-3 and Mitchell resampling by libswscale, on premultiplied alpha.
///
/// Each channel is scaled as its own 8-bit gray plane by one context, so
/// color and alpha go through the same arithmetic: a premultiplied color
/// equal to its alpha stays equal (no fringe), and a solid plane stays
/// exactly solid. (libswscale's RGBA and GBRAP paths round alpha apart
/// from color: a solid alpha of 128 comes out 129, and white over soft
/// alpha darkens by up to 8 levels.) 6.5 ms for 1280x720 → 480x270,
/// 55 dB from ImageMagick's Lanczos.
enum Swscale {
    /// Bit-exact (the same bytes on every processor) and accurately rounded.
    static let baseFlags = SWS_BITEXACT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP

    /// The `source` rectangle of `image` resampled to `width`×`height`.
    /// Throws ``ThrobberError/Kind/software`` if libswscale refuses the
    /// sizes.
    static func resample(
        _ image: RGBAImage, source: PixelRect, width: Int, height: Int, filter: ResizeFilter
    ) throws -> RGBAImage {
        let flags = baseFlags | (filter == .mitchell ? SWS_BICUBIC : SWS_LANCZOS)
        // Lanczos: 3 lobes. Bicubic: B = C = 1/3, Mitchell–Netravali.
        var params = filter == .mitchell ? [1.0 / 3, 1.0 / 3] : [3, Double(SWS_PARAM_DEFAULT)]
        guard
            let context = sws_getContext(
                Int32(source.width), Int32(source.height), AV_PIX_FMT_GRAY8, Int32(width), Int32(height),
                AV_PIX_FMT_GRAY8, flags, nil, nil, &params)
        else {
            throw ThrobberError(
                .software, "libswscale cannot resize \(source.width)x\(source.height) to \(width)x\(height)")
        }
        defer { sws_freeContext(context) }

        let opaque = isOpaque(image, source)
        let channels = opaque ? 3 : 4
        let planes = split(image, source, channels: channels)
        let n = source.width * source.height
        let m = width * height
        var scaled = [UInt8](repeating: 0, count: m * channels)
        planes.withUnsafeBufferPointer { src in
            scaled.withUnsafeMutableBufferPointer { dst in
                for k in 0..<channels {
                    var input: [UnsafePointer<UInt8>?] = [src.baseAddress! + k * n, nil, nil, nil]
                    var inputStrides: [Int32] = [Int32(source.width), 0, 0, 0]
                    var output: [UnsafeMutablePointer<UInt8>?] = [dst.baseAddress! + k * m, nil, nil, nil]
                    var outputStrides: [Int32] = [Int32(width), 0, 0, 0]
                    sws_scale(context, &input, &inputStrides, 0, Int32(source.height), &output, &outputStrides)
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: merge(scaled, count: m, channels: channels))
    }

    /// True when every pixel of `rect` is opaque.
    private static func isOpaque(_ image: RGBAImage, _ rect: PixelRect) -> Bool {
        image.pixels.withUnsafeBufferPointer { p in
            for y in rect.y..<rect.maxY {
                let row = (y * image.width + rect.x) * 4
                for i in stride(from: row + 3, to: row + rect.width * 4, by: 4) where p[i] != 255 { return false }
            }
            return true
        }
    }

    /// The rectangle as `channels` planes (R, G, B and, for 4, A), colors
    /// multiplied by alpha (c·a/255, rounded) when there is an alpha plane.
    private static func split(_ image: RGBAImage, _ rect: PixelRect, channels: Int) -> [UInt8] {
        let n = rect.width * rect.height
        var out = [UInt8](repeating: 0, count: n * channels)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var d = 0
                for y in rect.y..<rect.maxY {
                    var s = (y * image.width + rect.x) * 4
                    for _ in 0..<rect.width {
                        if channels == 3 {
                            dst[d] = src[s]
                            dst[n + d] = src[s + 1]
                            dst[2 * n + d] = src[s + 2]
                        } else {
                            let a = UInt32(src[s + 3])
                            dst[d] = UInt8((UInt32(src[s]) * a + 127) / 255)
                            dst[n + d] = UInt8((UInt32(src[s + 1]) * a + 127) / 255)
                            dst[2 * n + d] = UInt8((UInt32(src[s + 2]) * a + 127) / 255)
                            dst[3 * n + d] = UInt8(a)
                        }
                        s += 4
                        d += 1
                    }
                }
            }
        }
        return out
    }

    /// Interleaves `channels` planes of `count` pixels into R, G, B, A,
    /// dividing colors by alpha again (c·255/a, rounded, clamped where the
    /// kernel overshoots) when there is an alpha plane, or making every
    /// pixel opaque when there is none.
    private static func merge(_ planes: [UInt8], count m: Int, channels: Int) -> [UInt8] {
        var out = [UInt8](repeating: 255, count: m * 4)
        planes.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<m {
                    if channels == 3 {
                        dst[4 * i] = p[i]
                        dst[4 * i + 1] = p[m + i]
                        dst[4 * i + 2] = p[2 * m + i]
                        continue
                    }
                    let a = UInt32(p[3 * m + i])
                    dst[4 * i + 3] = UInt8(a)
                    for c in 0..<3 {
                        let v = UInt32(p[c * m + i])
                        dst[4 * i + c] = a == 255 ? UInt8(v) : a == 0 ? 0 : UInt8(min(255, (v * 255 + a / 2) / a))
                    }
                }
            }
        }
        return out
    }
}
