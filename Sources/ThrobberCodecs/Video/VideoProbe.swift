internal import CFFmpeg
import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

extension VideoFile {
    /// Bytes read from the start of a file to tell whether it is a video:
    /// enough for every container's signature and an elementary stream's
    /// first headers; more only slows the look at every input.
    static let probeBytes = 16 << 10
    /// The least score from libavformat's probe that counts (its own
    /// threshold for trying again with more data is 25).
    static let probeScore: Int32 = 26

    /// Whether the file at `path` is a video libavformat recognises by its
    /// content (never its name): a container or elementary stream of video,
    /// not an image format Throbber reads itself (PNG, APNG, GIF, WebP,
    /// JPEG and other still-image demuxers), nor a text, subtitle or
    /// audio-only format. Reads at most `probeBytes`; false for anything
    /// that is not a regular file, and when FFmpeg cannot be loaded. A file
    /// that starts as an image Throbber reads itself, or as a Lottie file
    /// (JSON, gzip, zip), is told apart by its first bytes without loading
    /// FFmpeg, so those inputs do not pay for it.
    public static func isVideo(_ path: String) -> Bool {
        guard FileBytes.kind(path) == .file else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: probeBytes + Int(AVPROBE_PADDING_SIZE))
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, probeBytes) }
        guard count > 0, !isOwnFormat(Array(bytes[..<min(count, 64)])), let ff = try? FFmpegLibrary.get() else {
            return false
        }
        var score: Int32 = 0
        let format = bytes.withUnsafeMutableBufferPointer { buffer in
            "".withCString { name in
                var data = AVProbeData(
                    filename: name, buf: buffer.baseAddress, buf_size: Int32(count), mime_type: nil)
                return ff.fn.av_probe_input_format3(&data, 1, &score)
            }
        }
        guard let format, score >= probeScore, let name = format.pointee.name else { return false }
        return isVideoDemuxer(String(cString: name))
    }

    /// Whether `head` starts a PNG, JPEG, GIF or WebP file, or a Lottie
    /// file (``LottieFile/startsLikeLottie(_:)``).
    static func isOwnFormat(_ head: [UInt8]) -> Bool {
        ImageFormat.sniff(head) != nil || LottieFile.startsLikeLottie(head)
    }

    /// Demuxers of formats that are not video, as libavformat names them.
    private static let notVideo: Set<String> = [
        "tty", "srt", "ass", "webvtt", "subviewer", "subviewer1", "microdvd", "mpl2", "jacosub", "sami",
        "realtext", "pjs", "stl", "vplayer", "lrc", "scc", "mcc", "aqtitle", "mpsub", "sup", "dvbsub",
        "mp3", "wav", "w64", "flac", "aac", "ac3", "eac3", "aiff", "au", "amr", "amrnb", "amrwb", "ape", "dts",
        "dtshd", "truehd", "mlp", "wv", "tta", "caf", "voc", "gsm", "sbc", "loas", "spdif", "mpc",
        "mpc8", "tak", "shn", "dsf", "opus", "xwma", "rso", "sox", "smjpeg", "mjpeg", "mpjpeg", "lottie",
        "ico", "bmp", "tiff", "svg", "pam", "pbm", "pgm", "ppm", "xbm", "xpm", "xwd", "dpx", "exr", "sgi",
        "hdr", "pcx", "psd", "qdraw", "sunrast", "pictor", "photocd", "dds", "gem", "jpegls", "jpegxl",
        "j2k", "qoi", "cri", "alias_pix", "brender_pix",
    ]

    /// Whether demuxer `name` reads video: not one of ``notVideo``, nor a
    /// still-image reader (names ending in "_pipe", "image2", "apng", "gif",
    /// "webp", "png" or "jpeg").
    static func isVideoDemuxer(_ name: String) -> Bool {
        let images = ["_pipe", "image2", "apng", "gif", "webp", "png", "jpeg"]
        return !notVideo.contains(name) && !images.contains { name.hasSuffix($0) }
    }
}
