import Foundation
import ThrobberKit

/// A small deterministic generator (SplitMix64): tests never use unseeded
/// randomness.
package struct SeededRandom {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    package mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 56) }
}

/// Frames made in code, each for one palette situation. Opaque pixels have
/// alpha 255 and transparent ones are 0,0,0,0, so they need no alpha policy
/// and are exactly what a viewer must show.
package enum Synth {
    package static func image(_ width: Int, _ height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8))
        -> RGBAImage
    {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = color(x, y)
                let o = (y * width + x) * 4
                px[o] = r
                px[o + 1] = g
                px[o + 2] = b
                px[o + 3] = a
            }
        }
        return RGBAImage(width: width, height: height, pixels: px)
    }

    /// A red disc moving right over a transparent background, with a blue
    /// square that stays put: 2 colors plus transparency, and from one
    /// frame to the next some opaque pixels become transparent.
    package static func movingDisc(frames: Int, width: Int = 48, height: Int = 32) -> [RGBAImage] {
        (0..<frames).map { f in
            let cx = 8 + f * (width - 16) / max(1, frames - 1)
            let cy = height / 2
            return image(width, height) { x, y in
                if (x - cx) * (x - cx) + (y - cy) * (y - cy) <= 36 { return (220, 30, 40, 255) }
                if x >= width - 10 && x < width - 4 && y >= 2 && y < 8 { return (20, 40, 200, 255) }
                return (0, 0, 0, 0)
            }
        }
    }

    /// Frames with 200 colors each, a different set per frame: each frame
    /// fits in a palette, all of them together do not.
    package static func distinctPalettes(frames: Int, width: Int = 40, height: Int = 20) -> [RGBAImage] {
        (0..<frames).map { f in
            image(width, height) { x, y in
                let j = (y * width + x) % 200
                return (UInt8(j), UInt8((f * 40 + 10) % 256), UInt8(255 - j), 255)  // distinct for f < 32
            }
        }
    }

    /// A smooth, photo-like opaque picture with thousands of colors: two
    /// gradients and soft waves, shifted by `phase` so frames differ.
    package static func photoLike(phase: Int, width: Int = 64, height: Int = 48) -> RGBAImage {
        image(width, height) { x, y in
            let fx = Double(x + phase) / Double(width)
            let fy = Double(y) / Double(height)
            let wave = sin(fx * 9 + fy * 4) * 0.5 + 0.5
            let r = 255 * (0.6 * fx + 0.4 * wave)
            let g = 255 * (0.7 * fy + 0.3 * (1 - wave))
            let b = 255 * (0.5 * (1 - fx) + 0.5 * fy * wave)
            func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
            return (byte(r), byte(g), byte(b), 255)
        }
    }

    /// Opaque noise from a fixed seed.
    package static func noise(seed: UInt64, width: Int = 32, height: Int = 32) -> RGBAImage {
        var random = SeededRandom(seed: seed)
        return image(width, height) { _, _ in (random.byte(), random.byte(), random.byte(), 255) }
    }

    /// One color everywhere.
    package static func solid(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255, width: Int = 16, height: Int = 16)
        -> RGBAImage
    {
        image(width, height) { _, _ in (r, g, b, a) }
    }

    /// The number of distinct RGBA values.
    package static func colorCount(_ images: [RGBAImage]) -> Int {
        var seen = Set<UInt32>()
        for image in images {
            for y in 0..<image.height { for x in 0..<image.width { seen.insert(image.pixel(x, y)) } }
        }
        return seen.count
    }
}
