internal import CFFmpeg
import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// A video file opened with libavformat, and the video stream frames are
/// read from. Confined: used by one thread at a time (``VideoFile``'s
/// initializer, or a ``VideoDecoder`` under its lock).
final class VideoDemuxer {
    let ff: FFmpegLibrary
    /// The path, for messages.
    let path: String
    /// The file, read through FFmpeg's custom I/O.
    let input: VideoFileInput
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The index of the video stream in the file.
    private(set) var streamIndex: Int32 = -1
    /// The packet `read` fills.
    let packet: UnsafeMutablePointer<AVPacket>
    /// The file's size in bytes.
    var fileSize: Int64 { input.size }
    /// Packets of the video stream read so far (tests check that a window
    /// near the end of a clip reads only the packets near it).
    private(set) var packetsRead = 0
    /// Whether nothing has been read or sought since the file was opened:
    /// the next packet is the file's first.
    private(set) var atStart = true

    /// Most bytes libavformat reads to learn the streams' parameters
    /// (FFmpeg's default, 5 MB).
    static let probeBytes: Int64 = 5_000_000
    /// Most of the clip it reads for that, in microseconds (FFmpeg's
    /// default, 5 s).
    static let analyzeMicroseconds: Int64 = 5_000_000
    /// Most streams a file may have: far more than any recording's video,
    /// audio and subtitle tracks. The streams not read are discarded
    /// before probing, so each costs kilobytes (999 copies of one stream:
    /// 59 MB peak, against 52 MB for one), and the limit only bounds the
    /// demuxer's own tables.
    static let maxStreams: Int32 = 256

    /// Opens `path` and picks its default video stream (audio, subtitles
    /// and cover pictures ignored, and discarded before the streams are
    /// probed). Throws, naming the file, ``ThrobberError/Kind/noInput``
    /// when it cannot be opened or is not a regular file,
    /// ``ThrobberError/Kind/data`` when it is no video container Throbber
    /// reads (``VideoContainer``), is cut short before its index, has no
    /// video stream, or declares a picture over ``VideoFile/maxSide``,
    /// ``VideoFile/maxPixels`` or what `budget` can decode. With `budget`,
    /// FFmpeg's allocations are capped first
    /// (``FFmpegLibrary/limitAllocations(to:)``). `pixels` (the plan a
    /// ``VideoFile`` was opened with) caps the pictures probing decodes;
    /// nil: the declared size, else what `budget` can hold.
    init(path: String, budget: MemoryBudget? = nil, pixels: Int? = nil) throws {
        ff = try FFmpegLibrary.get()
        if let budget { ff.limitAllocations(to: budget) }
        self.path = path
        input = try VideoFileInput(path: path, ff: ff)
        let format = try input.container()
        var opened = ff.fn.avformat_alloc_context()
        guard let allocated = opened else { throw ThrobberError(.software, "\(path): out of memory") }
        input.guardOpens(allocated)
        allocated.pointee.probesize = Self.probeBytes
        allocated.pointee.max_analyze_duration = Self.analyzeMicroseconds
        allocated.pointee.max_streams = Self.maxStreams
        var options: OpaquePointer? = nil
        _ = ff.fn.av_dict_set(&options, "format_whitelist", VideoContainer.whitelist, 0)
        FFmpegLibrary.clearLog()
        let opening = ff.fn.avformat_open_input(&opened, "", format, &options)
        ff.fn.av_dict_free(&options)
        guard opening >= 0, let opened else { throw Self.openError(ff, opening, path) }
        context = opened
        guard let packet = ff.fn.av_packet_alloc() else {
            var owned: UnsafeMutablePointer<AVFormatContext>? = opened
            ff.fn.avformat_close_input(&owned)
            throw ThrobberError(.software, "\(path): out of memory")
        }
        self.packet = packet
        // From here on deinit closes what was opened.
        streamIndex = try probeStreams(budget: budget, pixels: pixels)
    }

