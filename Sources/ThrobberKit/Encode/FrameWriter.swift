/// The last two stages for GIF: give each planned frame its palette (in
/// parallel: frames are independent there), then index and write them in
/// order, keeping track of what a viewer shows so that unchanged pixels can
/// be left transparent.
struct FrameWriter {
    private let gif: GIFWriter
    private let choice: PaletteChoice
    private let jobs: Int
    private let width: Int, height: Int
    /// What a viewer shows before the next frame is drawn.
    private var shown: RGBAImage
    private let globalTable: ColorTable?

    init(sink: ByteSink, width: Int, height: Int, choice: PaletteChoice, loop: Int, jobs: Int) throws {
        var global: [UInt32]? = nil
        var background = 0
        if case .global(let colors, let transparent) = choice {
            global = colors
            background = transparent ?? 0
        }
        gif = try GIFWriter(sink: sink, width: width, height: height, globalPalette: global,
                            backgroundIndex: background, loop: loop)
        self.choice = choice
        self.jobs = jobs
        self.width = width
        self.height = height
        shown = RGBAImage(width: width, height: height)
        globalTable = global.map { ColorTable(colors: $0) }
    }

    /// A planned frame with its palette work done, ready to be written.
    struct Paletted {
        enum Work {
            case global
            case local(ColorTable)
            case quantized(crop: RGBAImage, palette: Quantizer.Palette)
        }
        var frame: PlannedFrame
        var work: Work
    }

    /// The part of the work that frames do not share: local palettes or
    /// libimagequant's palette search. Pure, so it runs in parallel (and
    /// while earlier frames are being written).
    static func palettize(_ frames: [PlannedFrame], choice: PaletteChoice, jobs: Int) throws -> [Paletted] {
        switch choice {
        case .global:
            return frames.map { Paletted(frame: $0, work: .global) }
        case .local(let limit, let fallback):
            return try parallelMap(frames.count, jobs: jobs) { i in
                let f = frames[i]
                var table = ColorTable(limit: limit)
                guard table.insertColors(of: f.target, in: f.geometry.rect) else {
                    // The redrawn rectangle outgrew the census: quantize this one.
                    let crop = FrameDiff.crop(f.target, f.geometry.rect)
                    let palette = try fallback.palette(for: crop, transparentEntry: f.index > 0 || crop.hasTransparency
                                                       || f.geometry.disposal == .background)
                    return Paletted(frame: f, work: .quantized(crop: crop, palette: palette))
                }
                // Room permitting, a transparent entry: for unchanged pixels,
                // and so decoders that follow the spec's "restore to background
                // color" literally (Pillow) clear a disposed frame to transparent.
                if f.index > 0 || f.geometry.disposal == .background { table.insert(0) }
                return Paletted(frame: f, work: .local(table))
            }
        case .quantized(let quantizer):
            return try parallelMap(frames.count, jobs: jobs) { i in
                let f = frames[i]
                let crop = FrameDiff.crop(f.target, f.geometry.rect)
                let palette = try quantizer.palette(for: crop, transparentEntry: f.index > 0 || crop.hasTransparency
                                                        || f.geometry.disposal == .background)
                return Paletted(frame: f, work: .quantized(crop: crop, palette: palette))
            }
        }
    }

    /// Writes frames in order; each depends on what the previous ones show.
    mutating func write(_ frames: [Paletted]) throws {
        for p in frames {
            switch (p.work, choice) {
            case (.global, .global(let colors, let transparent)):
                try writeExact(p.frame, table: globalTable ?? ColorTable(colors: colors), local: false, transparent: transparent)
            case (.local(let table), _):
                try writeExact(p.frame, table: table, local: true, transparent: table.index(of: 0))
            case (.quantized(let crop, let palette), .quantized(let quantizer)),
                 (.quantized(let crop, let palette), .local(_, let quantizer)):
                try writeQuantized(p.frame, crop: crop, quantizer: quantizer, palette: palette)
            default:
                throw ThrobberError(.software, "frame palette does not match the palette choice")
            }
        }
    }

    func finish() throws { try gif.finish() }

