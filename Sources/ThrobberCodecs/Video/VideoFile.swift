internal import CFFmpeg
import ThrobberCore

/// A video file opened for reading frames: its info and the start time of
/// every frame in a window of it.
///
/// Opening reads the headers and scans the packets of the window (no
/// decoding), then closes the file; a ``VideoFrameSource`` opens it again
/// to decode.
public final class VideoFile: Sendable {
    /// The path, as given; messages name it.
    public let path: String
    /// What the file is.
    public let info: VideoInfo
    /// The start of every frame in the window, relative to its start, in
    /// seconds: sorted, distinct, the first 0 (the frame on screen at the
    /// window's start).
    public let frameStarts: [Rational]
    /// Where the window's last frame ends: the next frame's start, the end
    /// of the stream, or the window's end.
    public let windowLength: Rational
    /// Frames a window may hold: the frame index stays a few megabytes.
    public static let maxFrames = 1_000_000
    /// The largest side a picture may have, and the most pixels: larger
    /// headers are refused before a decoder allocates anything.
    public static let maxSide = 16384
    /// See ``maxSide``: 8192 × 8192.
    public static let maxPixels = 1 << 26
    /// Bytes the decoder and its window of frames hold, counted in the
    /// run's budget.
    public let residentBytes: Int
    /// The most pixels a decoded picture may have: the coded size the
    /// budget was checked for (``paddedPixels(_:_:)``). A stream that
    /// grows past it is refused rather than decoded.
    let planPixels: Int
    /// Bytes of one decoded picture in the stream's pixel format.
    private let codedFrameBytes: Int

    /// The presentation timestamp of each frame of ``frameStarts``, in the
    /// stream's time base.
    let framePts: [Int64]
    /// The stream's time base: seconds per timestamp unit.
    let timeBase: Rational
    /// The timestamp of the clip's first frame.
    let clipStart: Int64
    /// The decoder's name (``VideoInfo/decoder``).
    let decoderName: String
    /// Decoder threads.
    let threads: Int
    /// Decoded frames the decoder keeps for requests that arrive out of order.
    let windowFrames: Int
    /// How the display matrix turns the picture.
    let orientation: VideoOrientation
    /// Packets the scan read (tests check that a window near the end reads
    /// only the packets near it).
    package let packetsRead: Int

