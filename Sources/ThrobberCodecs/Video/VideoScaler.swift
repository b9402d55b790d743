internal import CFFmpeg
import Synchronization
import ThrobberCore

/// Resizes a decoded 8-bit Y'CbCr frame straight to a smaller RGBA
/// picture, resampling its planes before converting them: how
/// `--compression fast` resizes a video.
///
/// The exact path converts at full size (chroma brought to the luma grid by
/// swscale's bicubic), clips to RGB, then resamples with Lanczos-3. Both
/// resampling and the Y'CbCr → R'G'B' matrix are linear, so here the luma
/// plane is resampled by that Lanczos-3, each chroma plane by one kernel made
/// of the two steps (the bicubic at the stream's chroma siting, then the
/// Lanczos-3), and the matrix runs on the output's pixels alone. The one
/// difference is the clipping, done once at the end: colors outside RGB at
/// full size (subsampled chroma bleeding past colored text on white: 10 %
/// of a screen recording's pixels) are clipped after resizing, not before,
/// which moves red and blue by about 1.4 levels RMS there. That is why the
/// exact path stays the default (docs/tuning.md, "Video: resampling the
/// Y'CbCr planes").
enum VideoScaler {
    /// Pixel formats taken, with their chroma subsampling (log2, across
    /// and down).
    private static let formats: [Int32: (Int, Int)] = [
        AV_PIX_FMT_YUV420P.rawValue: (1, 1), AV_PIX_FMT_YUVJ420P.rawValue: (1, 1),
        AV_PIX_FMT_YUV422P.rawValue: (1, 0), AV_PIX_FMT_YUVJ422P.rawValue: (1, 0),
        AV_PIX_FMT_YUV444P.rawValue: (0, 0), AV_PIX_FMT_YUVJ444P.rawValue: (0, 0),
        AV_PIX_FMT_YUV411P.rawValue: (2, 0), AV_PIX_FMT_YUVJ411P.rawValue: (2, 0),
        AV_PIX_FMT_YUV440P.rawValue: (0, 1), AV_PIX_FMT_YUVJ440P.rawValue: (0, 1),
    ]

    /// `frame` at `width`×`height`, or nil when this path does not apply:
    /// a format other than 8-bit planar Y'CbCr without alpha, a picture
    /// that is turned, non-square pixels, or a size not smaller than the
    /// frame's (where the exact conversion costs nothing extra).
    static func image(
        _ frame: UnsafeMutablePointer<AVFrame>, file: VideoFile, width: Int, height: Int, cache: KernelCache
    ) -> RGBAImage? {
        let f = frame.pointee
        let inW = Int(f.width)
        let inH = Int(f.height)
        guard let (sx, sy) = formats[f.format], file.orientation.steps.isEmpty, file.info.sampleAspect == 1,
            inW == file.info.displayWidth, inH == file.info.displayHeight,
            width <= inW, height <= inH, width < inW || height < inH, width > 0, height > 0
        else { return nil }
        let (ph, pv) = VideoPicture.chromaPosition(f.chroma_location, shiftX: sx, shiftY: sy)
        let cw = (inW + (1 << sx) - 1) >> sx
        let ch = (inH + (1 << sy) - 1) >> sy
        let key = KernelCache.Key(
            width: inW, height: inH, outWidth: width, outHeight: height, shiftX: sx, shiftY: sy, chromaX: ph,
            chromaY: pv)
        let (lumaX, lumaY, chromaX, chromaY) = cache.kernels(key) {
            let lumaX = Kernel.lanczos(from: inW, to: width)
            let lumaY = Kernel.lanczos(from: inH, to: height)
            return (
                lumaX, lumaY,
                sx == 0 ? lumaX : lumaX.after(Kernel.bicubicUp(from: cw, to: inW, shift: sx, offset: Double(ph) / 256)),
                sy == 0 ? lumaY : lumaY.after(Kernel.bicubicUp(from: ch, to: inH, shift: sy, offset: Double(pv) / 256))
            )
        }
        let planes = withUnsafeBytes(of: f.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: f.linesize) { Array($0.bindMemory(to: Int32.self)) }
        let plane = { (k: Int, w: Int, h: Int, across: Kernel, down: Kernel) -> [Float] in
            resample(planes[k]!, stride: Int(strides[k]), width: w, height: h, across: across, down: down)
        }
        let y = plane(0, inW, inH, lumaX, lumaY)
        let cb = plane(1, cw, ch, chromaX, chromaY)
        let cr = plane(2, cw, ch, chromaX, chromaY)
        let full = VideoPicture.isFullRange(f.color_range, AVPixelFormat(f.format))
        let matrix = Matrix(VideoPicture.lumaWeights(f.colorspace, height: inH), full: full)
        return matrix.rgba(y, cb, cr, width: width, height: height)
    }