    /// Lossless: index every pixel; if the palette has a transparent entry,
    /// also try marking pixels the viewer already shows as transparent and
    /// keep whichever encodes smaller.
    private mutating func writeExact(_ f: PlannedFrame, table: ColorTable, local: Bool, transparent: Int?) throws {
        let rect = f.geometry.rect
        var plain = [UInt8](repeating: 0, count: rect.width * rect.height)
        var keep = plain
        var keepsAny = false
        f.target.pixels.withUnsafeBytes { tRaw in
            shown.pixels.withUnsafeBytes { sRaw in
                let t = tRaw.bindMemory(to: UInt32.self), s = sRaw.bindMemory(to: UInt32.self)
                var lastColor: UInt32 = 0, lastIndex = table.index(of: 0) ?? 0
                for y in 0..<rect.height {
                    let row = (rect.y + y) * width + rect.x
                    for x in 0..<rect.width {
                        let c = t[row + x]
                        if c != lastColor { lastColor = c; lastIndex = table.index(of: c)! }
                        let i = y * rect.width + x
                        plain[i] = UInt8(lastIndex)
                        if let transparent, f.index > 0, c == s[row + x] {
                            keep[i] = UInt8(transparent)
                            if lastIndex != transparent { keepsAny = true }
                        } else {
                            keep[i] = UInt8(lastIndex)
                        }
                    }
                }
            }
        }
        var frame = GIFWriter.Frame(rect: rect, palette: local ? table.colors : nil, indices: plain,
                                    delay: f.delay, disposal: f.geometry.disposal, transparentIndex: transparent)
        if keepsAny {
            var alternative = frame
            alternative.indices = keep
            if GIFWriter.encodedSize(of: alternative, palette: table.colors, width: width, height: height)
                < GIFWriter.encodedSize(of: frame, palette: table.colors, width: width, height: height) {
                frame = alternative
            }
        }
        try gif.write(frame)
        FrameDiff.paste(f.target, rect, into: &shown)
        if f.geometry.disposal == .background { FrameDiff.clear(&shown, rect) }
    }

    /// Quantized: remap against what the viewer shows, so that close-enough
    /// pixels stay as they are (transparent index) instead of shimmering.
    private mutating func writeQuantized(_ f: PlannedFrame, crop: RGBAImage, quantizer: Quantizer,
                                         palette: Quantizer.Palette) throws {
        let rect = f.geometry.rect
        let background = f.index > 0 ? FrameDiff.crop(shown, rect) : nil
        var (indices, colors) = try quantizer.remap(crop, to: palette, background: background)
        // GIF has no partial alpha: entries libimagequant made from the
        // transparent pixels (alpha < 50%) all mean "transparent".
        let transparent = colors.firstIndex { $0 >> 24 < 128 }
        if let transparent, colors.indices.contains(where: { $0 != transparent && colors[$0] >> 24 < 128 }) {
            let lookup = colors.indices.map { UInt8(colors[$0] >> 24 < 128 ? transparent : $0) }
            for i in indices.indices { indices[i] = lookup[Int(indices[i])] }
        }
        try gif.write(GIFWriter.Frame(rect: rect, palette: colors, indices: indices, delay: f.delay,
                                      disposal: f.geometry.disposal, transparentIndex: transparent))
        let w = width
        shown.pixels.withUnsafeMutableBytes { sRaw in
            let s = sRaw.bindMemory(to: UInt32.self)
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let index = Int(indices[y * rect.width + x])
                    if index == transparent { continue }
                    s[(rect.y + y) * w + rect.x + x] = colors[index] | 0xFF00_0000
                }
            }
        }
        if f.geometry.disposal == .background { FrameDiff.clear(&shown, rect) }
    }
}

extension RGBAImage {
    var hasTransparency: Bool {
        var i = 3
        while i < pixels.count { if pixels[i] == 0 { return true }; i += 4 }
        return false
    }
}

extension FrameDiff {
    /// Copies `rect` of `source` into the same place in `image`.
    static func paste(_ source: RGBAImage, _ rect: PixelRect, into image: inout RGBAImage) {
        let w = image.width, rowBytes = rect.width * 4
        source.pixels.withUnsafeBufferPointer { src in
            image.pixels.withUnsafeMutableBufferPointer { dst in
                for y in rect.y..<rect.maxY {
                    let o = (y * w + rect.x) * 4
                    (dst.baseAddress! + o).update(from: src.baseAddress! + o, count: rowBytes)
                }
            }
        }
    }
}
