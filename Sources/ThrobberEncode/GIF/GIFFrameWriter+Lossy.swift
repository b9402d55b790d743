import ThrobberCodecs
import ThrobberCore

extension GIFFrameWriter {
    /// Rewrites a frame's indices with lossy LZW, each pixel judged
    /// against its source color in `f.target`.
    mutating func applyLossy(_ indices: inout [UInt8], _ f: PlannedFrame, palette: [UInt32], transparent: Int?) {
        let crop = FrameDiff.crop(f.target, f.geometry.rect)
        let sources = crop.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        lossy?.rewrite(&indices, sources: sources, palette: palette, transparent: transparent)
    }

    /// Draws written indices onto what the viewer shows (the transparent
    /// entry leaves a pixel as it was).
    mutating func show(_ indices: [UInt8], _ rect: PixelRect, colors: [UInt32], transparent: Int?) {
        let w = width
        shown.pixels.withUnsafeMutableBytes { raw in
            let s = raw.bindMemory(to: UInt32.self)
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let index = Int(indices[y * rect.width + x])
                    if index == transparent { continue }
                    s[(rect.y + y) * w + rect.x + x] = colors[index] | 0xFF00_0000
                }
            }
        }
    }
}