    /// Picks the video stream, discards every other, and reads the
    /// streams' parameters with every picture probing decodes capped at
    /// `pixels` (or the declared size, or what `budget` can hold). Returns
    /// the stream's index.
    private func probeStreams(budget: MemoryBudget?, pixels: Int?) throws -> Int32 {
        let chosen = Self.chooseStream(context)
        try Self.checkDeclaredSize(context, chosen, path: path, budget: budget)
        let count = Int(context.pointee.nb_streams)
        if let chosen {
            for i in 0..<count where i != chosen { Self.discard(context.pointee.streams[i]!) }
            // No stream may appear while probing, outside the plan.
            context.pointee.max_streams = Int32(count)
        }
        let limit = pixels.map(VideoFile.decoderPixels) ?? Self.probeLimit(context, chosen, budget: budget)
        var options = [OpaquePointer?](repeating: nil, count: max(1, count))
        for i in 0..<count { _ = ff.fn.av_dict_set(&options[i], "max_pixels", "\(limit)", 0) }
        defer { for i in 0..<count { ff.fn.av_dict_free(&options[i]) } }
        FFmpegLibrary.clearLog()
        let found = options.withUnsafeMutableBufferPointer {
            ff.fn.avformat_find_stream_info(context, count > 0 ? $0.baseAddress : nil)
        }
        if found >= 0 { FFmpegLibrary.clearLog() }
        guard found >= 0 else {
            let limit = found == throbber_averror_enomem() ? ", over Throbber's limit for memory" : ""
            throw ThrobberError(.data, "\(path): cannot read the streams (\(Self.reason(ff, found)))\(limit)")
        }
        let best = chosen.map(Int32.init) ?? ff.fn.av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard best >= 0, !Self.isCoverPicture(context, best) else {
            let others = input.refusedOpens.pointee
            let refused =
                others > 0
                ? "; it refers to \(others) other file\(others == 1 ? "" : "s"), which Throbber does not open" : ""
            throw ThrobberError(.data, "\(path): no video stream (\(Self.streamSummary(context)))\(refused)")
        }
        return best
    }

    /// Drops `stream` from what is read and probed: its packets are
    /// skipped, and it is marked a data stream of no codec, which
    /// `avformat_find_stream_info` takes as fully known, so it opens no
    /// decoder for it and waits for none of its packets (a file of a
    /// thousand copies of one stream costs no more than one).
    private static func discard(_ stream: UnsafeMutablePointer<AVStream>) {
        stream.pointee.discard = AVDISCARD_ALL
        stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_DATA
        stream.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_NONE
    }

    /// The video stream to read, from the headers alone: not a cover
    /// picture; a default one first, then the one of the highest bit rate,
    /// then the first (as `av_find_best_stream` ranks them). Nil when the
    /// headers name no video stream (a format whose streams appear as its
    /// packets are read).
    private static func chooseStream(_ context: UnsafeMutablePointer<AVFormatContext>) -> Int? {
        var best: (index: Int, rank: (Int, Int64))?
        for i in 0..<Int(context.pointee.nb_streams) {
            let stream = context.pointee.streams[i]!.pointee
            guard stream.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO, !isCoverPicture(context, Int32(i)) else {
                continue
            }
            let impaired = stream.disposition & (AV_DISPOSITION_HEARING_IMPAIRED | AV_DISPOSITION_VISUAL_IMPAIRED)
            let disposition = (impaired == 0 ? 1 : 0) + (stream.disposition & AV_DISPOSITION_DEFAULT != 0 ? 1 : 0)
            let rank = (disposition, stream.codecpar.pointee.bit_rate)
            if best.map({ rank > $0.rank }) ?? true { best = (i, rank) }
        }
        return best?.index
    }

    /// The `max_pixels` of the decoders probing opens: from the chosen
    /// stream's declared size (``VideoFile/decoderPixels(_:)``), else as
    /// many pixels as `budget` holds for the frames a probe keeps (16
    /// reference frames and one decoding, 4 bytes a pixel), between a
    /// megapixel and ``VideoFile/maxPixels``.
    static func probeLimit(_ context: UnsafeMutablePointer<AVFormatContext>, _ chosen: Int?, budget: MemoryBudget?)
        -> Int
    {
        if let chosen, let par = context.pointee.streams[chosen]?.pointee.codecpar.pointee, par.width > 0,
            par.height > 0
        {
            return VideoFile.decoderPixels(VideoFile.paddedPixels(Int(par.width), Int(par.height)))
        }
        return max(1 << 20, min(VideoFile.maxPixels, (budget?.limit ?? .max) / (4 * 17)))
    }

    /// Refuses a chosen stream whose header declares a picture over
    /// Throbber's limits, or one whose probe alone (16 reference frames and
    /// one decoding) would not fit `budget`, before
    /// ``avformat_find_stream_info`` decodes it.
    private static func checkDeclaredSize(
        _ context: UnsafeMutablePointer<AVFormatContext>, _ chosen: Int?, path: String, budget: MemoryBudget?
    ) throws {
        guard let chosen, let par = context.pointee.streams[chosen]?.pointee.codecpar.pointee else { return }
        let (w, h) = (Int(par.width), Int(par.height))
        guard w > VideoFile.maxSide || h > VideoFile.maxSide || w * h > VideoFile.maxPixels else {
            try budget?.check(w * h * 4 * 17, for: "\(path): decoding \(w)x\(h) video")
            return
        }
        throw ThrobberError(
            .data,
            "\(path): its header declares pictures of \(w)x\(h), over Throbber's limit for video (at most \(VideoFile.maxSide) pixels a side, \(VideoFile.maxPixels >> 20) megapixels)"
        )
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        ff.fn.av_packet_free(&packet)
        var owned: UnsafeMutablePointer<AVFormatContext>? = context
        ff.fn.avformat_close_input(&owned)
    }

