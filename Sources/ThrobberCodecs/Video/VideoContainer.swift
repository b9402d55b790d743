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

    /// What kind of file a clip read by demuxer `name` (libavformat's
    /// name, as ffprobe's format_name gives it) is, by what the file says
    /// of itself: for the ISO family ("mov,mp4,m4a,3gp,3g2,mj2") its major
    /// brand (`brand`, the ftyp box: "isom" is MP4, "qt  " QuickTime); for
    /// "matroska,webm" the EBML DocType at the start of `head`. Nil for
    /// other demuxers, whose long name already names one kind of file.
    static func fileType(demuxer name: String, brand: String?, head: [UInt8]) -> String? {
        switch name {
        case "mov,mp4,m4a,3gp,3g2,mj2":
            guard let brand, !brand.isEmpty else { return "QuickTime" }
            return isoFileTypes.first { brand.hasPrefix($0.prefix) }?.type ?? "ISO base media"
        case "matroska,webm":
            switch ebmlDocType(head) {
            case "webm": return "WebM"
            case "matroska": return "Matroska"
            default: return nil
            }
        default: return nil
        }
    }

    /// Major brands of the ISO base media family by prefix, and the kind of
    /// file each names (the registered brands of mp4ra.org).
    private static let isoFileTypes: [(prefix: String, type: String)] = [
        ("qt", "QuickTime"), ("iso", "MP4"), ("mp4", "MP4"), ("mp7", "MP4"), ("avc1", "MP4"), ("dash", "MP4"),
        ("msnv", "MP4"), ("M4V", "M4V"), ("M4A", "M4A"), ("3gp", "3GPP"), ("3ge", "3GPP"), ("3gg", "3GPP"),
        ("3gs", "3GPP"), ("3g2", "3GPP2"), ("mj2", "Motion JPEG 2000"), ("mjp2", "Motion JPEG 2000"),
        ("f4v", "F4V"), ("crx", "Canon CR3"), ("XAVC", "XAVC"),
    ]

    /// The DocType ("webm", "matroska") of the EBML header `head` starts
    /// with; nil when it does not start with one or names none in it.
    static func ebmlDocType(_ head: [UInt8]) -> String? {
        guard head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) else { return nil }
        var at = 4
        guard let (headerSize, sizeBytes) = vint(head, at: at) else { return nil }
        at += sizeBytes
        let end = min(head.count, at + Int(clamping: headerSize))
        while at < end {
            // An element: its ID (1 to 4 bytes, marker kept), size, data.
            let idLength = head[at].leadingZeroBitCount + 1
            guard idLength <= 4, at + idLength < end, let (size, n) = vint(head, at: at + idLength),
                size <= UInt64(end - at)
            else { return nil }
            let id = head[at..<at + idLength].reduce(0) { $0 << 8 | Int($1) }
            let start = at + idLength + n
            let stop = start + Int(size)
            guard stop <= end else { return nil }
            if id == 0x4282 {
                let text = head[start..<stop].prefix { $0 != 0 }
                guard text.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
                return String(decoding: text, as: UTF8.self)
            }
            at = stop
        }
        return nil
    }

    /// `text` with every byte outside printable ASCII as a `\xNN` escape
    /// (and `\` as `\\`): a file's own words, safe to print.
    static func printable(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (0x20..<0x7F).contains(byte) && byte != 0x5C {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += byte == 0x5C ? "\\\\" : "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// An EBML variable-length size at `at`: its value and its length in
    /// bytes (1 to 8); nil past the end or for a malformed first byte.
    private static func vint(_ bytes: [UInt8], at: Int) -> (UInt64, Int)? {
        guard at < bytes.count, bytes[at] != 0 else { return nil }
        let length = bytes[at].leadingZeroBitCount + 1
        guard at + length <= bytes.count else { return nil }
        var value = UInt64(bytes[at] & (0xFF >> length))
        for i in 1..<length { value = value << 8 | UInt64(bytes[at + i]) }
        return (value, length)
    }

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
