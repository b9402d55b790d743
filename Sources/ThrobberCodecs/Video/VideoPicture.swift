internal import CFFmpeg
import ThrobberCore

/// Turns a decoded frame into the RGBA picture players show: converted by
/// libswscale with the frame's color tags, resampled to square pixels, and
/// turned upright.
///
/// Untagged streams are read as players guess: the BT.709 matrix for
/// pictures 720 lines high or more, BT.601 below; limited range for Y'CbCr
/// (full for the JPEG `yuvj` formats and for RGB); chroma sited left of its
/// pixel pair and between the lines, as MPEG-2, H.264 and HEVC define it
/// for 4:2:0.
enum VideoPicture {
    /// swscale's flags: bicubic, exactly rounded, with chroma read and
    /// written at full resolution (no half-pixel chroma shift; slower than
    /// the defaults, and what matches ffmpeg's `accurate_rnd+full_chroma_*`).
    static let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP
    /// The flags when the width is resampled for non-square pixels:
    /// Lanczos keeps edges sharper than bicubic at the cost of some ringing.
    static let anamorphicFlags = SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP

    /// `frame` as straight RGBA at the file's display size, upright.
    static func image(_ frame: UnsafeMutablePointer<AVFrame>, file: VideoFile) throws -> RGBAImage {
        let ff = try FFmpegLibrary.get()
        let info = file.info
        let swaps = file.orientation.swapsSides
        let width = swaps ? info.displayHeight : info.displayWidth
        let height = swaps ? info.displayWidth : info.displayHeight
        var image = try convert(frame, ff: ff, width: width, height: height, anamorphic: info.sampleAspect != 1)
        for step in file.orientation.steps { image = turned(image, step) }
        return image
    }

    /// Converts with one swscale context made for this frame: making it
    /// takes about 0.8 ms at 1080p, against some 30 ms for the conversion
    /// itself, so contexts are not kept.
    private static func convert(
        _ frame: UnsafeMutablePointer<AVFrame>, ff: FFmpegLibrary, width: Int, height: Int, anamorphic: Bool
    ) throws -> RGBAImage {
        let fn = ff.fn
        let f = frame.pointee
        let format = AVPixelFormat(f.format)
        guard let sws = fn.sws_alloc_context() else {
            throw ThrobberError(.data, "a frame's conversion is over Throbber's limit for memory")
        }
        defer { fn.sws_freeContext(sws) }
        let (h, v) = chromaPosition(f.chroma_location)
        let options: [(String, Int64)] = [
            ("srcw", Int64(f.width)), ("srch", Int64(f.height)), ("src_format", Int64(format.rawValue)),
            ("dstw", Int64(width)), ("dsth", Int64(height)), ("dst_format", Int64(AV_PIX_FMT_RGBA.rawValue)),
            ("sws_flags", Int64(anamorphic ? anamorphicFlags : flags)), ("src_h_chr_pos", h), ("src_v_chr_pos", v),
        ]
        for (name, value) in options { _ = fn.av_opt_set_int(UnsafeMutableRawPointer(sws), name, value, 0) }
        guard fn.sws_init_context(sws, nil, nil) >= 0 else {
            let name = fn.av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "\(format.rawValue)"
            throw ThrobberError(.data, "frames in pixel format \(name) cannot be converted to RGB by libswscale")
        }
        let isRGB = fn.av_pix_fmt_desc_get(format).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 } ?? false
        if !isRGB {
            let matrix = fn.sws_getCoefficients(swsMatrix(f.colorspace, height: Int(f.height)))
            let full: Int32 = isFullRange(f.color_range, format) ? 1 : 0
            let rgb = fn.sws_getCoefficients(SWS_CS_DEFAULT)
            _ = fn.sws_setColorspaceDetails(sws, matrix, full, rgb, 1, 0, 1 << 16, 1 << 16)
        }
        // A row stride padded to 64 bytes and a spare row: room for
        // swscale's vector stores past the last pixel.
        let stride = (width * 4 + 63) / 64 * 64
        var buffer = [UInt8](repeating: 0, count: stride * (height + 1))
        let rows = buffer.withUnsafeMutableBufferPointer { out in
            var planes: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(stride), 0, 0, 0]
            return withUnsafePointer(to: frame.pointee.data) { data in
                withUnsafePointer(to: frame.pointee.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                            fn.sws_scale(sws, src, srcStride, 0, f.height, &planes, &strides)
                        }
                    }
                }
            }
        }
        guard rows == height else { throw ThrobberError(.data, "a frame could not be converted to RGB") }
        let row = width * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: row * height) { out, count in
            buffer.withUnsafeBufferPointer { padded in
                for y in 0..<height {
                    (out.baseAddress! + y * row).update(from: padded.baseAddress! + y * stride, count: row)
                }
            }
            count = row * height
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Where chroma samples sit, in 1/256 of a luma pixel, across and down.
    static func chromaPosition(_ location: AVChromaLocation) -> (Int64, Int64) {
        switch location {
        case AVCHROMA_LOC_CENTER: return (128, 128)
        case AVCHROMA_LOC_TOPLEFT: return (0, 0)
        case AVCHROMA_LOC_TOP: return (128, 0)
        case AVCHROMA_LOC_BOTTOMLEFT: return (0, 256)
        case AVCHROMA_LOC_BOTTOM: return (128, 256)
        default: return (0, 128)
        }
    }

    /// swscale's matrix for a colorspace tag (the guess by height when untagged).
    private static func swsMatrix(_ space: AVColorSpace, height: Int) -> Int32 {
        switch space {
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_FCC: return SWS_CS_FCC
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: return SWS_CS_ITU601
        case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020
        default: return height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }

    /// The luma weights (Kr, Kb) of the matrix `swsMatrix` picks.
    static func lumaWeights(_ space: AVColorSpace, height: Int) -> (kr: Double, kb: Double) {
        switch swsMatrix(space, height: height) {
        case SWS_CS_ITU709: return (0.2126, 0.0722)
        case SWS_CS_FCC: return (0.30, 0.11)
        case SWS_CS_SMPTE240M: return (0.212, 0.087)
        case SWS_CS_BT2020: return (0.2627, 0.0593)
        default: return (0.299, 0.114)
        }
    }

    /// Whether samples use the full range (the guess by format when untagged).
    static func isFullRange(_ range: AVColorRange, _ format: AVPixelFormat) -> Bool {
        switch range {
        case AVCOL_RANGE_JPEG: return true
        case AVCOL_RANGE_MPEG: return false
        default:
            return [
                AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P,
            ]
            .contains(format)
        }
    }

    /// `image` after one orientation step.
    static func turned(_ image: RGBAImage, _ step: VideoOrientationStep) -> RGBAImage {
        let (w, h) = (image.width, image.height)
        let swaps = step != .mirror && step != .upsideDown
        let (ow, oh) = swaps ? (h, w) : (w, h)
        var out = RGBAImage(width: ow, height: oh)
        image.withPackedPixels { src in
            out.withMutablePackedPixels { dst in
                for y in 0..<oh {
                    for x in 0..<ow {
                        let (sx, sy): (Int, Int)
                        switch step {
                        case .clockwise: (sx, sy) = (y, h - 1 - x)
                        case .counterclockwise: (sx, sy) = (w - 1 - y, x)
                        case .transpose: (sx, sy) = (y, x)
                        case .antiTranspose: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .mirror: (sx, sy) = (w - 1 - x, y)
                        case .upsideDown: (sx, sy) = (x, h - 1 - y)
                        }
                        dst[y * ow + x] = src[sy * w + sx]
                    }
                }
            }
        }
        return out
    }
}
