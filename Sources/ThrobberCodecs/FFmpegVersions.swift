internal import CFFmpeg

/// The versions of FFmpeg's libavformat, libavcodec and libavutil, which
/// decide the frames read from video files. Asking loads them, as the first
/// video read does (`FFmpegLibrary`).
public enum FFmpegVersions {
    /// What is recorded for a library that cannot be loaded.
    public static let absent = "absent"

    /// `("libavformat", "59.27.100")`, then libavcodec and libavutil, as
    /// the loaded libraries report them at run time; each ``absent`` when
    /// FFmpeg cannot be loaded.
    public static var current: [(name: String, version: String)] {
        guard let fn = (try? FFmpegLibrary.get())?.fn else {
            return ["libavformat", "libavcodec", "libavutil"].map { ($0, absent) }
        }
        return [
            ("libavformat", dotted(fn.avformat_version())),
            ("libavcodec", dotted(fn.avcodec_version())),
            ("libavutil", dotted(fn.avutil_version())),
        ]
    }

    /// `59.27.100` for FFmpeg's `AV_VERSION_INT(59, 27, 100)`.
    static func dotted(_ v: UInt32) -> String {
        "\(v >> 16).\(v >> 8 & 255).\(v & 255)"
    }
}
