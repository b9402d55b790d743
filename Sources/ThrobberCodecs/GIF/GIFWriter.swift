internal import CGIF
import FoundationEssentials
import Glibc
import ThrobberCore

/// Writes a GIF89a stream with giflib's encoder (EGif*): screen descriptor,
/// NETSCAPE2.0 loop extension, and per frame a graphic control extension
/// (where it says anything) and
/// an LZW-compressed image with an optional local color table.
package final class GIFWriter {
    private var gif: UnsafeMutablePointer<GifFileType>?
    private let sink: ByteSink
    /// What the last `write` coded.
    private var lastLZW: LZWData?
    private var sinkFailed = false
    /// Codes image data (see `LZWEncoder`), unless `usesGiflibLZW`.
    private var lzw = LZWEncoder()
    /// Image data from giflib's own LZW coder (`EGifPutLine`) rather than
    /// the smallest of `LZWEncoder`'s clear rules: for tests that compare
    /// the two, and for simulations of giflib's dictionary.
    package var usesGiflibLZW = false
    /// Whether each image is also coded with its rows interlaced (rows 0,
    /// 8, 16 …, then 4, 12 …, then 2, 6 …, then the odd ones, as the GIF
    /// spec orders them) and written so where that is smaller: for a still,
    /// one more LZW pass, and what gifsicle keeps from an interlaced input
    /// (Pillow's hopper_resized.gif: 3 bytes fewer).
    package var triesInterlace = false
    /// Whether images are also coded with the clear moved by a string
    /// (`LZWEncoder.ClearRule.movedByAString`). That pays a few bytes on
    /// some images (giflib's wedge.gif: 3) for two more LZW passes after
    /// the dictionary first fills, so once those rules have lost on 4
    /// images in a row they are tried on every 16th only. Off for the size
    /// probes of `encoded(of:)`.
    package var triesClearPlaces = true
    /// The clear rules tried at giflib's place: all of them, or only
    /// giflib's own (`--compression fast`: one LZW pass an image).
    package var clearRules = LZWEncoder.ClearRule.atGiflibsPlace
    private var clearPlaceLosses = 0
    private var imagesWritten = 0

    /// Starts the stream. `loop` follows the config: 0 = forever, N = play N
    /// times (the NETSCAPE count is the number of repeats, N − 1; a GIF that
    /// plays once has no loop extension).
    package init(sink: ByteSink, width: Int, height: Int, globalPalette: [UInt32]?, backgroundIndex: Int, loop: Int?)
        throws
    {
        self.sink = sink
        var error: Int32 = 0
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard
            let gif = EGifOpen(
                user,
                { file, bytes, length in
                    guard let file, let user = file.pointee.UserData else { return 0 }
                    let writer = Unmanaged<GIFWriter>.fromOpaque(user).takeUnretainedValue()
                    let ok = writer.sink.write(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
                    if !ok {
                        writer.sinkFailed = true
                        return 0
                    }
                    return length
                }, &error)
        else {
            throw ThrobberError(.software, "giflib: cannot start a GIF stream (\(GIFWriter.describe(error)))")
        }
        self.gif = gif
        EGifSetGifVersion(gif, true)
        let map = globalPalette.map(GIFWriter.makeMap)
        defer { if let map { GifFreeMapObject(map) } }
        try check(
            EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, Int32(backgroundIndex), map), "screen descriptor")
        if let loop, loop != 1 {
            let repeats = loop == 0 ? 0 : loop - 1
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "loop extension")
            var id = Array("NETSCAPE2.0".utf8)
            try check(EGifPutExtensionBlock(gif, 11, &id), "loop extension")
            var data: [UInt8] = [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8)]
            try check(EGifPutExtensionBlock(gif, 3, &data), "loop extension")
            try check(EGifPutExtensionTrailer(gif), "loop extension")
        }
    }

    deinit {
        if let gif {
            var e: Int32 = 0
            EGifCloseFile(gif, &e)
        }
    }

    package func write(_ frame: Frame) throws {
        guard let gif else { throw ThrobberError(.software, "GIF stream already closed") }
        try putControlExtension(frame, into: gif)
        let map = frame.palette.map(GIFWriter.makeMap)
        defer { if let map { GifFreeMapObject(map) } }
        // giflib takes the LZW code size from the color table. With the
        // global table, a frame whose indices are all small can start with
        // narrower codes (the GIF spec sets the minimum code size per image;
        // it need only hold the frame's indices): giflib reads the global
        // table's BitsPerPixel when the image data starts, and that table
        // is already written, so it is narrowed for this frame only.
        let global = map == nil ? gif.pointee.SColorMap : nil
        let tableBits = global?.pointee.BitsPerPixel ?? 0
        if let global {
            let highest = max(Int(frame.indices.max() ?? 0), frame.transparentIndex ?? 0)
            global.pointee.BitsPerPixel = Int32(GIFWriter.codeBits(highest))
        }
        defer { global?.pointee.BitsPerPixel = tableBits }
        // giflib 5.2.1's EGifPutImageDesc forgets the previous image's local
        // table, without freeing it, when the next image has none.
        if map == nil, let stale = gif.pointee.Image.ColorMap {
            gif.pointee.Image.ColorMap = nil
            GifFreeMapObject(stale)
        }
        if usesGiflibLZW {
            try check(
                EGifPutImageDesc(
                    gif, Int32(frame.rect.x), Int32(frame.rect.y), Int32(frame.rect.width),
                    Int32(frame.rect.height), false, map), "image descriptor")
            var indices = frame.indices
            try check(EGifPutLine(gif, &indices, Int32(indices.count)), "image data")
            return
        }
        // The code size giflib writes: the table's bits, at least 2.
        let codeSize = max(2, Int((map ?? gif.pointee.SColorMap)?.pointee.BitsPerPixel ?? 8))
        let (data, interlaced) = imageData(frame, codeSize: codeSize)
        try check(
            EGifPutImageDesc(
                gif, Int32(frame.rect.x), Int32(frame.rect.y), Int32(frame.rect.width),
                Int32(frame.rect.height), interlaced, map), "image descriptor")
        try putCodes(data, codeSize: codeSize, into: gif)
    }

    /// The frame's image data: the smallest LZW data of its indices (see
    /// `coded`), and of its rows interlaced when `triesInterlace`, with
    /// whether the interlaced rows won. The plain coding is kept as
    /// `lastLZW`.
    private func imageData(_ frame: Frame, codeSize: Int) -> (data: [UInt8], interlaced: Bool) {
        let movesClear = triesClearPlaces && (clearPlaceLosses < 4 || imagesWritten % 16 == 0)
        imagesWritten += 1
        let data = frame.indices.withUnsafeBufferPointer { indices in
            coded(
                indices, codeSize: codeSize, movesClear: movesClear,
                cached: frame.lzw.flatMap { $0.codeSize == codeSize && $0.indices == frame.indices ? $0.data : nil })
        }
        lastLZW = LZWData(indices: frame.indices, codeSize: codeSize, data: data)
        if triesInterlace, frame.rect.height > 2 {
            let rows = GIFWriter.interlacedRows(frame.indices, width: frame.rect.width, height: frame.rect.height)
            let other = rows.withUnsafeBufferPointer {
                coded($0, codeSize: codeSize, movesClear: movesClear, cached: nil)
            }
            if other.count < data.count { return (other, true) }
        }
        return (data, false)
    }

    /// The frame's graphic control extension (delay, transparency,
    /// disposal). One that says nothing (no delay, no transparency, the
    /// frame left in place) is left out, as gifsicle does: viewers treat a
    /// frame without one, disposal "unspecified", exactly so. A still saves
    /// 8 bytes.
    private func putControlExtension(_ frame: Frame, into gif: UnsafeMutablePointer<GifFileType>) throws {
        if frame.delay != 0 || frame.transparentIndex != nil || frame.disposal != .none {
            var gcb = GraphicsControlBlock(
                DisposalMode: Int32(frame.disposal.rawValue), UserInputFlag: false,
                DelayTime: Int32(frame.delay),
                TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
            var ext = [UInt8](repeating: 0, count: 4)
            let n = EGifGCBToExtension(&gcb, &ext)
            try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(n), &ext), "graphic control extension")
        }
    }

    /// `data`, LZW codes of minimum size `codeSize`, as the image's data
    /// sub-blocks and their terminator. giflib has written the code size
    /// and starts no image data of its own until `EGifPutLine`: the codes go
    /// in with `EGifPutCode`, giflib's call for passing LZW data through.
    private func putCodes(_ data: [UInt8], codeSize: Int, into gif: UnsafeMutablePointer<GifFileType>) throws {
        try data.withUnsafeBufferPointer { all in
            var block = [UInt8](repeating: 0, count: 256)
            var start = 0
            while start < all.count {
                let n = min(255, all.count - start)
                block[0] = UInt8(n)
                for j in 0..<n { block[1 + j] = all[start + j] }
                try check(
                    start == 0 ? EGifPutCode(gif, Int32(codeSize), block) : EGifPutCodeNext(gif, block),
                    "image data")
                start += n
            }
        }
        try check(EGifPutCodeNext(gif, nil), "image data")
    }

    /// Writes the trailer and releases giflib's state.
    package func finish() throws {
        guard let gif else { return }
        self.gif = nil
        var error: Int32 = 0
        if EGifCloseFile(gif, &error) == GIF_ERROR || sinkFailed {
            throw sinkFailed ? sinkError : ThrobberError(.io, "giflib: \(GIFWriter.describe(error))")
        }
    }

    private func check(_ status: Int32, _ what: String) throws {
        if status == GIF_ERROR {
            if sinkFailed { throw sinkError }
            throw ThrobberError(
                .software, "giflib: cannot write \(what): \(GIFWriter.describe(gif?.pointee.Error ?? 0))")
        }
    }

    /// The sink's own error (naming the file and why), when it has one.
    private var sinkError: ThrobberError { sink.failure ?? ThrobberError(.io, "write failed") }

    /// The smallest LZW data of `indices` among the clear rules (only those
    /// at giflib's place unless `movesClear`), `cached` standing for those.
    /// Counts the moved rules' losses on images that fill the dictionary.
    private func coded(
        _ indices: UnsafeBufferPointer<UInt8>, codeSize: Int, movesClear: Bool, cached: [UInt8]?
    ) -> [UInt8] {
        let rules = LZWEncoder.ClearRule.self
        guard let cached else {
            let data = lzw.smallest(
                indices, codeSize: codeSize, rules: movesClear ? rules.allCases : clearRules)
            if movesClear && lzw.filled {
                clearPlaceLosses = rules.movedByAString.contains(lzw.chosen) ? 0 : clearPlaceLosses + 1
            }
            return data
        }
        guard movesClear else { return cached }
        let moved = lzw.smallest(indices, codeSize: codeSize, rules: rules.movedByAString)
        guard lzw.filled else { return cached }
        if moved.count < cached.count {
            clearPlaceLosses = 0
            return moved
        }
        clearPlaceLosses += 1
        return cached
    }

    /// Bytes `frame` would take in a file of its own with `palette` as
    /// its local table, and its LZW data: used to choose between encodings
    /// of the same frame (the data is written again as it is when the code
    /// size agrees).
    package static func encoded(
        of frame: Frame, palette: [UInt32], width: Int, height: Int,
        clearRules: [LZWEncoder.ClearRule] = LZWEncoder.ClearRule.atGiflibsPlace
    ) -> (bytes: Int, lzw: LZWData?) {
        let sink = CountingSink()
        do {
            let probe = try GIFWriter(
                sink: sink, width: width, height: height, globalPalette: nil,
                backgroundIndex: 0, loop: 1)
            probe.triesClearPlaces = false
            probe.clearRules = clearRules
            var f = frame
            f.palette = palette
            try probe.write(f)
            try probe.finish()
            return (sink.count, probe.lastLZW)
        } catch {
            return (Int.max, nil)
        }
    }

    /// The bytes of ``encoded(of:palette:width:height:)``.
    package static func encodedSize(of frame: Frame, palette: [UInt32], width: Int, height: Int) -> Int {
        encoded(of: frame, palette: palette, width: width, height: height).bytes
    }
}
