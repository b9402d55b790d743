internal import CFFmpeg
import Synchronization
import ThrobberCore

/// A decoded picture handed out of the decoder's lock: a new reference to
/// the decoder's frame, owned by the one caller it is returned to, which
/// reads it and frees it (``VideoFrameSource``).
///
/// `@unchecked Sendable` because `Mutex.withLock` hands out only values the
/// compiler can prove are not shared, and it cannot see that
/// `av_frame_clone`'s new frame is not: the frame is made under the lock
/// and returned to exactly one caller, which reads and frees it on its own
/// thread; the pixel buffers it shares with the decoder's window are
/// read-only, held through FFmpeg's atomic reference counts.
struct DecodedPicture: @unchecked Sendable {
    let frame: UnsafeMutablePointer<AVFrame>

    /// Frees the reference.
    func release() {
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        (try? FFmpegLibrary.get())?.fn.av_frame_free(&frame)
    }
}

/// One sequential decoder for a ``VideoFile``, shared by every thread that
/// asks for frames: it decodes forward to the frame asked for and keeps the
/// last few decoded frames, so requests that arrive slightly out of order
/// do not seek; a request before those seeks back to a key frame.
final class VideoDecoder: Sendable {
    let file: VideoFile
    private let threads: Int
    /// Opened by the first request.
    private let state = Mutex<DecoderState?>(nil)

    /// A decoder for `file` with `threads` decoding threads (frame and
    /// slice threading).
    init(file: VideoFile, threads: Int) {
        self.file = file
        self.threads = max(1, threads)
    }

    /// The decoded frame shown at timestamp `pts`: the one with the largest
    /// timestamp at or before it.
    func picture(at pts: Int64) throws -> DecodedPicture {
        try state.withLock { state in
            if state == nil { state = try DecoderState(file: file, threads: threads) }
            return DecodedPicture(frame: try state!.picture(at: pts))
        }
    }
}

/// The decoder's state: the open file, the codec and the window of decoded
/// frames. Confined to ``VideoDecoder``'s lock.
private final class DecoderState {
    let file: VideoFile
    /// The file, opened again (positioned at its start) when a seek goes
    /// back to the clip's first frame.
    var demuxer: VideoDemuxer
    let ff: ThrobberFFmpeg
    let codec: UnsafeMutablePointer<AVCodecContext>
    let received: UnsafeMutablePointer<AVFrame>
    /// The last decoded frames with their timestamps, oldest first.
    var window: [(pts: Int64, frame: UnsafeMutablePointer<AVFrame>)] = []
    /// Whether the decoder has a position (it has none until the first seek).
    var positioned = false
    /// Whether the decoder has given its last frame.
    var atEnd = false

    init(file: VideoFile, threads: Int) throws {
        self.file = file
        demuxer = try VideoDemuxer(path: file.path, pixels: file.planPixels)
        ff = demuxer.ff.fn
        guard let decoder = ff.avcodec_find_decoder_by_name(file.decoderName) else {
            throw ThrobberError(.data, "\(file.path): no decoder \(file.decoderName) in this FFmpeg")
        }
        guard let codec = ff.avcodec_alloc_context3(decoder), let received = ff.av_frame_alloc() else {
            throw ThrobberError(.data, "\(file.path): the decoder is over Throbber's limit for memory")
        }
        self.codec = codec
        self.received = received
        var status = ff.avcodec_parameters_to_context(codec, demuxer.stream.pointee.codecpar)
        codec.pointee.thread_count = Int32(threads)
        codec.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        codec.pointee.pkt_timebase = demuxer.stream.pointee.time_base
        codec.pointee.max_pixels = Int64(VideoFile.decoderPixels(file.planPixels))
        if status >= 0 { status = ff.avcodec_open2(codec, decoder, nil) }
        guard status >= 0 else { throw decodeError(status, at: "") }
    }

    deinit {
        for entry in window { free(entry.frame) }
        var codec: UnsafeMutablePointer<AVCodecContext>? = codec
        ff.avcodec_free_context(&codec)
        free(received)
    }

    func free(_ frame: UnsafeMutablePointer<AVFrame>) {
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        ff.av_frame_free(&frame)
    }

    /// A new reference to the frame shown at `target`.
    func picture(at target: Int64) throws -> UnsafeMutablePointer<AVFrame> {
        if let hit = lookup(target) { return try clone(hit) }
        if !positioned || window.first.map({ $0.pts > target }) ?? true {
            try seek(before: target)
        }
        while !atEnd, (window.last?.pts ?? .min) < target {
            try decodeNext()
        }
        guard let hit = window.last(where: { $0.pts <= target }) else {
            if let size = FFmpegLibrary.takeRefusedPicture() {
                throw overPlan(size.width, size.height, at: file.at(target))
            }
            throw ThrobberError(.data, "\(file.path)\(file.at(target)): no frame decodes at this time")
        }
        return try clone(hit.frame)
    }