    /// The video stream.
    var stream: UnsafeMutablePointer<AVStream> { context.pointee.streams[Int(streamIndex)]! }

    /// Reads the next packet of the video stream into ``packet`` (the
    /// previous one unreferenced); false at the end of the file. Throws,
    /// naming `at` (the time in the clip the reader has reached),
    /// ``ThrobberError/Kind/data`` for a packet that is incomplete (past the
    /// end of a cut file, or flagged corrupt) or damaged,
    /// ``ThrobberError/Kind/io`` when reading fails.
    func read(at: () -> String) throws -> Bool {
        atStart = false
        while true {
            ff.fn.av_packet_unref(packet)
            let status = ff.fn.av_read_frame(context, packet)
            if status == throbber_averror_eof() { return false }
            if status < 0 {
                if status == throbber_averror_enomem() {
                    throw ThrobberError(.data, "\(path)\(at()): a packet is over Throbber's limit for memory")
                }
                if status == throbber_averror_invaliddata() {
                    throw ThrobberError(.data, "\(path)\(at()): the file is damaged (\(Self.reason(ff, status)))")
                }
                throw ThrobberError(.io, "\(path)\(at()): cannot read (\(Self.reason(ff, status)))")
            }
            if packet.pointee.stream_index == streamIndex {
                packetsRead += 1
                let end = packet.pointee.pos + Int64(packet.pointee.size)
                let short = packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0
                if short || (packet.pointee.pos >= 0 && end > fileSize) {
                    throw ThrobberError(
                        .data, "\(path)\(at()): a frame's data is incomplete (the file is cut short or damaged)")
                }
                return true
            }
        }
    }

    /// Seeks to the key frame at or before `pts` (in the stream's time
    /// base). False when the file cannot seek there.
    func seek(to pts: Int64) -> Bool {
        atStart = false
        return ff.fn.avformat_seek_file(context, streamIndex, Int64.min, pts, pts, 0) >= 0
    }

    /// FFmpeg's reason for `status`, with the line it logged when there is one.
    static func reason(_ ff: FFmpegLibrary, _ status: Int32) -> String {
        let text = ff.describe(status)
        guard let line = FFmpegLibrary.takeLastLog(), line != text else { return text }
        return "\(text): \(line)"
    }

    private static func openError(_ ff: FFmpegLibrary, _ status: Int32, _ path: String) -> ThrobberError {
        let log = FFmpegLibrary.takeLastLog()
        if let log, log.contains("exceeds max_streams") {
            return ThrobberError(
                .data, "\(path): more than \(maxStreams) streams, over Throbber's limit for one video file")
        }
        if status == throbber_averror_enomem() {
            return ThrobberError(
                .data, "\(path): its headers need memory over Throbber's limit (\(ff.describe(status)))")
        }
        if let log, log.contains("moov atom not found") {
            return ThrobberError(
                .data,
                "\(path): the file is cut short: its index (the moov atom) is missing, as when a recording stops before it is saved"
            )
        }
        let why = log.map { "\(ff.describe(status)): \($0)" } ?? ff.describe(status)
        return ThrobberError(.data, "\(path): not a video FFmpeg can read (\(why))")
    }

    private static func isCoverPicture(_ context: UnsafeMutablePointer<AVFormatContext>, _ index: Int32) -> Bool {
        context.pointee.streams[Int(index)]!.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
    }

    /// "it has 1 audio stream", "it has 2 audio streams and 1 subtitle stream", "it has no streams".
    private static func streamSummary(_ context: UnsafeMutablePointer<AVFormatContext>) -> String {
        var counts: [(String, Int)] = [("audio", 0), ("subtitle", 0), ("data", 0), ("cover picture", 0)]
        for i in 0..<Int(context.pointee.nb_streams) {
            let stream = context.pointee.streams[i]!.pointee
            switch stream.codecpar.pointee.codec_type {
            case AVMEDIA_TYPE_AUDIO: counts[0].1 += 1
            case AVMEDIA_TYPE_SUBTITLE: counts[1].1 += 1
            case AVMEDIA_TYPE_VIDEO: counts[3].1 += 1
            default: counts[2].1 += 1
            }
        }
        let parts = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0) stream\($0.1 == 1 ? "" : "s")" }
        return parts.isEmpty ? "it has no streams" : "it has " + parts.joined(separator: " and ")
    }
}
