internal import CFFmpeg
import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// What a video file is, read from its headers (and, for the frame list,
/// its packets).
public struct VideoInfo: Sendable, Equatable {
    /// The container as FFmpeg (and ffprobe's format_long_name) names
    /// it: "QuickTime / MOV" for every file of the ISO family, MP4 too.
    public var container: String
    /// FFmpeg's demuxer, as ffprobe's format_name gives it: "mov,mp4,m4a,3gp,3g2,mj2".
    public var formatName: String
    /// The kind of file, by what it says of itself, where FFmpeg's name
    /// covers several: "MP4", "QuickTime", "3GPP" (by major brand),
    /// "WebM", "Matroska" (by EBML DocType); nil otherwise
    /// (`VideoContainer.fileType(demuxer:brand:head:)`).
    public var fileType: String?
    /// The major brand of an ISO-family file ("isom", "qt  ", "mp42"), as
    /// ffprobe's major_brand tag gives it (a byte outside printable ASCII
    /// as a `\xNN` escape); nil for other containers.
    public var brand: String?
    /// The codec's long name and profile: "H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (High)".
    public var codec: String
    /// The decoder used: "h264", "libvpx-vp9".
    public var decoder: String
    /// The size of the pictures the stream codes.
    public var codedWidth: Int, codedHeight: Int
    /// Clockwise degrees the picture is turned for display: 0, 90, 180 or 270.
    public var rotation: Int
    /// The display matrix's rotation as ffprobe reports it (its side data's
    /// `rotation`): degrees counterclockwise, -180 to 180, rounded, so -90
    /// is shown turned 90° clockwise; nil when the stream has no matrix.
    public var matrixRotation: Int?
    /// Whether the display matrix mirrors the picture.
    public var flip: Bool
    /// The width of a pixel over its height; 1 when square or unknown.
    public var sampleAspect: Rational
    /// The size frames are shown at: the width scaled by ``sampleAspect``
    /// (rounded to the nearest pixel, at least 1), then turned by ``rotation``.
    public var displayWidth: Int, displayHeight: Int
    /// FFmpeg's name of the coded pixel format: "yuv420p".
    public var pixelFormat: String
    /// The stream's color tags, as FFmpeg names them ("bt709", "tv"/"pc",
    /// "left"); "unknown" when the stream does not say.
    public var colorMatrix: String, colorRange: String, colorPrimaries: String, colorTransfer: String,
        chromaLocation: String
    /// Whether frames carry an alpha channel.
    public var hasAlpha: Bool
    /// Frames per second, exact, when every frame lasts the same (from the
    /// timestamps); nil when the frame rate varies.
    public var frameRate: Rational?
    /// Seconds from the first frame's start to the stream's end.
    public var duration: Rational
    /// Frames in the stream.
    public var frameCount: Int
}