    /// Opens `path`, finds its default video stream and decoder, checks the
    /// picture size against `budget`, and scans the packets of the window
    /// [`from`, `to`) (seconds from the clip's first frame; nil: its start,
    /// its end) for frame times, seeking to the key frame at or before
    /// `from` rather than reading from the start.
    ///
    /// For the whole clip, ``VideoInfo/frameCount``, ``VideoInfo/duration``
    /// and ``VideoInfo/frameRate`` come from the scan; for a window, the
    /// first two come from the headers and the rate from the window's frames.
    ///
    /// Throws, naming the file and, where known, the time in the clip:
    /// ``ThrobberError/Kind/noInput`` when it cannot be opened;
    /// ``ThrobberError/Kind/data`` when it has no video stream, no decoder
    /// for its codec, is cut short, or is over Throbber's limits or the
    /// budget; ``ThrobberError/Kind/io`` when reading fails;
    /// ``ThrobberError/Kind/usage`` when `from` ≥ `to` or `from` is at or
    /// after the clip's end.
    public init(path: String, from: Rational? = nil, to: Rational? = nil, budget: MemoryBudget, threads: Int) throws {
        if let from, let to, from >= to {
            throw ThrobberError(
                .usage,
                "\(path): the part asked for starts at \(ClockTime.text(from)), not before its end at \(ClockTime.text(to))"
            )
        }
        let demuxer = try VideoDemuxer(path: path, budget: budget)
        let (decoder, alpha) = try Self.findDecoder(demuxer)
        var info = VideoInfo(demuxer, decoder: decoder, alpha: alpha)
        self.path = path
        self.threads = max(1, threads)
        windowFrames = Self.windowFrames(threads: self.threads)
        codedFrameBytes = try Self.codedFrameBytes(info, demuxer)
        residentBytes = Self.decodingBytes(info, coded: codedFrameBytes, threads: self.threads, window: windowFrames)
        try budget.check(residentBytes, for: Self.decoding(path, info))
        planPixels = Self.paddedPixels(info.codedWidth, info.codedHeight)
        let stream = demuxer.stream.pointee
        timeBase = Rational(Int64(stream.time_base.num), Int64(max(1, stream.time_base.den)))
        try VideoScan.check(timeBase: timeBase, path: path)
        // --from and --to are moved to the stream's next tick, so every time
        // of the window is a whole number of ticks: exact fractions over the
        // time base's denominator, whose arithmetic stays in 64 bits.
        let base = timeBase
        func tick(_ t: Rational) -> Rational {
            let ticks = t / base
            return Rational(ticks.floor + (ticks.denominator == 1 ? 0 : 1)) * base
        }
        let (from, to) = (from.map(tick), to.map(tick))
        if let to, to <= (from ?? 0) { throw Self.emptyWindow(demuxer, from: from ?? 0, to: to, timeBase: timeBase) }
        let scan = try VideoScan(
            demuxer, reopen: { try VideoDemuxer(path: path, budget: budget) }, timeBase: timeBase, from: from, to: to)
        clipStart = scan.clipStart
        framePts = scan.framePts
        frameStarts = scan.frameTimes.enumerated().map { i, t in i == 0 ? 0 : t - (from ?? 0) }
        windowLength = scan.windowEnd - (from ?? 0)
        guard let lastStart = frameStarts.last, lastStart < windowLength else {
            throw ThrobberError(.data, "\(path): its frame times do not fit its length (damaged)")
        }
        info.frameRate = scan.frameRate
        info.duration = scan.clipDuration
        info.frameCount = scan.clipFrames
        self.info = info
        decoderName = info.decoder
        orientation = VideoOrientation(demuxer)
        packetsRead = scan.packetsRead
    }

    /// The usage error for a part [`from`, `to`) with nothing in it once
    /// both are moved to the stream's next tick: it names the clip's length.
    private static func emptyWindow(_ demuxer: VideoDemuxer, from: Rational, to: Rational, timeBase: Rational)
        -> ThrobberError
    {
        let length = VideoScan.headerDuration(demuxer, timeBase).map { "it lasts \(ClockTime.text($0))" }
        let tick = timeBase.denominator == 1 ? "\(timeBase.numerator) s" : "\(timeBase) s"
        return ThrobberError(
            .usage,
            "\(demuxer.path): the part asked for, from \(ClockTime.text(from)) to \(ClockTime.text(to)), holds no time once both are moved to the clip's next tick (\(tick)); \(length ?? "its length is not in its headers"), so give --to after --from"
        )
    }

    /// The time of timestamp `pts` in the clip, for messages: " at 0:03.120".
    func at(_ pts: Int64) -> String { " at " + ClockTime.text(Rational(pts - clipStart) * timeBase) }

    /// The decoder for the stream, and whether it keeps an alpha channel
    /// the coded format does not show: VP8/VP9 tagged `alpha_mode=1` go to
    /// libvpx, as FFmpeg's own VP9 decoder drops the alpha.
    private static func findDecoder(_ demuxer: VideoDemuxer) throws -> (UnsafePointer<AVCodec>, Bool) {
        let ff = demuxer.ff.fn
        let stream = demuxer.stream.pointee
        let id = stream.codecpar.pointee.codec_id
        let mode = ff.av_dict_get(stream.metadata, "alpha_mode", nil, 0).map { String(cString: $0.pointee.value) }
        if mode == "1", id == AV_CODEC_ID_VP8 || id == AV_CODEC_ID_VP9,
            let libvpx = ff.avcodec_find_decoder_by_name(id == AV_CODEC_ID_VP8 ? "libvpx" : "libvpx-vp9")
        {
            return (libvpx, true)
        }
        guard let decoder = ff.avcodec_find_decoder(id) else {
            let name = ff.avcodec_descriptor_get(id).map { String(cString: $0.pointee.name) } ?? "\(id.rawValue)"
            throw ThrobberError(.data, "\(demuxer.path): no decoder for codec \(name) in this FFmpeg")
        }
        return (decoder, false)
    }

