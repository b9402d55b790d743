internal import CFFmpeg
import Synchronization
import ThrobberCore

/// FFmpeg's libavformat, libavcodec, libavutil and libswscale, opened on
/// the first video read rather than when the process starts (linking
/// libavformat and libavcodec would cost every run about 22 ms at start:
/// docs/architecture.md, "Video").
///
/// The functions are the fields of the shim's `ThrobberFFmpeg` table, each
/// typed from FFmpeg's own prototype, so every call is checked by the
/// compiler against the headers of the version built against (whose major
/// versions name the sonames opened).
struct FFmpegLibrary: Sendable {
    /// The function table. Written once, by the loader, before any reader
    /// can see it; only read afterwards.
    let fn: ThrobberFFmpeg

    private init() throws {
        var failure = [CChar](repeating: 0, count: 512)
        guard let table = throbber_ffmpeg_load(&failure, failure.count) else {
            let soname = String(cString: throbber_avformat_soname())
            let package = "libavformat\(LIBAVFORMAT_VERSION_MAJOR)"
            throw ThrobberError(
                .software, "cannot load \(soname) (\(cText(failure))); install Debian's \(package)")
        }
        fn = table.pointee
        fn.av_log_set_level(AV_LOG_ERROR)
        fn.av_log_set_callback(ffmpegLogLine)
    }

    private static let loaded = Result { try FFmpegLibrary() }

    /// The libraries, loaded by the first call. Throws
    /// ``ThrobberError/Kind/software`` when they cannot be loaded.
    static func get() throws -> FFmpegLibrary { try loaded.get() }

    /// Caps every single allocation FFmpeg makes at a quarter of the run's
    /// memory budget (at least 64 MiB), so a header that claims a vast frame
    /// or sample count, or a stream whose first frame is probed before its
    /// size is known (a cover picture), makes an allocation fail rather than
    /// use gigabytes. No clip the size check lets through needs more in one
    /// piece: it counts at least 16 frames of the clip's size in the budget.
    func limitAllocations(to budget: MemoryBudget) {
        fn.av_max_alloc(max(budget.limit / 4, 64 << 20))
    }

    /// FFmpeg's text for error code `code` ("Invalid data found when
    /// processing input").
    func describe(_ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        guard fn.av_strerror(code, &text, text.count) == 0 else { return "error \(code)" }
        return cText(text)
    }

    /// The last error line FFmpeg logged on any thread ("moov atom not
    /// found"), and forgets it. FFmpeg never writes to standard error: its
    /// log goes here.
    static func takeLastLog() -> String? {
        lastLog.withLock { line in
            defer { line = nil }
            return line
        }
    }

    /// Forgets any logged line, before a call whose failure is explained
    /// by what it logs.
    static func clearLog() {
        lastLog.withLock { $0 = nil }
        refusedPicture.withLock { $0 = nil }
    }

    /// The size of the last picture a decoder refused because it has more
    /// pixels than its `max_pixels` (the memory plan), and forgets it. A
    /// decoder may go on and log more after the refusal, so it is kept
    /// apart from ``takeLastLog()``.
    static func takeRefusedPicture() -> (width: Int, height: Int)? {
        refusedPicture.withLock { size in
            defer { size = nil }
            return size
        }
    }

    /// The size in FFmpeg's message for a picture over `max_pixels`
    /// ("Picture size 8192x8192 exceeds specified max pixel count 4096").
    static func refusedSize(_ line: String) -> (width: Int, height: Int)? {
        let words = line.split(separator: " ")
        guard line.contains("exceeds specified max pixel count"), let at = words.firstIndex(of: "size"),
            at + 1 < words.count
        else { return nil }
        let size = words[at + 1].split(separator: "x")
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]) else { return nil }
        return (w, h)
    }
}

/// The last error line FFmpeg logged.
private let lastLog = Mutex<String?>(nil)
/// See ``FFmpegLibrary/takeRefusedPicture()``.
private let refusedPicture = Mutex<(width: Int, height: Int)?>(nil)

/// FFmpeg's log callback: keeps the last line at error level or worse,
/// without its `[h264 @ 0x…]` prefix, in ``lastLog``.
private func ffmpegLogLine(
    _ context: UnsafeMutableRawPointer?, _ level: Int32, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) {
    guard level <= AV_LOG_ERROR, let format, let arguments, let library = try? FFmpegLibrary.get() else { return }
    var line = [CChar](repeating: 0, count: 512)
    var printPrefix: Int32 = 0
    _ = library.fn.av_log_format_line2(nil, level, format, arguments, &line, Int32(line.count), &printPrefix)
    let text = cText(line).trimmedWhitespace()
    guard !text.isEmpty else { return }
    if let size = FFmpegLibrary.refusedSize(text) { refusedPicture.withLock { $0 = size } }
    lastLog.withLock { $0 = text }
}

/// The text of a NUL-terminated C string buffer, up to its first NUL.
func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
