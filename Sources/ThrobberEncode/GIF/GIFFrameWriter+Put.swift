import ThrobberCodecs
import ThrobberCore

/// Handing a coded frame to giflib, and the first frame cut to what it draws.
extension GIFFrameWriter {

    /// Writes `frame` to the file, without its transparent index where no
    /// pixel uses it and it is not disposed of (a disposed frame's
    /// transparent index is what decoders that restore the background
    /// color literally clear to): a graphic control extension without
    /// transparency, delay and disposal is left out (a still's, often an
    /// animation's first).
    func put(_ frame: GIFWriter.Frame) throws {
        if lastTarget == nil, let cropped = croppedFirst(frame) { return try gif.write(cropped) }
        guard let t = frame.transparentIndex, frame.disposal != .background, !frame.indices.contains(UInt8(t))
        else { return try gif.write(frame) }
        var plain = frame
        plain.transparentIndex = nil
        try gif.write(plain)
    }

    /// The first frame cut to the pixels it draws, where that codes
    /// smaller: what lies around them is transparent on the screen before
    /// the first frame, as decoders show it when that frame has a
    /// transparent index (Pillow and ffmpeg fill the screen with it;
    /// browsers leave it clear). So that decoders which fill it with the
    /// background color show it clear too, only a frame on the global table
    /// whose transparent entry is the background index is cut (gifsicle
    /// sets the background index so for a first frame that comes cut), and
    /// it keeps that entry even where no pixel left uses it.
    func croppedFirst(_ frame: GIFWriter.Frame) -> GIFWriter.Frame? {
        guard frame.palette == nil, let globalTable, let t = frame.transparentIndex, t == background else {
            return nil
        }
        let r = frame.rect
        var (minX, minY, maxX, maxY) = (r.width, r.height, -1, -1)
        frame.indices.withUnsafeBufferPointer { ix in
            for y in 0..<r.height {
                let row = y * r.width
                for x in 0..<r.width where Int(ix[row + x]) != t {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxX >= 0, maxX - minX + 1 < r.width || maxY - minY + 1 < r.height else { return nil }
        let cut = PixelRect(x: r.x + minX, y: r.y + minY, width: maxX - minX + 1, height: maxY - minY + 1)
        var indices: [UInt8] = []
        indices.reserveCapacity(cut.width * cut.height)
        for y in minY...maxY { indices += frame.indices[(y * r.width + minX)...(y * r.width + maxX)] }
        var cropped = frame
        cropped.rect = cut
        cropped.indices = indices
        let colors = globalTable.colors
        let whole = GIFWriter.encodedSize(of: frame, palette: colors, width: width, height: height)
        let part = GIFWriter.encoded(
            of: cropped, palette: colors, width: width, height: height, clearRules: gif.clearRules)
        // The probe's LZW data is written again where its code size holds.
        cropped.lzw = part.lzw
        return part.bytes < whole ? cropped : nil
    }
}
