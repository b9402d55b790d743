internal import CGIF
import ThrobberCore

/// Composites GIF frames as browsers do: transparent pixels leave the
/// canvas alone, disposal 2 clears the frame's rectangle to transparent,
/// disposal 3 restores the canvas from before the frame.
struct GIFCompositor {
    let width: Int, height: Int
    private var canvas: RGBAImage
    private(set) var frames: [RGBAImage] = []
    private var durations: [Rational] = []
    private var stored: [DecodedAnimation.StoredFrame] = []
    private var total = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        canvas = RGBAImage(width: width, height: height)
    }

    /// Refuses a frame too large to decode, or placed beyond any GIF canvas
    /// (a bomb for decoders that grow the canvas), before its pixels exist.
    mutating func check(_ rect: PixelRect, name: String) throws {
        guard rect.maxX <= 65535, rect.maxY <= 65535 else {
            throw ThrobberError(
                .data,
                "\(name): frame \(frames.count + 1) at \(rect.x),\(rect.y) reaches beyond the largest GIF canvas (decompression bomb?)"
            )
        }
        let w = rect.width
        let h = rect.height
        guard w > 0, h > 0, w <= ImageDecoder.maxSide, h <= ImageDecoder.maxSide, w * h <= DecodedAnimation.maxPixels
        else {
            throw ThrobberError(
                .data,
                "\(name): frame \(frames.count + 1) is \(w)x\(h), larger than Throbber decodes (decompression bomb?)"
            )
        }
        total += width * height * 4
        guard total <= DecodedAnimation.maxTotalBytes else {
            throw ThrobberError(
                .data, "\(name): too many frames to decode (over \(DecodedAnimation.maxTotalBytes >> 20) MiB)")
        }
    }

    mutating func add(
        rect: PixelRect, indices: [UInt8], palette: [UInt32]?, disposal: Int, delay: Int, transparent: Int?
    ) {
        // No color table at all: like Pillow and browsers, a gray ramp.
        let stated = palette
        let palette = palette ?? (0..<256).map { UInt32($0) * 0x010101 | 0xFF00_0000 }
        let before = disposal == 3 ? canvas : nil
        // The visible part of the frame (frames may reach past the canvas).
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            for yy in 0..<rect.height where rect.y + yy < height {
                for xx in 0..<rect.width where rect.x + xx < width {
                    let index = Int(indices[yy * rect.width + xx])
                    if index == transparent { continue }
                    let c = index < palette.count ? palette[index] : 0xFF00_0000
                    let o = ((rect.y + yy) * width + rect.x + xx) * 4
                    px[o] = UInt8(c & 0xFF)
                    px[o + 1] = UInt8((c >> 8) & 0xFF)
                    px[o + 2] = UInt8((c >> 16) & 0xFF)
                    px[o + 3] = 255
                }
            }
        }
        frames.append(canvas)
        durations.append(Rational(Int64(delay), 100))
        let names = ["unspecified", "none", "background", "previous"]
        stored.append(
            .init(
                rect: rect, delay: (delay, 100), dispose: (0..<4).contains(disposal) ? names[disposal] : "unspecified",
                blend: "over", colors: stated?.count, transparent: transparent))
        switch disposal {
        case 2:
            let r = PixelRect(
                x: rect.x, y: rect.y, width: min(rect.width, width - rect.x), height: min(rect.height, height - rect.y))
            if !r.isEmpty { FrameDiff.clear(&canvas, r) }
        case 3:
            canvas = before!
        default: break
        }
    }

    func finish(loop: Int, name: String) throws -> DecodedAnimation {
        guard !frames.isEmpty else { throw ThrobberError(.data, "\(name): GIF has no frames") }
        return DecodedAnimation(
            width: width, height: height, frames: frames, durations: durations, loop: loop,
            format: .gif, stored: stored)
    }
}
