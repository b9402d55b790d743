import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// Frames streamed on a pipe, such as standard input: concatenated PNG
/// files (`ffmpeg -f image2pipe -c:v png -`) or a YUV4MPEG2 stream
/// (`ffmpeg -f yuv4mpegpipe -`), told apart by their first bytes.
///
/// The encoder reads frames more than once and in any order, so the
/// stream is read to its end first and kept in an unlinked temporary file
/// (in `TMPDIR`): each frame's bytes as they came (PNG files, or raw
/// Y'CbCr planes), with only their offsets in memory. Memory stays flat in
/// the number of frames, and nothing is left on disk however the process
/// ends. Frames are decoded when asked for.
///
/// YUV4MPEG2 frames (8-bit 4:2:0, 4:2:2, 4:4:4 or mono) are converted with
/// the BT.601 matrix unless the header says BT.709 (an `XCOLORSPACE=BT709`
/// extension), in limited range unless `XCOLORRANGE=FULL` (gray: full
/// unless `XCOLORRANGE=LIMITED`); chroma is replicated, not interpolated.
public struct StreamFrameSource: FrameSource {
    /// Where one frame's bytes are in the temporary file.
    struct Span: Sendable {
        var offset: Int
        var length: Int
    }

    /// The stream's name in messages ("standard input").
    public let name: String
    /// The YUV4MPEG2 header's frame rate (the F field), exact; nil for a
    /// PNG stream, which has none.
    public let frameRate: Rational?
    /// Composited under every frame (`--background`; a YUV4MPEG2 frame is
    /// opaque, so it only shows under a PNG's transparent pixels).
    public var background = Color.transparent
    /// "PNG" or "YUV4MPEG2 640x360 4:2:0, BT.601 limited range".
    public let summary: String
    private let spool: SpoolFile
    private let spans: [Span]
    private let converter: YUVConverter?

    /// Checks a frame size a stream's header gives before its frames are
    /// read: called with the size and what it is, for messages ("standard
    /// input: encoding YUV4MPEG2 frames of 4096x4096 (the W and H of its
    /// header)");
    /// throws to refuse the stream.
    public typealias SizeCheck = (FrameSize, String) throws -> Void

    /// Reads the stream on `fd` to its end. `check` is called with the
    /// frame size as soon as a header gives it (the YUV4MPEG2 header, the
    /// IHDR of the first PNG), before the frames are spooled, and its error
    /// ends the read. Throws, naming the stream and the frame:
    /// ``ThrobberError/Kind/noInput`` when the stream is empty,
    /// ``ThrobberError/Kind/data`` when it is neither PNG files nor
    /// YUV4MPEG2, is cut short, has bytes after its last frame that are no
    /// frame, or is over ``StreamLimits``; ``ThrobberError/Kind/io`` when
    /// reading or spooling fails.
    public init(fd: Int32, name: String = "standard input", check: SizeCheck? = nil) throws {
        self.name = name
        var input = StreamInput(fd: fd, name: name)
        guard try input.fill(Y4MHeader.magic.count) || input.available > 0 else {
            throw ThrobberError(
                .noInput,
                "\(name): no frames: the stream is empty; pipe PNG files or a YUV4MPEG2 stream, e.g. ffmpeg -i clip.mp4 -f image2pipe -c:v png - | throbber encode - -o out.gif"
            )
        }
        let spool = try SpoolFile(name: name)
        self.spool = spool
        let head = Array(input.peek(Y4MHeader.magic.count))
        if head.starts(with: ImageFormat.pngSignature) {
            spans = try PNGStreamReader.read(&input, into: spool, check: check)
            frameRate = nil
            converter = nil
            summary = "PNG"
        } else if head == Y4MHeader.magic {
            let (header, spans) = try Y4MStreamReader.read(&input, into: spool, check: check)
            guard !spans.isEmpty else {
                throw ThrobberError(.noInput, "\(name): the YUV4MPEG2 stream has a header but no frames")
            }
            self.spans = spans
            frameRate = header.frameRate
            converter = YUVConverter(header.format)
            summary = "YUV4MPEG2 \(header.format.description)"
        } else {
            throw ThrobberError(
                .data,
                "\(name): not a PNG or YUV4MPEG2 stream (unrecognised first bytes); pipe frames with ffmpeg -f image2pipe -c:v png - or ffmpeg -f yuv4mpegpipe -"
            )
        }
    }

    /// Reads the pipe or FIFO at `path` to its end, as ``init(fd:name:check:)``
    /// reads standard input, under the same limits (``StreamLimits``);
    /// messages name `path`. A FIFO with no writer yet is waited for, as
    /// cat(1) does. Throws as ``init(fd:name:check:)`` does, and
    /// ``ThrobberError/Kind/usage`` when `path` is no pipe (see ``isStream(_:)``).
    public init(path: String, check: SizeCheck? = nil) throws {
        let fd = try FileBytes.openStream(path)
        defer { close(fd) }
        try self.init(fd: fd, name: path, check: check)
    }

    /// Whether `path` names a pipe or FIFO (symbolic links followed), such
    /// as the `/dev/fd/63` of a shell's `<(…)`: an input read once, as a
    /// stream, with ``init(path:check:)``.
    public static func isStream(_ path: String) -> Bool {
        FileBytes.kind(path) == .stream
    }

    /// How many frames the stream held.
    public var count: Int { spans.count }

    /// "standard input frame 3" (counting from 1).
    public func name(at index: Int) -> String { "\(name) frame \(index + 1)" }

    /// Frame `index`'s size: the YUV4MPEG2 header's, or the IHDR of the
    /// PNG file the frame is (read back from the temporary file); nil when
    /// that cannot be read.
    public func knownSize(at index: Int) -> FrameSize? {
        if let converter { return FrameSize(width: converter.format.width, height: converter.format.height) }
        let span = spans[index]
        guard span.length >= 24, let head = try? spool.read(24, at: span.offset),
            head.count == 24, head[12..<16].elementsEqual("IHDR".utf8)
        else { return nil }
        func word(_ at: Int) -> Int { head[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return FrameSize(width: word(16), height: word(20))
    }

    /// Frame `index`, read back from the temporary file and decoded (PNG,
    /// exactly as the same file in a folder would be) or converted to RGB
    /// (YUV4MPEG2). Throws a data error naming the frame when a PNG does not
    /// decode, an I/O error when the read fails.
    public func frame(at index: Int) throws -> RGBAImage {
        let span = spans[index]
        let bytes = try spool.read(span.length, at: span.offset)
        if let converter { return converter.image(bytes).over(background: background) }
        return try ImageDecoder.decode(bytes, name: name(at: index)).over(background: background)
    }
}
