import ThrobberCore

/// The containers Throbber reads video from, by libavformat's demuxer
/// names, and what it says of every other kind of file FFmpeg recognises.
///
/// Only demuxers of single files are allowed: each reads the one file it
/// is given and nothing else. Playlists, manifests, lists and session
/// descriptions (HLS, DASH, concat, SDP …) name other files or network
/// addresses; they are refused by what their content is, whatever their
/// name says, and every further open a demuxer asks for is refused too
/// (`throbber_refuse_open` in the FFmpeg shim).
enum VideoContainer {
    /// The allowed demuxers: what cameras, phones, screen recorders and
    /// editors write (MP4/MOV, Matroska/WebM, MPEG-TS and -PS, AVI, FLV,
    /// Ogg, MXF, ASF, DV, NUT, IVF) and YUV4MPEG.
    static let allowed: [String] = [
        "mov", "matroska", "avi", "mpegts", "mpeg", "flv", "ogg", "ivf", "nut", "mxf", "asf", "dv", "yuv4mpegpipe",
    ]

    /// The allowed demuxers as FFmpeg's `format_whitelist` option reads them.
    static var whitelist: String { allowed.joined(separator: ",") }

    /// What a refused file is, by demuxer: the ones that name other files,
    /// URLs or devices.
    static let references: [String: String] = [
        "hls": "an HLS playlist", "dash": "a DASH manifest", "webm_dash_manifest": "a WebM DASH manifest",
        "concat": "an FFmpeg concat list", "sdp": "an SDP session description", "rtsp": "an RTSP address",
        "rtp": "an RTP session", "image2": "an image sequence pattern",
    ]

    /// Raw streams, with no container to time their frames: FFmpeg only
    /// guesses the times (often a frame off where frames are reordered),
    /// so they are refused with the command that wraps them.
    static let untimed: [String: String] = [
        "h264": "H.264", "hevc": "HEVC", "av1": "AV1", "obu": "AV1", "vc1": "VC-1", "m4v": "MPEG-4",
        "mpegvideo": "MPEG-1/2", "cavsvideo": "AVS", "dirac": "Dirac",
    ]

    /// Whether demuxer `name` (as libavformat names it: "mov,mp4,m4a,3gp,3g2,mj2")
    /// is one of ``allowed``.
    static func isAllowed(_ name: String) -> Bool {
        name.split(separator: ",").contains { allowed.contains(String($0)) }
    }

    /// The error for `path`, recognised by demuxer `name` (`longName`:
    /// FFmpeg's description of it), which is not allowed: exit 65, saying
    /// what the file is.
    static func refusal(_ path: String, name: String, longName: String?) -> ThrobberError {
        if let what = references[name] {
            return ThrobberError(
                .data,
                "\(path): \(what), not a video file; Throbber reads one video file and never opens the files or addresses a playlist, manifest or list names"
            )
        }
        if let codec = untimed[name] {
            return ThrobberError(
                .data,
                "\(path): a raw \(codec) stream, with no container to give its frames their times; put it in one first, at its frame rate: ffmpeg -framerate 30 -i \(path) -c copy clip.mkv"
            )
        }
        let described = longName.map { "\($0) (FFmpeg's \(name) demuxer)" } ?? "FFmpeg's \(name) format"
        return ThrobberError(
            .data,
            "\(path): \(described) is not a container Throbber reads video from; it reads MP4/MOV, Matroska/WebM, MPEG-TS/PS, AVI, FLV, Ogg, MXF, ASF, DV, NUT, IVF and Y4M files"
        )
    }
}
