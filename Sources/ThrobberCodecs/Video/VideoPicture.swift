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

    /// `frame` as straight RGBA at the file's display size, upright. A
    /// frame of more than 8 bits a sample is rounded to 8 bits, or
    /// dithered when `dither` (0…1) is above 0 (``reducedDithered``).
    static func image(_ frame: UnsafeMutablePointer<AVFrame>, file: VideoFile, dither: Double = 0) throws -> RGBAImage {
        let ff = try FFmpegLibrary.get()
        let info = file.info
        let swaps = file.orientation.swapsSides
        let width = swaps ? info.displayHeight : info.displayWidth
        let height = swaps ? info.displayWidth : info.displayHeight
        let format = AVPixelFormat(frame.pointee.format)
        let deep = dither > 0 && sampleBits(format, ff: ff) > 8
        let sws = try context(
            frame, ff: ff, width: width, height: height, output: deep ? AV_PIX_FMT_RGBA64LE : AV_PIX_FMT_RGBA,
            anamorphic: info.sampleAspect != 1)
        defer { ff.fn.sws_freeContext(sws) }
        let bytes = try scaled(frame, sws: sws, ff: ff, rowBytes: width * (deep ? 8 : 4), height: height)
        var image =
            deep
            ? reducedDithered(bytes, width: width, height: height, strength: dither)
            : RGBAImage(width: width, height: height, pixels: bytes)
        for step in file.orientation.steps { image = turned(image, step) }
        return image
    }

    /// A swscale context for this frame, converting to `output` at
    /// `width`×`height` with the frame's color tags. Made for each frame:
    /// making it takes about 0.8 ms at 1080p, against some 30 ms for the
    /// conversion itself, so contexts are not kept. The caller frees it.
    private static func context(
        _ frame: UnsafeMutablePointer<AVFrame>, ff: FFmpegLibrary, width: Int, height: Int, output: AVPixelFormat,
        anamorphic: Bool
    ) throws -> OpaquePointer {
        let fn = ff.fn
        let f = frame.pointee
        let format = AVPixelFormat(f.format)
        guard let sws = fn.sws_alloc_context() else {
            throw ThrobberError(.data, "a frame's conversion is over Throbber's limit for memory")
        }
        let shifts = chromaShifts(format, ff: ff)
        let (h, v) = chromaPosition(f.chroma_location, shiftX: shifts.x, shiftY: shifts.y)
        let options: [(String, Int64)] = [
            ("srcw", Int64(f.width)), ("srch", Int64(f.height)), ("src_format", Int64(format.rawValue)),
            ("dstw", Int64(width)), ("dsth", Int64(height)), ("dst_format", Int64(output.rawValue)),
            ("sws_flags", Int64(anamorphic ? anamorphicFlags : flags)), ("src_h_chr_pos", h), ("src_v_chr_pos", v),
        ]
        for (name, value) in options { _ = fn.av_opt_set_int(UnsafeMutableRawPointer(sws), name, value, 0) }
        guard fn.sws_init_context(sws, nil, nil) >= 0 else {
            fn.sws_freeContext(sws)
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
        return sws
    }

    /// The frame converted by `sws`: `height` rows of `rowBytes`, packed.
    private static func scaled(
        _ frame: UnsafeMutablePointer<AVFrame>, sws: OpaquePointer, ff: FFmpegLibrary, rowBytes row: Int, height: Int
    ) throws -> [UInt8] {
        // A row stride padded to 64 bytes and a spare row: room for
        // swscale's vector stores past the last pixel.
        let stride = (row + 63) / 64 * 64
        var buffer = [UInt8](repeating: 0, count: stride * (height + 1))
        let rows = buffer.withUnsafeMutableBufferPointer { out in
            var planes: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(stride), 0, 0, 0]
            return withUnsafePointer(to: frame.pointee.data) { data in
                withUnsafePointer(to: frame.pointee.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                            ff.fn.sws_scale(sws, src, srcStride, 0, frame.pointee.height, &planes, &strides)
                        }
                    }
                }
            }
        }
        guard rows == height else { throw ThrobberError(.data, "a frame could not be converted to RGB") }
        return [UInt8](unsafeUninitializedCapacity: row * height) { out, count in
            buffer.withUnsafeBufferPointer { padded in
                for y in 0..<height {
                    (out.baseAddress! + y * row).update(from: padded.baseAddress! + y * stride, count: row)
                }
            }
            count = row * height
        }
    }

    /// Where the first chroma sample sits, in 1/256 of a luma pixel from
    /// the first luma sample, across and down: swscale's `src_h_chr_pos`
    /// and `src_v_chr_pos`, for chroma subsampled by 2^`shiftX` across and
    /// 2^`shiftY` down. The tag names a place within the luma samples one
    /// chroma sample spans: the first, the middle or the last; a direction
    /// that is not subsampled has its chroma on the luma samples (0).
    /// Untagged is left and between the lines (MPEG-2's 4:2:0, cosited 4:2:2
    /// and 4:1:1, centered 4:4:0).
    static func chromaPosition(_ location: AVChromaLocation, shiftX: Int, shiftY: Int) -> (Int64, Int64) {
        // Across and down in halves of the span: 0 first, 1 middle, 2 last.
        let (across, down): (Int64, Int64)
        switch location {
        case AVCHROMA_LOC_CENTER: (across, down) = (1, 1)
        case AVCHROMA_LOC_TOPLEFT: (across, down) = (0, 0)
        case AVCHROMA_LOC_TOP: (across, down) = (1, 0)
        case AVCHROMA_LOC_BOTTOMLEFT: (across, down) = (0, 2)
        case AVCHROMA_LOC_BOTTOM: (across, down) = (1, 2)
        default: (across, down) = (0, 1)
        }
        return (across * 128 * Int64((1 << shiftX) - 1), down * 128 * Int64((1 << shiftY) - 1))
    }

    /// The chroma subsampling of `format`, log2 across and down (0 for RGB
    /// and gray).
    static func chromaShifts(_ format: AVPixelFormat, ff: FFmpegLibrary) -> (x: Int, y: Int) {
        guard let desc = ff.fn.av_pix_fmt_desc_get(format) else { return (0, 0) }
        return (Int(desc.pointee.log2_chroma_w), Int(desc.pointee.log2_chroma_h))
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
