import ThrobberCore

/// Writes an APNG stream with our own chunk writer: signature, IHDR, acTL,
/// then per frame fcTL plus IDAT (the first frame is the default image) or
/// fdAT, one unbroken sequence-number run, and IEND.
package final class APNGWriter {
    package enum ColorType: UInt8, Sendable {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6
    }

    package enum DisposeOp: UInt8 {
        case none = 0
        case background = 1
        case previous = 2
    }
    package enum BlendOp: UInt8 {
        case source = 0
        case over = 1
    }

    /// One frame, already compressed.
    package struct Frame: Sendable {
        package var rect: PixelRect
        package var delay: (numerator: UInt16, denominator: UInt16)
        package var dispose: DisposeOp
        package var blend: BlendOp
        /// zlib stream of the filtered rows.
        package var data: [UInt8]

        package init(
            rect: PixelRect, delay: (numerator: UInt16, denominator: UInt16), dispose: DisposeOp,
            blend: BlendOp, data: [UInt8]
        ) {
            self.rect = rect
            self.delay = delay
            self.dispose = dispose
            self.blend = blend
            self.data = data
        }
    }

    private let sink: ByteSink
    private var chunks = PNGChunkWriter()
    private var sequence: UInt32 = 0
    private var framesWritten = 0
    let frameCount: Int

    /// Writes the header. `depth`: bits per sample (1, 2, 4 or 8).
    /// `palette` (packed RGBA) is for `.palette` only; entries with alpha
    /// below 255 get a tRNS chunk. `loop`: 0 = forever, N = play N times
    /// (acTL num_plays).
    package init(
        sink: ByteSink, width: Int, height: Int, colorType: ColorType, depth: Int = 8, palette: [UInt32]?,
        key: [UInt8]? = nil, frameCount: Int, loop: Int
    ) throws {
        self.sink = sink
        self.frameCount = frameCount
        chunks.signature()
        chunks.chunk(
            "IHDR",
            UInt32(width).bigEndianBytes + UInt32(height).bigEndianBytes + [UInt8(depth), colorType.rawValue, 0, 0, 0])
        chunks.chunk("acTL", UInt32(frameCount).bigEndianBytes + UInt32(loop).bigEndianBytes)
        if let palette {
            chunks.chunk(
                "PLTE", palette.flatMap { [UInt8($0 & 0xFF), UInt8(($0 >> 8) & 0xFF), UInt8(($0 >> 16) & 0xFF)] })
            if let lastTranslucent = palette.lastIndex(where: { $0 >> 24 != 255 }) {
                chunks.chunk("tRNS", palette[...lastTranslucent].map { UInt8($0 >> 24) })
            }
        }
        if let key { chunks.chunk("tRNS", key) }
        try flush()
    }

    package func write(_ frame: Frame) throws {
        precondition(framesWritten < frameCount, "more frames than acTL announced")
        var fctl = sequence.bigEndianBytes
        fctl += UInt32(frame.rect.width).bigEndianBytes + UInt32(frame.rect.height).bigEndianBytes
        fctl += UInt32(frame.rect.x).bigEndianBytes + UInt32(frame.rect.y).bigEndianBytes
        fctl += frame.delay.numerator.bigEndianBytes + frame.delay.denominator.bigEndianBytes
        fctl += [frame.dispose.rawValue, frame.blend.rawValue]
        chunks.chunk("fcTL", fctl)
        sequence += 1
        // Large frames are split into chunks of at most 1 MiB, as encoders usually do.
        let piece = 1 << 20
        var start = 0
        repeat {
            let end = min(frame.data.count, start + piece)
            if framesWritten == 0 {
                chunks.chunk("IDAT", Array(frame.data[start..<end]))
            } else {
                chunks.chunk("fdAT", sequence.bigEndianBytes + frame.data[start..<end])
                sequence += 1
            }
            start = end
        } while start < frame.data.count
        framesWritten += 1
        try flush()
    }

    package func finish() throws {
        precondition(framesWritten == frameCount, "acTL announced \(frameCount) frames, wrote \(framesWritten)")
        chunks.chunk("IEND", [])
        try flush()
    }

    private func flush() throws {
        try sink.put(chunks.take())
    }

    /// fcTL's delay fraction for a frame shown from `start` to `end` seconds:
    /// exact when it fits in 16 bits, otherwise rounded on cumulative times
    /// (milliseconds, then centiseconds, then seconds) so it never drifts.
    package static func delay(from start: Rational, to end: Rational) -> (numerator: UInt16, denominator: UInt16) {
        let d = end - start
        if d.numerator <= 65535 && d.denominator <= 65535 { return (UInt16(d.numerator), UInt16(d.denominator)) }
        for unit: Int64 in [1000, 100, 1] {
            let n = (end * Rational(unit)).roundedHalfUp - (start * Rational(unit)).roundedHalfUp
            if n <= 65535 { return (UInt16(n), UInt16(unit)) }
        }
        return (65535, 1)
    }
}
