import ThrobberCore

/// Reads a YUV4MPEG2 stream (`ffmpeg -f yuv4mpegpipe -`): its header, then
/// every "FRAME" header and the frame's raw planes, which are spooled as
/// they are. A short frame or bytes that are not a frame header are an
/// error naming the frame.
enum Y4MStreamReader {
    /// Bytes copied to the spool at a time.
    private static let piece = 1 << 20

    /// Longest header line (the stream's, or a frame's FRAME line) read,
    /// newline included.
    static let maxLine = 4096

    /// The header and where each frame's planes are in `spool`. `check`
    /// is called with the frame size the header gives before any frame is
    /// read (the run's memory budget refuses frames it cannot hold).
    static func read(
        _ input: inout StreamInput, into spool: SpoolFile, check: StreamFrameSource.SizeCheck? = nil
    ) throws -> (Y4MHeader, [StreamFrameSource.Span]) {
        let name = input.name
        guard let line = try input.line(limit: Self.maxLine) else {
            throw ThrobberError(
                .data,
                input.available >= Self.maxLine
                    ? "\(name): the YUV4MPEG2 header line is too long (at most \(Self.maxLine) bytes)"
                    : "\(name): the stream ends inside its YUV4MPEG2 header line")
        }
        let header = try Y4MHeader(line, name: name)
        let format = header.format
        try check?(
            FrameSize(width: format.width, height: format.height),
            "\(name): encoding YUV4MPEG2 frames of \(format.width)x\(format.height) (the W and H of its header)")
        let size = format.frameBytes
        var spans: [StreamFrameSource.Span] = []
        while try !input.atEnd() {
            let number = spans.count + 1
            let after = number == 1 ? "" : " (frames 1-\(number - 1) are complete)"
            try readFrameHeader(&input, number: number, after: after)
            // Checked: the limit is what keeps these sums small.
            let offset = FrameSize.product(spans.count, size)
            let total = offset.addingReportingOverflow(size)
            try StreamLimits.check(frame: number, total: total.overflow ? .max : total.partialValue, name: name)
            var done = 0
            while done < size {
                let want = min(Self.piece, size - done)
                guard try input.fill(want) else {
                    throw ThrobberError(
                        .data,
                        "\(name): frame \(number) is truncated: \(done + input.available) of its \(size) bytes (\(header.format.description)) arrived\(after); nothing was encoded"
                    )
                }
                try input.take(want).withUnsafeBytes { try spool.write($0, at: offset + done) }
                done += want
            }
            spans.append(StreamFrameSource.Span(offset: offset, length: size))
        }
        return (header, spans)
    }

    /// Reads the FRAME header line of frame `number` from `input`; `after`
    /// says which frames are complete, for the errors.
    private static func readFrameHeader(_ input: inout StreamInput, number: Int, after: String) throws {
        let name = input.name
        let frameTag = Array("FRAME".utf8)
        _ = try input.fill(frameTag.count + 1)
        let start = Array(input.peek(frameTag.count + 1))
        let tagged =
            start.starts(with: frameTag) && (start.count == frameTag.count || [0x20, 0x0A].contains(start.last!))
        guard tagged || (frameTag.starts(with: start) && start.count < frameTag.count) else {
            throw ThrobberError(
                .data,
                "\(name): frame \(number) does not start with a FRAME header\(number == 1 ? "" : ": the bytes after frame \(number - 1) are not a YUV4MPEG2 frame (garbage at the end of the stream?)"); nothing was encoded"
            )
        }
        guard try input.line(limit: Self.maxLine) != nil else {
            if input.available >= Self.maxLine {
                throw ThrobberError(
                    .data,
                    "\(name): frame \(number): its FRAME header is too long (at most \(Self.maxLine) bytes, with no newline in them)\(after); nothing was encoded"
                )
            }
            throw ThrobberError(
                .data,
                "\(name): frame \(number) is truncated: the stream ends inside its FRAME header\(after); nothing was encoded"
            )
        }
    }
}
