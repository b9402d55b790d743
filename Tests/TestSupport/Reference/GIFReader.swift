import CGIF
import Foundation
import Testing

/// An independent GIF decoder for tests: giflib's DGifSlurp reads the file,
/// and this compositor draws the frames as a browser does. The canvas starts
/// transparent; a frame draws its rectangle through its local (else global)
/// palette, skipping its transparent index; then its disposal applies:
/// 1 (or 0) keeps the pixels, 2 clears the rectangle to transparent,
/// 3 restores the canvas as it was before the frame. Transparent pixels are
/// always 0,0,0,0.
package struct DecodedGIF {
    package struct Frame {
        /// The composited canvas while this frame is shown (RGBA).
        package var pixels: [UInt8]
        package var delay: Int
        package var disposal: Int
        package var left: Int, top: Int, width: Int, height: Int
        package var transparentIndex: Int?
        package var hasLocalPalette: Bool
        /// Entries in the palette this frame uses (giflib pads to a power of two).
        package var paletteSize: Int
        /// The opaque colors this frame's own pixels draw (packed RGB).
        package var drawnColors: Set<UInt32>
    }

    package var width: Int, height: Int
    package var hasGlobalPalette: Bool
    /// NETSCAPE2.0 repeat count; nil when the file has no loop extension.
    package var netscapeLoop: Int?
    package var frames: [Frame]

    package var totalDelay: Int { frames.reduce(0) { $0 + $1.delay } }

    package struct Failure: Error, CustomStringConvertible { package var description: String }

    package init(path: String) throws {
        var error: Int32 = 0
        guard let gif = DGifOpenFileName(path, &error) else {
            throw Failure(description: "giflib cannot open \(path): \(String(cString: GifErrorString(error)))")
        }
        defer {
            var e: Int32 = 0
            DGifCloseFile(gif, &e)
        }
        guard DGifSlurp(gif) == GIF_OK else {
            throw Failure(
                description: "giflib cannot read \(path): \(String(cString: GifErrorString(gif.pointee.Error)))")
        }
        let g = gif.pointee
        width = Int(g.SWidth)
        height = Int(g.SHeight)
        hasGlobalPalette = g.SColorMap != nil
        netscapeLoop = nil
        frames = []

        var blocks: [ExtensionBlock] = []
        for i in 0..<Int(g.ImageCount) {
            let image = g.SavedImages[i]
            blocks += (0..<Int(image.ExtensionBlockCount)).map { image.ExtensionBlocks[$0] }
        }
        blocks += (0..<Int(g.ExtensionBlockCount)).map { g.ExtensionBlocks[$0] }
        netscapeLoop = DecodedGIF.loopCount(in: blocks)

        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<Int(g.ImageCount) {
            let image = g.SavedImages[i]
            let d = image.ImageDesc
            var gcb = GraphicsControlBlock(
                DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
                TransparentColor: NO_TRANSPARENT_COLOR)
            _ = DGifSavedExtensionToGCB(gif, Int32(i), &gcb)
            guard let map = d.ColorMap ?? g.SColorMap else {
                throw Failure(description: "\(path): frame \(i) has no palette")
            }
            let transparent = gcb.TransparentColor == NO_TRANSPARENT_COLOR ? nil : Int(gcb.TransparentColor)
            let before = canvas
            var drawn = Set<UInt32>()
            let (left, top, w, h) = (Int(d.Left), Int(d.Top), Int(d.Width), Int(d.Height))
            for y in 0..<h where top + y < height {
                for x in 0..<w where left + x < width {
                    let index = Int(image.RasterBits[y * w + x])
                    if index == transparent { continue }
                    guard index < Int(map.pointee.ColorCount) else {
                        throw Failure(description: "\(path): frame \(i) uses index \(index) outside its palette")
                    }
                    let c = map.pointee.Colors[index]
                    let o = ((top + y) * width + left + x) * 4
                    drawn.insert(UInt32(c.Red) | UInt32(c.Green) << 8 | UInt32(c.Blue) << 16)
                    canvas[o] = c.Red
                    canvas[o + 1] = c.Green
                    canvas[o + 2] = c.Blue
                    canvas[o + 3] = 255
                }
            }
            frames.append(
                Frame(
                    pixels: canvas, delay: Int(gcb.DelayTime), disposal: Int(gcb.DisposalMode),
                    left: left, top: top, width: w, height: h, transparentIndex: transparent,
                    hasLocalPalette: d.ColorMap != nil, paletteSize: Int(map.pointee.ColorCount),
                    drawnColors: drawn))
            switch gcb.DisposalMode {
            case DISPOSE_BACKGROUND:
                for y in max(0, top)..<min(height, top + h) {
                    for x in max(0, left)..<min(width, left + w) {
                        let o = (y * width + x) * 4
                        canvas[o] = 0
                        canvas[o + 1] = 0
                        canvas[o + 2] = 0
                        canvas[o + 3] = 0
                    }
                }
            case DISPOSE_PREVIOUS:
                canvas = before
            default:
                break
            }
        }
    }

    /// The repeat count of a NETSCAPE2.0 (or ANIMEXTS1.0) application extension.
    private static func loopCount(in blocks: [ExtensionBlock]) -> Int? {
        for (i, b) in blocks.enumerated() where b.Function == APPLICATION_EXT_FUNC_CODE && b.ByteCount == 11 {
            let id = String(decoding: UnsafeBufferPointer(start: b.Bytes, count: 11), as: UTF8.self)
            guard id == "NETSCAPE2.0" || id == "ANIMEXTS1.0", i + 1 < blocks.count else { continue }
            let sub = blocks[i + 1]
            guard sub.Function == CONTINUE_EXT_FUNC_CODE, sub.ByteCount >= 3, sub.Bytes[0] == 1 else { continue }
            return Int(sub.Bytes[1]) | Int(sub.Bytes[2]) << 8
        }
        return nil
    }
}

/// The same file as Pillow composites it (Tests/tools/decode_gif.py).
package struct PillowGIF {
    package var width: Int, height: Int
    /// Pillow's `info["loop"]`: nil when the file has no loop extension.
    package var loop: Int?
    /// Per frame: duration in milliseconds and composited RGBA pixels.
    package var frames: [(durationMs: Int?, pixels: [UInt8])]

    package init(path: String) throws {
        let (json, dumps) = try withTemporaryDirectory { dir -> (Data, [[UInt8]]) in
            let json = try ToolRunner.python("decode_gif.py", [path, "--dump", dir.path])
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".rgba") }
                .sorted()
            return (json, try files.map { [UInt8](try Data(contentsOf: dir.appendingPathComponent($0))) })
        }
        struct Info: Decodable {
            struct Frame: Decodable { var duration: Int? }
            var width: Int, height: Int, loop: Int?, frames: [Frame]
        }
        let info = try JSONDecoder().decode(Info.self, from: json)
        width = info.width
        height = info.height
        loop = info.loop
        frames = zip(info.frames, dumps).map { ($0.duration, $1) }
        try #require(
            dumps.count == info.frames.count, "decode_gif.py dumped \(dumps.count) of \(info.frames.count) frames")
    }
}
