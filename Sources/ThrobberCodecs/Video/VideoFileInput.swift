internal import CFFmpeg
import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// The one file a video is read from, as libavformat sees it: a
/// descriptor Throbber opened itself behind FFmpeg's custom I/O, so FFmpeg
/// never opens a name (no name is read as a URL or protocol), and a hook
/// that refuses every further file a demuxer asks for.
///
/// Outlives the format context that reads through it (``VideoDemuxer``
/// closes that first).
final class VideoFileInput {
    let ff: FFmpegLibrary
    /// The path, for messages.
    let path: String
    /// The file's size in bytes.
    let size: Int64
    let fd: Int32
    /// The I/O context over ``fd``, given to the format context as its `pb`.
    let io: UnsafeMutablePointer<AVIOContext>
    /// Opens of other files a demuxer asked for, all refused.
    let refusedOpens: UnsafeMutablePointer<Int32>

    /// Bytes of FFmpeg's read buffer (its own default is 32 KiB).
    static let bufferBytes: Int32 = 64 << 10
    /// Most bytes read to tell the container: what FFmpeg's own probe
    /// reads at most (1 MiB), enough for raw streams whose first headers
    /// come late.
    static let probeBytes: UInt32 = 1 << 20

    /// Opens `path`, a regular file (or a link to one); anything else is
    /// refused without being opened (``FileBytes/openRegular(_:)``).
    init(path: String, ff: FFmpegLibrary) throws {
        let (fd, size) = try FileBytes.openRegular(path)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let io = withUnsafePointer(to: ff.fn) { throbber_fd_io($0, fd, Self.bufferBytes) }
        guard let io else {
            close(fd)
            throw ThrobberError(.software, "\(path): out of memory")
        }
        self.ff = ff
        self.path = path
        self.size = Int64(size)
        self.fd = fd
        self.io = io
        refusedOpens = .allocate(capacity: 1)
        refusedOpens.initialize(to: 0)
    }

    deinit {
        withUnsafePointer(to: ff.fn) { throbber_fd_io_free($0, io) }
        close(fd)
        refusedOpens.deallocate()
    }

    /// The demuxer libavformat picks for the file's content (never its
    /// name), which must be one of ``VideoContainer/allowed``. Throws
    /// ``ThrobberError/Kind/data`` naming what the file is otherwise, or
    /// when FFmpeg recognises nothing; ``ThrobberError/Kind/io`` when
    /// reading fails.
    func container() throws -> UnsafePointer<AVInputFormat> {
        var format: UnsafePointer<AVInputFormat>? = nil
        FFmpegLibrary.clearLog()
        let score = ff.fn.av_probe_input_buffer2(io, &format, "", nil, 0, Self.probeBytes)
        guard score >= 0, let format else {
            if score < 0 && score != throbber_averror_invaliddata() && score != throbber_averror_eof() {
                throw ThrobberError(.io, "\(path): cannot read (\(VideoDemuxer.reason(ff, score)))")
            }
            throw ThrobberError(.data, "\(path): not a video FFmpeg can read (no container or stream recognised)")
        }
        let name = String(cString: format.pointee.name)
        guard VideoContainer.isAllowed(name) else {
            throw VideoContainer.refusal(
                path, name: name, longName: format.pointee.long_name.map { String(cString: $0) })
        }
        return format
    }

    /// Sends every further open of `context` to the refusing hook.
    func guardOpens(_ context: UnsafeMutablePointer<AVFormatContext>) {
        context.pointee.pb = io
        throbber_refuse_other_files(context, refusedOpens)
    }
}
