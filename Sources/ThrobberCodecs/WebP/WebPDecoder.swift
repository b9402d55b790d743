import CWebP
import ThrobberCore

/// Still and animated WebP, read with libwebp: the demuxer for the frames
/// as stored (rectangles, durations, blend and dispose, loop) and the
/// animation decoder for the canvas a viewer shows after each frame.
enum WebPDecoder {
    /// True when `bytes` start like a WebP file: a RIFF container of form
    /// type WEBP.
    static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && bytes[0..<4].elementsEqual("RIFF".utf8) && bytes[8..<12].elementsEqual("WEBP".utf8)
    }

    /// Decodes every frame, composited; a still WebP is one frame of
    /// duration 0. Only the frames `keep` accepts (0-based; all when nil)
    /// are kept in ``DecodedAnimation/frames``, in order: the others are
    /// composited and let go, and only the kept ones count against
    /// ``DecodedAnimation/maxTotalBytes``; ``DecodedAnimation/stored`` and
    /// the durations list every frame; when none is kept, no frame is
    /// decoded at all. Throws a data error naming `name` for
    /// a truncated or invalid file, a canvas larger than Throbber decodes,
    /// or kept frames over that limit.
    static func decode(_ bytes: [UInt8], name: String, keep: ((Int) -> Bool)? = nil) throws -> DecodedAnimation {
        func invalid(_ why: String) -> ThrobberError { ThrobberError(.data, "\(name): not a valid WebP: \(why)") }
        if bytes.count >= 30, bytes[12..<16].elementsEqual("VP8X".utf8) {
            // The canvas the header claims, refused by Throbber's own limits
            // before libwebp's (which calls a canvas of 2^32 pixels damaged).
            func le24(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 }
            try DecodedAnimation.checkCanvas(1 + le24(24), 1 + le24(27), name: name)
        }
        return try bytes.withUnsafeBufferPointer { buf in
            var data = WebPData(bytes: buf.baseAddress, size: buf.count)
            // WebPDemux (not WebPDemuxPartial) refuses a file cut short.
            guard let demux = WebPDemuxInternal(&data, 0, nil, WEBP_DEMUX_ABI_VERSION) else {
                throw invalid("truncated or damaged")
            }
            defer { WebPDemuxDelete(demux) }
            let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
            let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
            let count = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
            let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
            let loop = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
            try DecodedAnimation.checkCanvas(width, height, name: name)
            guard count > 0 else { throw invalid("no frames") }
            let kept = keep.map { keep in (0..<count).count(where: keep) } ?? count
            try DecodedAnimation.checkTotal(
                frames: kept, of: count, FrameSize(width: width, height: height), name: name, canPick: true)
            let (stored, durations, lossy, lossless) = Self.storedFrames(bytes, demux: demux, count: count)
            guard stored.count == count else { throw invalid("frame \(stored.count + 1) of \(count) cannot be read") }
            var kind = lossy && lossless ? "lossy and lossless" : lossless ? "lossless" : "lossy"
            if flags & UInt32(ALPHA_FLAG.rawValue) != 0 { kind += ", alpha" }
            guard kept > 0 else {
                // Nothing to keep: the frames as stored are all there is to read.
                return DecodedAnimation(
                    width: width, height: height, frames: [], durations: durations, loop: loop, format: .webp,
                    stored: stored, pixelType: kind)
            }
            let frames = try Self.decodeFrames(
                &data, keep: keep, kept: kept, count: count, width: width, height: height, invalid: invalid)
            return DecodedAnimation(
                width: width, height: height, frames: frames, durations: durations, loop: loop, format: .webp,
                stored: stored, pixelType: kind)
        }
    }

    /// The frames of the file `bytes` as stored (`count` of them in its
    /// demuxer `demux`), their durations, and whether any is lossy, any
    /// lossless.
    private static func storedFrames(_ bytes: [UInt8], demux: OpaquePointer, count: Int) -> (
        stored: [DecodedAnimation.StoredFrame], durations: [Rational], lossy: Bool, lossless: Bool
    ) {
        var stored: [DecodedAnimation.StoredFrame] = []
        var durations: [Rational] = []
        var lossy = false
        var lossless = false
        if let walked = Self.animationFrames(bytes), walked.count == count {
            // libwebp's iterator finds each frame from the first (quadratic
            // in the frame count); the ANMF chunks, read in order, are linear.
            for frame in walked {
                stored.append(frame.stored)
                durations.append(Rational(Int64(frame.stored.delay.numerator), 1000))
                if frame.lossless { lossless = true } else { lossy = true }
            }
        } else {
            var iter = WebPIterator()
            if WebPDemuxGetFrame(demux, 1, &iter) != 0 {
                repeat {
                    var features = WebPBitstreamFeatures()
                    if WebPGetFeaturesInternal(
                        iter.fragment.bytes, iter.fragment.size, &features, WEBP_DECODER_ABI_VERSION)
                        == VP8_STATUS_OK
                    {
                        if features.format == 2 { lossless = true } else { lossy = true }
                    }
                    stored.append(
                        DecodedAnimation.StoredFrame(
                            rect: PixelRect(
                                x: Int(iter.x_offset), y: Int(iter.y_offset), width: Int(iter.width),
                                height: Int(iter.height)),
                            delay: (Int(iter.duration), 1000),
                            dispose: iter.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? "background" : "none",
                            blend: iter.blend_method == WEBP_MUX_BLEND ? "over" : "source"))
                    durations.append(Rational(Int64(max(0, iter.duration)), 1000))
                } while WebPDemuxNextFrame(&iter) != 0
                WebPDemuxReleaseIterator(&iter)
            }
        }
        return (stored, durations, lossy, lossless)
    }

    /// The canvas after each frame `keep` accepts (all when nil), decoded
    /// from `data` (`count` frames, `kept` of them kept, on a
    /// `width`×`height` canvas) by libwebp's animation decoder.
    private static func decodeFrames(
        _ data: inout WebPData, keep: ((Int) -> Bool)?, kept: Int, count: Int, width: Int, height: Int,
        invalid: (String) -> ThrobberError
    ) throws -> [RGBAImage] {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION) != 0 else {
            throw ThrobberError(.software, "libwebp: animation decoder version mismatch")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        guard let decoder = WebPAnimDecoderNewInternal(&data, &options, WEBP_DEMUX_ABI_VERSION) else {
            throw invalid("the animation cannot be decoded")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var frames: [RGBAImage] = []
        frames.reserveCapacity(kept)
        let bytesPerFrame = width * height * 4
        // Frames after the last one kept are not decoded.
        let last = keep.map { keep in (0..<count).last(where: keep) ?? -1 } ?? count - 1
        var decoded = 0
        while decoded <= last && WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var out: UnsafeMutablePointer<UInt8>? = nil
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &out, &timestamp) != 0, let out else {
                throw invalid("frame \(decoded + 1) of \(count) cannot be decoded")
            }
            if keep?(decoded) ?? true {
                frames.append(
                    RGBAImage(
                        width: width, height: height,
                        pixels: Array(UnsafeBufferPointer(start: out, count: bytesPerFrame))))
            }
            decoded += 1
        }
        guard decoded == last + 1 else { throw invalid("\(decoded) of \(count) frames decoded") }
        return frames
    }

    /// One ANMF chunk's frame as stored, and whether its bitstream is
    /// lossless (VP8L) rather than lossy (VP8, with or without ALPH).
    struct AnimationFrame {
        var stored: DecodedAnimation.StoredFrame
        var lossless: Bool
    }

    /// The frames of an animated WebP as its ANMF chunks store them, in
    /// order, read chunk by chunk; nil for a still file or when a chunk
    /// runs past the end or holds no image bitstream (libwebp's demuxer
    /// then says what is wrong).
    static func animationFrames(_ bytes: [UInt8]) -> [AnimationFrame]? {
        guard isAnimated(bytes) else { return nil }
        func le(_ at: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        var frames: [AnimationFrame] = []
        var p = 12
        while p + 8 <= bytes.count {
            let size = le(p + 4, 4)
            let body = p + 8
            guard size <= bytes.count - body else { return nil }
            if bytes[p..<(p + 4)].elementsEqual("ANMF".utf8) {
                guard size >= 24 else { return nil }
                let flags = bytes[body + 15]
                // The first image chunk after any ALPH says how the frame is coded.
                var q = body + 16
                var lossless: Bool?
                while q + 8 <= body + size, lossless == nil {
                    let tag = bytes[q..<(q + 4)]
                    if tag.elementsEqual("VP8L".utf8) { lossless = true }
                    if tag.elementsEqual("VP8 ".utf8) { lossless = false }
                    let length = le(q + 4, 4)
                    guard length <= body + size - q - 8 else { return nil }
                    q += 8 + length + (length & 1)
                }
                guard let lossless else { return nil }
                let duration = le(body + 12, 3)
                frames.append(
                    AnimationFrame(
                        stored: DecodedAnimation.StoredFrame(
                            rect: PixelRect(
                                x: 2 * le(body, 3), y: 2 * le(body + 3, 3), width: 1 + le(body + 6, 3),
                                height: 1 + le(body + 9, 3)),
                            delay: (duration, 1000), dispose: flags & 1 != 0 ? "background" : "none",
                            blend: flags & 2 != 0 ? "source" : "over"),
                        lossless: lossless))
            }
            p = body + size + (size & 1)
        }
        return frames
    }

    /// Whether a WebP file is an animation (VP8X with the animation flag).
    static func isAnimated(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 21 && bytes[12..<16].elementsEqual("VP8X".utf8) && bytes[20] & 0x02 != 0
    }
}