    /// The window's frame shown at `target`, when the window tells.
    private func lookup(_ target: Int64) -> UnsafeMutablePointer<AVFrame>? {
        guard let i = window.lastIndex(where: { $0.pts <= target }) else { return nil }
        return window[i].pts == target || i < window.count - 1 || atEnd ? window[i].frame : nil
    }

    private func clone(_ frame: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
        guard let copy = ff.av_frame_clone(frame) else {
            throw ThrobberError(.data, "\(file.path): a frame is over Throbber's limit for memory")
        }
        return copy
    }

    /// Seeks to a key frame at or before `target` and decodes the first
    /// frame after it; seeks further back while that frame is still after
    /// `target` (a key frame the index placed too late) or none decodes (a
    /// seek past the end), down to the file's start.
    private func seek(before target: Int64) throws {
        let second = max(1, (Rational(1) / file.timeBase).roundedHalfUp)
        var back: Int64 = 0
        while true {
            let goal = max(file.clipStart, target - back)
            if goal <= file.clipStart || !demuxer.seek(to: goal) { try rewind() }
            ff.avcodec_flush_buffers(codec)
            for entry in window { free(entry.frame) }
            window.removeAll()
            positioned = true
            atEnd = false
            try decodeNext()
            // Nothing decoded: the seek landed past the end.
            let late = window.first.map { $0.pts > target } ?? true
            guard late, goal > file.clipStart else { return }
            back = back == 0 ? second : back * 2
        }
    }

    /// Goes back to the file's first packet: by opening it again, which
    /// works in every container (a timestamp seek to the first frame fails
    /// in some, such as a WebM whose clip starts before 0), unless nothing
    /// has been read or sought since it was opened.
    private func rewind() throws {
        guard !demuxer.atStart else { return }
        demuxer = try VideoDemuxer(path: file.path, pixels: file.planPixels)
    }

    /// Decodes one more frame into the window (dropping the oldest beyond
    /// the window's size), or marks the end.
    private func decodeNext() throws {
        while true {
            let status = ff.avcodec_receive_frame(codec, received)
            if status == 0 { return try keep() }
            if status == throbber_averror_eof() {
                atEnd = true
                return
            }
            guard status == throbber_averror_eagain() else {
                throw decodeError(status, at: file.at(window.last?.pts ?? file.clipStart))
            }
            let nopts = throbber_av_nopts_value()
            let more = try demuxer.read { file.at(window.last?.pts ?? file.clipStart) }
            let packet = demuxer.packet
            let sent = ff.avcodec_send_packet(codec, more ? packet : nil)
            if sent < 0 && sent != throbber_averror_eof() {
                let pts = packet.pointee.pts != nopts ? packet.pointee.pts : window.last?.pts ?? file.clipStart
                throw decodeError(sent, at: file.at(pts))
            }
        }
    }

    /// Moves the received frame into the window.
    private func keep() throws {
        let (w, h) = (Int(received.pointee.width), Int(received.pointee.height))
        guard w * h <= file.planPixels, w <= VideoFile.maxSide, h <= VideoFile.maxSide else {
            ff.av_frame_unref(received)
            throw overPlan(w, h, at: file.at(received.pointee.best_effort_timestamp))
        }
        let nopts = throbber_av_nopts_value()
        var pts = received.pointee.best_effort_timestamp
        if pts == nopts { pts = received.pointee.pts }
        if pts == nopts { pts = (window.last?.pts ?? file.clipStart - 1) + 1 }
        let frame = try clone(received)
        ff.av_frame_unref(received)
        window.append((pts, frame))
        if window.count > file.windowFrames + 1 { free(window.removeFirst().frame) }
    }

    /// The error for a frame of `width`×`height`, larger than the size the
    /// stream declared and the memory plan was made for.
    private func overPlan(_ width: Int, _ height: Int, at: String) -> ThrobberError {
        let declared = "\(file.info.codedWidth)x\(file.info.codedHeight)"
        return ThrobberError(
            .data,
            "\(file.path)\(at): a frame of \(width)x\(height), larger than the \(declared) the stream declared, which its memory was planned for (the file is damaged or hostile)"
        )
    }

    private func decodeError(_ status: Int32, at: String) -> ThrobberError {
        if let size = FFmpegLibrary.takeRefusedPicture() { return overPlan(size.width, size.height, at: at) }
        let log = FFmpegLibrary.takeLastLog()
        let why = log.map { "\(demuxer.ff.describe(status)): \($0)" } ?? demuxer.ff.describe(status)
        if status == throbber_averror_enomem() {
            return ThrobberError(.data, "\(file.path)\(at): decoding is over Throbber's limit for memory (\(why))")
        }
        return ThrobberError(.data, "\(file.path)\(at): cannot decode (\(why))")
    }
}
