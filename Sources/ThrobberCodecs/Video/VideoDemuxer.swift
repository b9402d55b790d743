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
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The index of the video stream in the file.
    private(set) var streamIndex: Int32 = -1
    /// The packet `read` fills.
    let packet: UnsafeMutablePointer<AVPacket>
    /// The file's size in bytes when it is a regular file, else nil.
    let fileSize: Int64?
    /// Packets of the video stream read so far (tests check that a window
    /// near the end of a clip reads only the packets near it).
    private(set) var packetsRead = 0

    /// Opens `path` and picks its default video stream (audio, subtitles
    /// and cover pictures ignored). Throws, naming the file,
    /// ``ThrobberError/Kind/noInput`` when it cannot be opened,
    /// ``ThrobberError/Kind/data`` when it is no video FFmpeg reads, is cut
    /// short before its index, has no video stream, or declares a picture
    /// over ``VideoFile/maxSide`` or ``VideoFile/maxPixels``. With `budget`,
    /// FFmpeg's allocations are capped first (``FFmpegLibrary/limitAllocations(to:)``).
    init(path: String, budget: MemoryBudget? = nil) throws {
        ff = try FFmpegLibrary.get()
        if let budget { ff.limitAllocations(to: budget) }
        self.path = path
        var status = stat()
        fileSize = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG ? Int64(status.st_size) : nil
        var opened: UnsafeMutablePointer<AVFormatContext>? = nil
        FFmpegLibrary.clearLog()
        let opening = ff.fn.avformat_open_input(&opened, path, nil, nil)
        guard opening >= 0, let opened else { throw Self.openError(ff, opening, path) }
        context = opened
        guard let packet = ff.fn.av_packet_alloc() else {
            var owned: UnsafeMutablePointer<AVFormatContext>? = opened
            ff.fn.avformat_close_input(&owned)
            throw ThrobberError(.software, "\(path): out of memory")
        }
        self.packet = packet
        // From here on deinit closes what was opened.
        // Sizes a header declares are checked before any frame is probed.
        try Self.checkDeclaredSizes(opened, path: path)
        let found = ff.fn.avformat_find_stream_info(opened, nil)
        guard found >= 0 else {
            let limit = found == throbber_averror_enomem() ? ", over Throbber's limit for memory" : ""
            throw ThrobberError(.data, "\(path): cannot read the streams (\(Self.reason(ff, found)))\(limit)")
        }
        let best = ff.fn.av_find_best_stream(opened, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard best >= 0, !Self.isCoverPicture(opened, best) else {
            throw ThrobberError(.data, "\(path): no video stream (\(Self.streamSummary(opened)))")
        }
        streamIndex = best
    }

    /// Refuses a video stream whose header declares a picture over
    /// Throbber's limits, before ``avformat_find_stream_info`` decodes it.
    private static func checkDeclaredSizes(_ context: UnsafeMutablePointer<AVFormatContext>, path: String) throws {
        for i in 0..<Int(context.pointee.nb_streams) {
            guard let par = context.pointee.streams[i]?.pointee.codecpar?.pointee,
                par.codec_type == AVMEDIA_TYPE_VIDEO
            else { continue }
            let (w, h) = (Int(par.width), Int(par.height))
            guard w > VideoFile.maxSide || h > VideoFile.maxSide || w * h > VideoFile.maxPixels else { continue }
            throw ThrobberError(
                .data,
                "\(path): its header declares pictures of \(w)x\(h), over Throbber's limit for video (at most \(VideoFile.maxSide) pixels a side, \(VideoFile.maxPixels >> 20) megapixels)"
            )
        }
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
                if short || fileSize.map({ packet.pointee.pos >= 0 && end > $0 }) == true {
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
        ff.fn.avformat_seek_file(context, streamIndex, Int64.min, pts, pts, 0) >= 0
    }

    /// FFmpeg's reason for `status`, with the line it logged when there is one.
    static func reason(_ ff: FFmpegLibrary, _ status: Int32) -> String {
        let text = ff.describe(status)
        guard let line = FFmpegLibrary.takeLastLog(), line != text else { return text }
        return "\(text): \(line)"
    }

    private static func openError(_ ff: FFmpegLibrary, _ status: Int32, _ path: String) -> ThrobberError {
        let log = FFmpegLibrary.takeLastLog()
        if status == -ENOENT || status == -EACCES || status == -EISDIR {
            return ThrobberError(.noInput, "\(path): cannot open (\(ff.describe(status)))")
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