extension VideoInfo {
    /// The header fields of `demuxer`'s stream, decoded by `decoder`;
    /// ``frameRate``, ``duration`` and ``frameCount`` are left for the
    /// packet scan to fill in.
    init(_ demuxer: VideoDemuxer, decoder: UnsafePointer<AVCodec>, alpha: Bool) {
        let ff = demuxer.ff.fn
        let stream = demuxer.stream
        let par = stream.pointee.codecpar.pointee
        let descriptor = ff.avcodec_descriptor_get(par.codec_id)
        var codec = descriptor.flatMap { $0.pointee.long_name.map { String(cString: $0) } } ?? "unknown codec"
        if par.profile != FF_PROFILE_UNKNOWN, let profile = ff.avcodec_profile_name(par.codec_id, par.profile) {
            codec += " (\(String(cString: profile)))"
        }
        let orientation = VideoOrientation(demuxer)
        let sar = Self.sampleAspect(stream)
        let width = max(1, Int((Rational(Int64(par.width)) * sar).roundedHalfUp))
        let format = AVPixelFormat(par.format)
        let formatName = ff.av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
        let formatAlpha = ff.av_pix_fmt_desc_get(format).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 }
        let iformat = demuxer.context.pointee.iformat.pointee
        let demuxerName = String(cString: iformat.name)
        let brand = ff.av_dict_get(demuxer.context.pointee.metadata, "major_brand", nil, 0).map {
            VideoContainer.printable(String(cString: $0.pointee.value))
        }
        self.init(
            container: iformat.long_name.map { String(cString: $0) } ?? "unknown", formatName: demuxerName,
            fileType: VideoContainer.fileType(demuxer: demuxerName, brand: brand, head: Self.head(demuxer)),
            brand: brand, codec: codec, decoder: String(cString: decoder.pointee.name),
            codedWidth: Int(par.width), codedHeight: Int(par.height),
            rotation: orientation.rotation, matrixRotation: orientation.matrixRotation, flip: orientation.flip,
            sampleAspect: sar,
            displayWidth: orientation.swapsSides ? Int(par.height) : width,
            displayHeight: orientation.swapsSides ? width : Int(par.height),
            pixelFormat: alpha && formatName == "yuv420p" ? "yuva420p" : formatName,
            colorMatrix: Self.tag(ff.av_color_space_name(par.color_space)),
            colorRange: Self.tag(ff.av_color_range_name(par.color_range)),
            colorPrimaries: Self.tag(ff.av_color_primaries_name(par.color_primaries)),
            colorTransfer: Self.tag(ff.av_color_transfer_name(par.color_trc)),
            chromaLocation: Self.tag(ff.av_chroma_location_name(par.chroma_location)),
            hasAlpha: alpha || formatAlpha == true, frameRate: nil, duration: 0, frameCount: 0)
    }

    /// The first bytes of the file (where a Matroska file's EBML header
    /// is), read without moving FFmpeg's position in it.
    private static func head(_ demuxer: VideoDemuxer) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { pread(demuxer.input.fd, $0.baseAddress, 64, 0) }
        return Array(bytes.prefix(max(0, count)))
    }

    /// The stream's sample aspect ratio, else the codec's; 1 when neither
    /// says or the value is not positive.
    private static func sampleAspect(_ stream: UnsafeMutablePointer<AVStream>) -> Rational {
        for sar in [stream.pointee.sample_aspect_ratio, stream.pointee.codecpar.pointee.sample_aspect_ratio]
        where sar.num > 0 && sar.den > 0 {
            return Rational(Int64(sar.num), Int64(sar.den))
        }
        return 1
    }

    /// FFmpeg's name for a tag, "unknown" for none or "unspecified".
    private static func tag(_ name: UnsafePointer<CChar>?) -> String {
        guard let name else { return "unknown" }
        let text = String(cString: name)
        return text == "unspecified" || text.isEmpty ? "unknown" : text
    }
}

/// How a stream's display matrix turns and mirrors its pictures, and the
/// steps that show them upright, as ffmpeg's automatic rotation takes them.
struct VideoOrientation: Sendable, Equatable {
    /// Clockwise degrees: 0, 90, 180 or 270.
    var rotation = 0
    /// Whether the matrix mirrors.
    var flip = false
    /// The matrix's counterclockwise rotation as ffprobe prints it; nil
    /// without a matrix.
    var matrixRotation: Int?
    /// The steps, applied to the decoded picture in order.
    var steps: [VideoOrientationStep] = []

    /// Whether the displayed picture's width is the coded height.
    var swapsSides: Bool { rotation == 90 || rotation == 270 }

    /// The orientation of `demuxer`'s stream; upright when it has no
    /// display matrix.
    init(_ demuxer: VideoDemuxer) {
        let ff = demuxer.ff.fn
        var size: Int = 0
        guard let raw = ff.av_stream_get_side_data(demuxer.stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
            size >= 9 * 4
        else { return }
        let m = UnsafeRawPointer(raw).assumingMemoryBound(to: Int32.self)
        let ccw = ff.av_display_rotation_get(m)
        guard ccw.isFinite else { return }
        matrixRotation = Int(ccw.rounded())
        var theta = -ccw.rounded()
        theta -= 360 * (theta / 360 + 0.9 / 360).rounded(.down)
        let turn = Int((theta / 90).rounded()) % 4 * 90
        rotation = turn
        flip = Int64(m[0]) * Int64(m[4]) - Int64(m[1]) * Int64(m[3]) < 0
        switch turn {
        case 90: steps = [m[3] > 0 ? .transpose : .clockwise]
        case 180: steps = (m[0] < 0 ? [.mirror] : []) + (m[4] < 0 ? [.upsideDown] : [])
        case 270: steps = [m[3] < 0 ? .antiTranspose : .counterclockwise]
        default: steps = flip ? [.mirror] : []
        }
    }
}

/// One step of ``VideoOrientation``, as ffmpeg's transpose, hflip and
/// vflip filters take it.
enum VideoOrientationStep: Sendable, Equatable {
    /// A quarter turn clockwise (transpose=clock).
    case clockwise
    /// A quarter turn counterclockwise (transpose=cclock).
    case counterclockwise
    /// Rows become columns, across the main diagonal (transpose=cclock_flip).
    case transpose
    /// Across the other diagonal (transpose=clock_flip).
    case antiTranspose
    /// Left and right exchanged (hflip).
    case mirror
    /// Top and bottom exchanged (vflip).
    case upsideDown
}