    /// One plane resampled: down the columns first (the rows it reads are
    /// contiguous), then across.
    private static func resample(
        _ data: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int, across: Kernel, down: Kernel
    ) -> [Float] {
        let outW = across.count
        let outH = down.count
        // Room past the last sample for the 8-wide loads of the last taps.
        var column = [Float](repeating: 0, count: width + across.stride)
        var out = [Float](repeating: 0, count: outW * outH)
        column.withUnsafeMutableBufferPointer { acc in
            out.withUnsafeMutableBufferPointer { out in
                down.withBuffers { downFirst, downWeights in
                    across.withBuffers { acrossFirst, acrossWeights in
                        for oy in 0..<outH {
                            let first = data + Int(downFirst[oy]) * stride
                            let w0 = downWeights[oy * down.stride]
                            for x in 0..<width { acc[x] = w0 * Float(first[x]) }
                            for t in 1..<max(down.taps, 1) {
                                let w = downWeights[oy * down.stride + t]
                                let row = first + t * stride
                                for x in 0..<width { acc[x] += w * Float(row[x]) }
                            }
                            for ox in 0..<outW {
                                let from = UnsafeRawPointer(acc.baseAddress! + Int(acrossFirst[ox]))
                                let weights = UnsafeRawPointer(acrossWeights.baseAddress! + ox * across.stride)
                                var sum = SIMD8<Float>()
                                for t in Swift.stride(from: 0, to: across.stride, by: 8) {
                                    sum +=
                                        weights.loadUnaligned(fromByteOffset: 4 * t, as: SIMD8<Float>.self)
                                        * from.loadUnaligned(fromByteOffset: 4 * t, as: SIMD8<Float>.self)
                                }
                                out[oy * outW + ox] = sum.sum()
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// The kernels of the last geometry asked for, shared by the threads
    /// that convert one clip's frames (making them costs about as much as
    /// resampling a frame).
    final class KernelCache: Sendable {
        struct Key: Hashable {
            var width: Int, height: Int, outWidth: Int, outHeight: Int
            /// Chroma subsampling (log2) and siting, across and down.
            var shiftX: Int, shiftY: Int
            var chromaX: Int64, chromaY: Int64
        }
        typealias Kernels = (Kernel, Kernel, Kernel, Kernel)
        private let last = Mutex<(Key, Kernels)?>(nil)

        init() {}

        func kernels(_ key: Key, make: () -> Kernels) -> Kernels {
            if let (k, kernels) = last.withLock({ $0 }), k == key { return kernels }
            let kernels = make()
            last.withLock { $0 = (key, kernels) }
            return kernels
        }
    }

    /// Y'CbCr samples (8-bit scale) to R'G'B'.
    struct Matrix {
        let yScale: Float, yOffset: Float, cScale: Float
        let rCr: Float, gCb: Float, gCr: Float, bCb: Float

        init(_ weights: (kr: Double, kb: Double), full: Bool) {
            let (kr, kb) = weights
            let kg = 1 - kr - kb
            yScale = Float(full ? 1 : 255.0 / 219)
            yOffset = full ? 0 : 16
            cScale = Float(full ? 1 : 255.0 / 224)
            rCr = Float(2 * (1 - kr))
            bCb = Float(2 * (1 - kb))
            gCb = Float(2 * kb * (1 - kb) / kg)
            gCr = Float(2 * kr * (1 - kr) / kg)
        }

        func rgba(_ y: [Float], _ cb: [Float], _ cr: [Float], width: Int, height: Int) -> RGBAImage {
            var image = RGBAImage(width: width, height: height)
            image.withMutablePackedPixels { out in
                y.withUnsafeBufferPointer { y in
                    cb.withUnsafeBufferPointer { cb in
                        cr.withUnsafeBufferPointer { cr in
                            for i in 0..<width * height {
                                let l = (y[i] - yOffset) * yScale
                                let u = (cb[i] - 128) * cScale
                                let v = (cr[i] - 128) * cScale
                                // Clamped to 0…255, then rounded half up by truncation.
                                let r = UInt32(min(max(l + rCr * v, 0), 255) + 0.5)
                                let g = UInt32(min(max(l - gCb * u - gCr * v, 0), 255) + 0.5)
                                let b = UInt32(min(max(l + bCb * u, 0), 255) + 0.5)
                                out[i] = r | g << 8 | b << 16 | 0xFF00_0000
                            }
                        }
                    }
                }
            }
            return image
        }
    }
}
