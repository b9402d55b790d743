import ThrobberCore

/// Splits a stream of concatenated PNG files (`ffmpeg -f image2pipe -c:v
/// png -`) into frames: walks each file chunk by chunk up to its IEND and
/// spools its bytes unchanged. A stream that ends inside a file, or goes on
/// with bytes that are not a PNG file, is an error naming the frame.
enum PNGStreamReader {
    /// Spools every PNG of `input` into `spool`; returns where each is.
    /// `check` is called with the size in the first file's IHDR before
    /// the rest of the stream is read (the run's memory budget refuses
    /// frames it cannot hold).
    static func read(
        _ input: inout StreamInput, into spool: SpoolFile, check: StreamFrameSource.SizeCheck? = nil
    ) throws -> [StreamFrameSource.Span] {
        let name = input.name
        let signature = ImageFormat.pngSignature
        var spans: [StreamFrameSource.Span] = []
        var end = 0
        while try !input.atEnd() {
            let number = spans.count + 1
            let complete = number == 1 ? "" : " (frames 1-\(number - 1) are complete)"
            func truncated(_ got: Int) -> ThrobberError {
                ThrobberError(
                    .data,
                    "\(name): frame \(number) is truncated: the stream ends after \(got) bytes of its PNG file\(complete); nothing was encoded"
                )
            }
            let whole = try input.fill(8)
            let head = Array(input.peek(8))
            guard head == signature else {
                if !whole && signature.starts(with: head) { throw truncated(head.count) }
                throw ThrobberError(
                    .data,
                    "\(name): frame \(number) does not start with a PNG signature\(number == 1 ? "" : ": the bytes after frame \(number - 1) are not a PNG file (garbage at the end of the stream?)"); nothing was encoded"
                )
            }
            var length = 0
            func append(_ bytes: ArraySlice<UInt8>) throws {
                try StreamLimits.check(frame: number, total: end + length + bytes.count, name: name)
                try bytes.withUnsafeBytes { try spool.write($0, at: end + length) }
                length += bytes.count
            }
            try append(input.take(8))
            while true {
                guard try input.fill(8) else { throw truncated(length + input.available) }
                let head = input.peek(8)
                let size = head.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                let isEnd = Array(head.dropFirst(4)) == Array("IEND".utf8)
                guard length + 12 + size <= StreamLimits.maxPNGBytes else {
                    throw ThrobberError(
                        .data,
                        "\(name): frame \(number) is larger than \(StreamLimits.maxPNGBytes >> 20) MiB (a chunk of \(size) bytes); is the stream really PNG files?"
                    )
                }
                guard try input.fill(12 + size) else { throw truncated(length + input.available) }
                let chunk = input.take(12 + size)
                if number == 1, size == 13, chunk.dropFirst(4).prefix(4).elementsEqual("IHDR".utf8), let check {
                    let w = chunk.dropFirst(8).prefix(4).reduce(0) { $0 << 8 | Int($1) }
                    let h = chunk.dropFirst(12).prefix(4).reduce(0) { $0 << 8 | Int($1) }
                    try check(
                        FrameSize(width: w, height: h),
                        "\(name): encoding PNG frames of \(w)x\(h) (the IHDR of frame 1)")
                }
                try append(chunk)
                if isEnd { break }
            }
            spans.append(StreamFrameSource.Span(offset: end, length: length))
            end += length
        }
        return spans
    }
}
