import Foundation
import TestSupport
import Testing

@testable import ThrobberEncode
@testable import ThrobberKit

@Suite("APNG palette layout")
struct APNGPaletteLayoutTests {
    @Test(
        "a palette that repeats a color still gives each later color its own entry (mandelbrot --colors 256 was 12 dB)")
    func repeatedPaletteEntry() {
        let red: UInt32 = 0xFF00_00FF
        let green: UInt32 = 0xFF00_FF00
        let blue: UInt32 = 0xFFFF_0000
        let layout = APNGPixelLayout(colorType: .palette, depth: 8, palette: [red, green, red, blue])
        // Pixels blue, green, red as RGBA bytes.
        let rgba: [UInt8] = [0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255]
        #expect(layout.encode(rgba, width: 3) == [3, 1, 0])
    }

    @Test("--colors 256 on a fractal zoom whose libimagequant palette repeats a color stays near the source")
    func quantizedZoomStaysClose() throws {
        try withTemporaryDirectory { dir in
            let files = try ffmpegSourceFrames("mandelbrot=size=160x120:rate=25", count: 3, in: dir)
            let sources = try referenceImages(files.map(\.path))
            try withAPNG(
                MemoryFrameSource(sources),
                .with {
                    $0.colors = 256
                    $0.jobs = 1
                }
            ) { apng in
                let decoded = try ReferenceAnimation(.spec, path: apng.path).frames
                #expect(decoded.count == sources.count)
                for (i, (d, s)) in zip(decoded, sources.map(normalized)).enumerated() {
                    // Measured 40.71 dB at worst.
                    #expect(psnr(d, s) >= 40.2, "frame \(i): \(psnr(d, s)) dB")
                }
            }
        }
    }
}