    /// Decoded frames kept beside the decoder's own: enough for one batch
    /// of requests from `threads` workers to arrive in any order (more
    /// costs memory per frame kept, fewer costs seeks back).
    private static func windowFrames(threads: Int) -> Int { 2 * threads + 2 }

    /// Pixels of a `width`×`height` picture with each side rounded up to 64,
    /// as decoders pad the pictures they allocate: the most a frame of a
    /// stream declared at that size may take.
    static func paddedPixels(_ width: Int, _ height: Int) -> Int {
        (width + 63) / 64 * 64 * ((height + 63) / 64 * 64)
    }

    /// The `max_pixels` a decoder gets for pictures of `pixels`
    /// (``paddedPixels(_:_:)``): twice as many, and at least a megapixel,
    /// as decoders check their scratch buffers against it too (MPEG-1/2
    /// and MPEG-4: (line + 64) × 280 for edge emulation). The exact check
    /// is made on every decoded frame; this one only stops a decoder from
    /// allocating pictures far past the plan before that.
    static func decoderPixels(_ pixels: Int) -> Int { max(2 * pixels, 1 << 20) }

    /// Bytes of one decoded picture in the stream's pixel format, after
    /// refusing a picture over ``maxSide``/``maxPixels``.
    private static func codedFrameBytes(_ info: VideoInfo, _ demuxer: VideoDemuxer) throws -> Int {
        let (w, h) = (info.codedWidth, info.codedHeight)
        guard w > 0, h > 0 else { throw ThrobberError(.data, "\(demuxer.path): the video stream has no picture size") }
        guard w <= maxSide, h <= maxSide, w * h <= maxPixels, info.displayWidth <= maxSide else {
            throw ThrobberError(
                .data,
                "\(demuxer.path): pictures of \(w)x\(h) are over Throbber's limit for video (at most \(maxSide) pixels a side, \(maxPixels >> 20) megapixels)"
            )
        }
        let format = AVPixelFormat(demuxer.stream.pointee.codecpar.pointee.format)
        return Int(demuxer.ff.fn.av_image_get_buffer_size(format, Int32(w), Int32(h), 1))
    }

    /// What the memory is for, in a budget's message.
    private static func decoding(_ path: String, _ info: VideoInfo) -> String {
        "\(path): decoding \(info.codedWidth)x\(info.codedHeight) video"
    }

    /// Bytes decoding takes with `threads` threads and a window of `window`
    /// frames, for pictures of `coded` bytes: 16 reference frames (the most
    /// H.264 and HEVC allow), one per thread and the window, each at least
    /// as large as its RGBA conversion, and one converted frame per thread.
    private static func decodingBytes(_ info: VideoInfo, coded: Int, threads: Int, window: Int) -> Int {
        let perFrame = max(coded, info.codedWidth * info.codedHeight * 4)
        let display = FrameSize(width: info.displayWidth, height: info.displayHeight).rgbaBytes
        return perFrame * (16 + threads + window) + display * threads
    }

    /// Checks that decoding with `threads` threads, as an encode with
    /// `--jobs` does, fits `budget`; throws as opening does when it does
    /// not (``ThrobberError/Kind/data`` with the figures).
    public func checkDecoding(threads: Int, budget: MemoryBudget) throws {
        let threads = max(1, threads)
        let needs = Self.decodingBytes(
            info, coded: codedFrameBytes, threads: threads, window: Self.windowFrames(threads: threads))
        try budget.check(needs, for: Self.decoding(path, info))
    }
}
